#!/usr/bin/env node
// Thin launcher: `npm run build` (run by `npm install`) compiles src/ into dist/ and bundles the
// CLI into dist/bundle/ (scripts/bundle.mjs), which loads faster than dist/'s many small modules.
import module from 'node:module';

// Node 22+ keeps V8's compiled code of the bundle between runs; Node 20 has no such cache for ES
// modules (the TypeScript compiler, the big one, has its own: src/typescript/compile-cache.ts).
module.enableCompileCache?.();
const { run } = await import('../dist/bundle/main.js');

process.exitCode = await run(process.argv);
