/**
 * ts-morph, loaded with `require`. ts-morph is CommonJS; importing it from ESM makes Node scan
 * its 9 MB bundled TypeScript for named exports (cjs-module-lexer), which doubles its load time
 * (0.85 s → 0.45 s of CPU on these machines). Types still come from type-only imports.
 * This module is the only place ts-morph is loaded, so only commands that parse pay for it.
 */
import module, { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';

// Node 22+ can keep V8's compiled code between runs; compiling the bundled TypeScript is most of
// what loading ts-morph costs. (Node 20 has no such cache; there this does nothing.)
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const tsMorph = createRequire(import.meta.url)('ts-morph') as typeof TsMorph;

export const Node = tsMorph.Node;
export type Node = TsMorph.Node;
export const Project = tsMorph.Project;
export type Project = TsMorph.Project;
export const SyntaxKind = tsMorph.SyntaxKind;
export type SyntaxKind = TsMorph.SyntaxKind;
