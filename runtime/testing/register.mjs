// Lets plain `node` run TypeScript files: `node --import ./runtime/testing/register.mjs file.ts`.
// Used for child processes in tests (managers killed with SIGKILL) and for benchmarks, where
// compiling to a directory first would add a step and hide what runs.
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
