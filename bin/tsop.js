#!/usr/bin/env node
// Thin launcher: `npm run build` (run by `npm install`) compiles src/ into dist/ and bundles the
// CLI into dist/bundle/cli.cjs (scripts/bundle.mjs), which launch.js loads with its compiled code
// cached between runs (src/cli/launch.ts).
import { loadCli } from '../dist/bundle/launch.js';

process.exitCode = await loadCli(process.argv).run(process.argv);
