// Module hooks behind register.mjs: `.js` specifiers that name a `.ts` file resolve to it, and
// `.ts` files are compiled with TypeScript's transpileModule (decorators lowered like tsc does).
//
// Tests start many short-lived Node processes through these hooks (managers killed with SIGKILL,
// fatal-error children), and each used to load the 9 MB TypeScript compiler and transpile every
// module it imports: seconds of CPU per child, enough to time out a test on two busy cores. The
// output is therefore kept on disk, keyed by a hash of the source and of everything that shapes
// the output, and TypeScript is loaded only when a file is not in that cache yet.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'ESNext',
  inlineSourceMap: true,
  useDefineForClassFields: true,
};
const TS_VERSION = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('typescript/package.json'), 'utf8'),
).version;
// Kept in the temp folder across runs, beside the compile caches of `tsop manifests`.
const CACHE_DIR = join(tmpdir(), 'tsop-ts-hooks-cache');

export async function resolve(specifier, context, nextResolve) {
  if (/^\.{1,2}\//.test(specifier) && specifier.endsWith('.js') && context.parentURL?.startsWith('file:')) {
    const tsUrl = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (!existsSync(fileURLToPath(new URL(specifier, context.parentURL))) && existsSync(fileURLToPath(tsUrl))) {
      return { url: tsUrl.href, shortCircuit: true };
    }
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !/\.m?ts$/.test(url)) return nextLoad(url, context);
  const file = fileURLToPath(url);
  const source = await readFile(file, 'utf8');
  return { format: 'module', source: compiled(file, source), shortCircuit: true };
}

let ts;

function compiled(file, source) {
  // The file name is part of the key: the inline source map names it.
  const key = createHash('sha256')
    .update(`${TS_VERSION}\0${JSON.stringify(COMPILER_OPTIONS)}\0${file}\0${source}`)
    .digest('hex');
  const cached = join(CACHE_DIR, `${key}.js`);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    // not compiled yet
  }
  if (ts === undefined) {
    ts = createRequire(import.meta.url)('typescript');
    pruneOldEntries();
  }
  const out = ts.transpileModule(source, {
    fileName: file,
    compilerOptions: {
      ...COMPILER_OPTIONS,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
    },
  }).outputText;
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written aside and renamed, so a process reading it concurrently never sees half a file.
    const partial = `${cached}.${process.pid}.tmp`;
    writeFileSync(partial, out);
    renameSync(partial, cached);
  } catch {
    // A cache that cannot be written only costs time.
  }
  return out;
}

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** Drops entries written over a week ago (a file still in use is compiled again), once per process that compiles, so edits do not pile up. */
function pruneOldEntries() {
  try {
    const cutoff = Date.now() - WEEK_MS;
    for (const name of readdirSync(CACHE_DIR)) {
      const path = join(CACHE_DIR, name);
      if (statSync(path).mtimeMs < cutoff) rmSync(path, { force: true });
    }
  } catch {
    // no cache yet, or a file removed meanwhile
  }
}
