/**
 * Module hooks for the operator that `tsop dev` runs from source: the shared TypeScript hooks
 * (src/verify/ts-hooks.ts: `.js` specifiers resolve to `.ts` files, which are transpiled without
 * a type-check; the session checks types itself before a restart), with the output cached on
 * disk by path and mtime in $TSOP_DEV_CACHE. A restart then only transpiles the files that
 * changed and usually never loads TypeScript at all: most of what keeps it under two seconds.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transpile, type Loaded } from '../verify/ts-hooks.js';

export { resolve } from '../verify/ts-hooks.js';

export async function load(
  url: string,
  context: object,
  next: (u: string, c: object) => Promise<Loaded>,
): Promise<Loaded> {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const file = fileURLToPath(url);
  const cacheDir = process.env['TSOP_DEV_CACHE'];
  const key = createHash('sha1')
    .update(`${file}\0${statSync(file).mtimeMs}`)
    .digest('hex');
  const cached = cacheDir ? await readFile(join(cacheDir, `${key}.js`), 'utf8').catch(() => undefined) : undefined;
  if (cached !== undefined) return { format: 'module', source: cached, shortCircuit: true };
  const source = await transpile(file);
  if (cacheDir) {
    await mkdir(cacheDir, { recursive: true });
    await writeFile(join(cacheDir, `${key}.js`), source);
  }
  return { format: 'module', source, shortCircuit: true };
}
