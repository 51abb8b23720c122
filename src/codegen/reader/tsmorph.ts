/**
 * ts-morph, loaded with `require`. ts-morph is CommonJS; importing it from ESM makes Node scan
 * its 9 MB bundled TypeScript for named exports (cjs-module-lexer), which doubles its load time
 * (0.85 s → 0.45 s of CPU on these machines). Types still come from type-only imports.
 * This module is the only place ts-morph is loaded, so only commands that parse pay for it.
 */
import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';
import { enableTsCompileCache } from './compile-cache.js';

enableTsCompileCache();

const tsMorph = createRequire(import.meta.url)('ts-morph') as typeof TsMorph;

export const Node = tsMorph.Node;
export type Node = TsMorph.Node;
export const Project = tsMorph.Project;
export type Project = TsMorph.Project;
export const SyntaxKind = tsMorph.SyntaxKind;
export type SyntaxKind = TsMorph.SyntaxKind;
/** The TypeScript compiler ts-morph bundles: raw nodes for the hot paths that need no wrappers. */
export const ts = tsMorph.ts;
