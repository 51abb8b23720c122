#!/usr/bin/env node
// Thin launcher: `npm run build` (run by `npm install`) compiles src/ into dist/ and bundles the
// CLI into dist/bundle/ (scripts/bundle.mjs), which loads faster than dist/'s many small modules.
import module from 'node:module';
import v8 from 'node:v8';

// Most runs last a fraction of a second. Node 20's V8 (no Maglev) hands a function to TurboFan
// after about 66 KB of bytecode executed, so the TypeScript parser and the YAML writer get
// optimised on background threads for more CPU than the optimised code then saves (a 50-kind
// `tsop manifests`: 15 % more CPU in all, 8 % more RSS). Eight times that budget still
// optimises what stays hot in long runs (200 kinds: 19 % less CPU, same wall). Set before any
// code runs; V8 hashed its flags for code caches at startup, so the caches stay valid.
if (process.versions.node.startsWith('20.')) v8.setFlagsFromString('--interrupt-budget=540672');

// Node 22+ keeps V8's compiled code of the bundle between runs; Node 20 has no such cache for ES
// modules (the TypeScript compiler, the big one, has its own: src/codegen/reader/compile-cache.ts).
module.enableCompileCache?.();
const { run } = await import('../dist/bundle/main.js');

process.exitCode = await run(process.argv);
