/**
 * The TypeScript compiler that ts-morph bundles, loaded on its own and on first use: the reader
 * and the source editor walk raw compiler nodes, so they need neither ts-morph's wrapper classes
 * nor the time they take to load, and a command that never parses loads nothing. Resolved from
 * ts-morph's own location, so it is always the copy ts-morph would use; compile-cached.
 */
import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';
import { enableTsCompileCache } from './compile-cache.js';

let loaded: typeof TsMorph.ts | undefined;

export function typescript(): typeof TsMorph.ts {
  if (loaded === undefined) {
    enableTsCompileCache();
    const fromTsMorph = createRequire(createRequire(import.meta.url).resolve('ts-morph'));
    loaded = fromTsMorph('@ts-morph/common/dist/typescript.js') as typeof TsMorph.ts;
  }
  return loaded;
}
