/**
 * Module hooks for the operator that `tsop dev` runs from source: `.js` specifiers that name a
 * `.ts` file resolve to it, and `.ts` files are transpiled (no type-check; the session checks
 * types itself before a restart). Output is cached on disk by path and mtime in
 * $TSOP_DEV_CACHE, so a restart only transpiles the files that changed and usually never loads
 * TypeScript at all: that is most of what keeps a restart under two seconds.
 */
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
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

let ts: typeof TsMorph.ts | undefined; // loaded on the first cache miss only

export async function load(url: string, context: object, next: (u: string, c: object) => Promise<Loaded>): Promise<Loaded> {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const file = fileURLToPath(url);
  const cacheDir = process.env['TSOP_DEV_CACHE'];
  const key = createHash('sha1').update(`${file}\0${statSync(file).mtimeMs}`).digest('hex');
  const cached = cacheDir ? await readFile(join(cacheDir, `${key}.js`), 'utf8').catch(() => undefined) : undefined;
  if (cached !== undefined) return { format: 'module', source: cached, shortCircuit: true };
  ts ??= (createRequire(import.meta.url)('ts-morph') as typeof TsMorph).ts;
  const out = ts.transpileModule(await readFile(file, 'utf8'), {
    fileName: file,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, useDefineForClassFields: true, inlineSourceMap: true },
  });
  if (cacheDir) {
    await mkdir(cacheDir, { recursive: true });
    await writeFile(join(cacheDir, `${key}.js`), out.outputText);
  }
  return { format: 'module', source: out.outputText, shortCircuit: true };
}
