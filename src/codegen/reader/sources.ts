/**
 * Finds the files `tsop manifests` reads (the one place the reader touches the disk): every
 * `.ts` file under `src/api/`, plus files elsewhere under `src/` that use a decorator (the
 * controllers, whatever they import `@Rbac` as; the reader then keeps the classes that declare
 * markers). Tests, declaration files, `node_modules` and the embedded runtime are skipped. Types
 * the API files import from elsewhere in the project — another folder, or through a tsconfig
 * `paths` alias — are loaded too, following imports from the API files outward; the tsconfig
 * itself rides along in the source set so the reader can resolve the same aliases.
 *
 * The reads are synchronous: a few dozen small files, where each promise-based read (a file
 * handle, a stat, chunked reads, a hop to the thread pool) cost more CPU than the read itself.
 */
import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileCandidates, parsePathAliases, specifierTargets, TSCONFIG } from './aliases.js';
import { readApiModel, type SourceSet } from './index.js';
import type { ApiModel } from '../model.js';

const SKIP_DIRS = new Set(['node_modules', 'dist', '.git']);

/**
 * `@name` or `@ns.name` where a decorator may stand: a cheap test that keeps files with no
 * decorated class from being parsed (`'@kubernetes/…'` in an import does not match).
 */
const USES_DECORATOR =
  /(?:^|[\s(,;{}])@[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\s*[(\n]|\s+(?:export|abstract|class)\b)/m;

/** The project's API model: its sources read from disk and parsed (this loads the TypeScript compiler). */
export async function readProjectApi(root: string): Promise<ApiModel> {
  return readApiModel(await loadSources(root));
}

export async function loadSources(root: string, srcDir = 'src'): Promise<SourceSet> {
  const out: Record<string, string> = {};
  const apiPrefix = `${srcDir}/api/`;
  // The embedded runtime (src/runtime) declares the markers; it is never an API.
  for (const path of walk(join(root, srcDir), join(root, srcDir, 'runtime'))) {
    const rel = relative(root, path).split(sep).join('/');
    if (!/\.(m?ts)$/.test(rel) || /\.d\.m?ts$/.test(rel) || /\.test\.m?ts$/.test(rel)) continue;
    const text = readFileSync(path, 'utf8');
    if (rel.startsWith(apiPrefix) || USES_DECORATOR.test(text)) out[rel] = text;
  }
  const tsconfig = readIfExists(join(root, TSCONFIG));
  if (tsconfig !== undefined) out[TSCONFIG] = tsconfig;
  followImports(
    root,
    out,
    Object.keys(out).filter((p) => p.startsWith(apiPrefix)),
    `${srcDir}/runtime/`,
  );
  return out;
}

/** `from '…'`, `import('…')`, `export … from '…'`: the specifiers a file imports. */
const IMPORT_SPECIFIER = /\b(?:from|import)\s*\(?\s*['"]([^'"\n]+)['"]/g;

/** Loads the project files that `start` import, and what those import, into `out`. */
function followImports(root: string, out: Record<string, string>, start: string[], runtimeDir: string): void {
  const aliases = parsePathAliases(out[TSCONFIG]);
  const queue = [...start];
  const tried = new Set<string>();
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const m of (out[file] ?? '').matchAll(IMPORT_SPECIFIER)) {
      for (const base of specifierTargets(file, m[1] ?? '', aliases)) {
        for (const candidate of fileCandidates(base)) {
          if (tried.has(candidate)) continue;
          tried.add(candidate);
          if (
            candidate.startsWith(runtimeDir) ||
            /(^|\/)node_modules\//.test(candidate) ||
            /\.(test|d)\.m?ts$/.test(candidate)
          )
            continue;
          if (out[candidate] !== undefined) break;
          const text = readIfExists(join(root, candidate));
          if (text === undefined) continue;
          out[candidate] = text;
          queue.push(candidate);
          break;
        }
      }
    }
  }
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function walk(dir: string, skip: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    if (e.isDirectory()) {
      const sub = join(dir, e.name);
      if (!SKIP_DIRS.has(e.name) && sub !== skip) out.push(...walk(sub, skip));
    } else if (e.isFile()) out.push(join(dir, e.name));
  }
  return out.sort();
}
