#!/usr/bin/env node
// Thin launcher: the CLI is compiled from src/ into dist/ by `npm run build` (run by `npm install`).
import { run } from '../dist/cli/main.js';

process.exitCode = await run(process.argv);
