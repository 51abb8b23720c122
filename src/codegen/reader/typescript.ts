/**
 * The TypeScript compiler that ts-morph bundles, loaded on its own: the reader walks raw compiler
 * nodes, so it needs neither ts-morph's wrapper classes nor the time they take to load. Resolved
 * from ts-morph's own location, so it is always the copy ts-morph would use.
 */
import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';
import { enableTsCompileCache } from './compile-cache.js';

enableTsCompileCache();

const fromTsMorph = createRequire(createRequire(import.meta.url).resolve('ts-morph'));

export const ts = fromTsMorph('@ts-morph/common/dist/typescript.js') as typeof TsMorph.ts;
