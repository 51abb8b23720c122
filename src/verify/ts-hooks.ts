/**
 * Module hooks that let the built CLI load the control-plane harness, which ships as TypeScript
 * source (runtime/envtest): `.js` specifiers that name a `.ts` file resolve to it, and `.ts`
 * files are transpiled with the TypeScript that ts-morph bundles (a dependency of tsop, unlike
 * the `typescript` package). Registered only by plane.ts, only when Node cannot load `.ts` itself.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as TsMorph from 'ts-morph';

interface ResolveContext {
  parentURL?: string;
}
interface Resolved {
  url: string;
  shortCircuit?: boolean;
}
interface Loaded {
  format: string;
  source: string;
  shortCircuit?: boolean;
}

export async function resolve(specifier: string, context: ResolveContext, next: (s: string, c: ResolveContext) => Promise<Resolved>): Promise<Resolved> {
  const parent = context.parentURL;
  if (parent?.startsWith('file:') && parent.endsWith('.ts') && /^\.{1,2}\//.test(specifier) && specifier.endsWith('.js')) {
    const asTs = new URL(specifier.replace(/\.js$/, '.ts'), parent);
    if (!existsSync(fileURLToPath(new URL(specifier, parent))) && existsSync(fileURLToPath(asTs))) return { url: asTs.href, shortCircuit: true };
  }
  return next(specifier, context);
}

let ts: typeof TsMorph.ts | undefined; // loaded on the first .ts file

export async function load(url: string, context: object, next: (u: string, c: object) => Promise<Loaded>): Promise<Loaded> {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  ts ??= (createRequire(import.meta.url)('ts-morph') as typeof TsMorph).ts;
  const file = fileURLToPath(url);
  const out = ts.transpileModule(await readFile(file, 'utf8'), {
    fileName: file,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, useDefineForClassFields: true },
  });
  return { format: 'module', source: out.outputText, shortCircuit: true };
}
