/**
 * Finds the files `tsop manifests` reads (the one place the reader touches the disk): every
 * `.ts` file under `src/api/`, plus files elsewhere under `src/` that use a decorator (the
 * controllers, whatever they import `@Rbac` as; the reader then keeps the classes that declare
 * markers). Tests, declaration files, `node_modules` and the embedded runtime are skipped.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { readApiModel, type SourceSet } from './index.js';
import type { ApiModel } from '../model.js';

const SKIP_DIRS = new Set(['node_modules', 'dist', '.git']);

/**
 * `@name` or `@ns.name` where a decorator may stand: a cheap test that keeps files with no
 * decorated class from being parsed (`'@kubernetes/…'` in an import does not match).
 */
const USES_DECORATOR = /(?:^|[\s(,;{}])@[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\s*[(\n]|\s+(?:export|abstract|class)\b)/m;

/** The project's API model: its sources read from disk and parsed (this loads ts-morph). */
export async function readProjectApi(root: string): Promise<ApiModel> {
  return readApiModel(await loadSources(root));
}

export async function loadSources(root: string, srcDir = 'src'): Promise<SourceSet> {
  const out: Record<string, string> = {};
  const apiPrefix = `${srcDir}/api/`;
  // The embedded runtime (src/runtime) declares the markers; it is never an API.
  for (const path of await walk(join(root, srcDir), join(root, srcDir, 'runtime'))) {
    const rel = relative(root, path).split(sep).join('/');
    if (!/\.(m?ts)$/.test(rel) || /\.d\.m?ts$/.test(rel) || /\.test\.m?ts$/.test(rel)) continue;
    const text = await readFile(path, 'utf8');
    if (rel.startsWith(apiPrefix) || USES_DECORATOR.test(text)) out[rel] = text;
  }
  return out;
}

async function walk(dir: string, skip: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    if (e.isDirectory()) {
      const sub = join(dir, e.name);
      if (!SKIP_DIRS.has(e.name) && sub !== skip) out.push(...(await walk(sub, skip)));
    } else if (e.isFile()) out.push(join(dir, e.name));
  }
  return out.sort();
}
