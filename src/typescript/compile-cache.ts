/**
 * Loads the TypeScript compiler ts-morph bundles (9 MB of JavaScript), and ts-morph itself, with
 * V8's compiled code kept between runs (src/code-cache.ts), so `tsop manifests` neither compiles
 * them again on every run (that was a third of its CPU time) nor decodes 9 MB as UTF-8.
 * typescript.js gets Node's crypto module only when it asks for a hash.
 */
import { createRequire } from 'node:module';
import { cacheCompiledCode, prepareCodeCaches } from '../code-cache.js';

/** The files worth caching, as ts-morph resolves them; which of them a run loads depends on the reader. */
const TARGETS = ['ts-morph', '@ts-morph/common', '@ts-morph/common/dist/typescript.js'];

let enabled = false;

/** Call before the first `require` of ts-morph or of its typescript.js; later calls do nothing. */
export function enableTsCompileCache(): void {
  if (enabled) return;
  enabled = true;
  prepareCodeCaches();
  let files: string[];
  try {
    const fromTsMorph = createRequire(createRequire(import.meta.url).resolve('ts-morph'));
    files = TARGETS.map((id) => fromTsMorph.resolve(id));
  } catch {
    return; // no ts-morph where it should be: its require will say so
  }
  cacheCompiledCode(files.map((file) => ({ file, lazyCrypto: true })));
}
