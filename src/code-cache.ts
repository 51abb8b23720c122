/**
 * V8's compiled code of big CommonJS files kept between runs (the v8-compile-cache technique):
 * the CLI bundle (dist/bundle/cli.cjs, loaded by src/cli/launch.ts) and the TypeScript compiler
 * ts-morph bundles (src/typescript/compile-cache.ts). A file named to `cacheCompiledCode` is read
 * by the `.js` loader hooked for it alone and compiled with `vm.Script` cached data from
 * `$TMPDIR/tsop-compile-cache`; the data is written at exit, so the functions a run compiled
 * lazily are in it too. Node's own `module.enableCompileCache` (Node 22+) would do the same for
 * CommonJS, but reads every file as UTF-8 (9 MB of pure ASCII for typescript.js, where a Latin-1
 * read is the same string at a fraction of the cost) and keeps one cache per file, where a CLI
 * keeps one per command. Any failure falls back to a normal load.
 */
import { isAscii } from 'node:buffer';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

type Loader = (this: unknown, module: NodeModule, filename: string) => void;
interface ModuleInternals {
  _extensions: Record<string, Loader>;
  wrap(content: string): string;
}

/** One file to load through the cache. */
export interface CachedFile {
  /** Absolute path, as `require` resolves it. */
  file: string;
  /** Which of the file's caches (a CLI keeps one per command, each with the code that command ran). */
  tag?: string | undefined;
  /** Hand the file Node's crypto module only on first use (see withLazyCrypto). */
  lazyCrypto?: boolean;
}

/**
 * Node 20's V8 (no Maglev) hands a function to TurboFan after about 66 KB of its bytecode ran, so
 * in a run of a fraction of a second the TypeScript parser and the YAML writer are optimised on
 * background threads for more CPU than the optimised code then saves. Eight times that budget
 * still optimises what stays hot: `tsop manifests` takes 21 % less CPU at 50 kinds (4 % less
 * RSS), 25 % less CPU and 10 % less wall time at 200 kinds, 16 % and 9 % at 500. V8 checks cached
 * data against its flags, so every process using this cache sets the same one before compiling
 * from it (prepareCodeCaches): one that did not would reject a cache written by one that did, and
 * rewrite it. Node 22+ (Maglev) is left as it is.
 */
const TIER_UP_LATER = process.versions.node.startsWith('20.') ? '--interrupt-budget=540672' : undefined;

let prepared = false;

/**
 * Call before loading any cached file: sets the V8 flag the caches are written with (see
 * TIER_UP_LATER), and on Node 22+ turns Node's own compile cache on for whatever else loads from
 * then on (the ES modules: launch.js, the worker, loader hooks). Later calls do nothing.
 */
export function prepareCodeCaches(): void {
  if (prepared) return;
  prepared = true;
  if (TIER_UP_LATER !== undefined) v8.setFlagsFromString(TIER_UP_LATER);
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
}

/** Where the caches live; a cache file's name starts with its source's file name (and tag). */
const cacheDir = (): string => join(tmpdir(), 'tsop-compile-cache');
const cachePrefix = ({ file, tag }: CachedFile): string => `${basename(file)}-${tag === undefined ? '' : `${tag}-`}`;

/**
 * The scripts loaded: an `import()` in one (typescript.js loading a plugin) finds its loader
 * through the script, so none may be collected while the process runs.
 */
const loaded: vm.Script[] = [];

/** Files hooked and not loaded yet: path → how, and its cache file. */
const pending = new Map<string, CachedFile & { cacheFile: string }>();
let original: Loader | undefined;

/**
 * Loads each of `files` through its cache the first time it is required (a file already loaded,
 * or one that cannot be found, is left to Node). Call prepareCodeCaches() first.
 */
export function cacheCompiledCode(files: readonly CachedFile[]): void {
  for (const f of files) {
    if (pending.has(f.file)) continue;
    try {
      const st = statSync(f.file);
      // V8 checks cached data only against the source's length: the name must change with the
      // file. npm gives every file of a package one fixed mtime, so the change time (which no
      // install or copy keeps) is in it too.
      const stamp = `${st.size}-${Math.trunc(st.mtimeMs)}-${Math.trunc(st.ctimeMs)}`;
      pending.set(f.file, {
        ...f,
        cacheFile: join(cacheDir(), `${cachePrefix(f)}${process.version}-${process.arch}-${stamp}.bin`),
      });
    } catch {
      // Not there: its require will say so.
    }
  }
  const M = module as unknown as ModuleInternals;
  const loaders = M._extensions;
  if (original !== undefined || pending.size === 0) return;
  original = loaders['.js'];
  if (original === undefined) return;
  // `.cjs` files go through the `.js` loader too.
  loaders['.js'] = function (mod, filename) {
    const fallback = original as Loader;
    const target = pending.get(filename);
    if (target === undefined) return fallback.call(this, mod, filename);
    pending.delete(filename);
    if (pending.size === 0) {
      loaders['.js'] = fallback; // the hook lives only for these files
      original = undefined;
    }
    let script: vm.Script;
    let cached: Buffer | undefined;
    try {
      cached = readIfExists(target.cacheFile);
      script = new vm.Script(M.wrap(readSource(filename)), {
        filename,
        ...(cached ? { cachedData: cached } : {}),
        // typescript.js may import() (plugins): resolve it as its own import() would (the CLI has none: bundle.mjs checks).
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
    } catch {
      return fallback.call(this, mod, filename);
    }
    loaded.push(script);
    // Written at exit, so the functions this run compiled lazily are in the cache too.
    if (!cached || script.cachedDataRejected) process.once('exit', () => save(target, script));
    const fn = script.runInThisContext() as (...args: unknown[]) => unknown;
    const req = createRequire(filename);
    fn.call(mod.exports, mod.exports, target.lazyCrypto ? withLazyCrypto(req) : req, mod, filename, dirname(filename));
  };
}

/**
 * `require` with Node's crypto module loaded on first use: typescript.js requires it as it starts,
 * for a hash (`sys.createHash`) that parsing never asks for, and loading crypto is ~5 ms on Node 20.
 */
function withLazyCrypto(req: NodeJS.Require): NodeJS.Require {
  const lazy = (id: string): unknown => {
    if (id !== 'crypto' && id !== 'node:crypto') return req(id);
    let crypto: object | undefined;
    const real = (): object => (crypto ??= req(id) as object);
    return new Proxy({}, { get: (_, key) => Reflect.get(real(), key), has: (_, key) => Reflect.has(real(), key) });
  };
  return Object.assign(lazy, {
    resolve: req.resolve,
    cache: req.cache,
    main: req.main,
    extensions: req.extensions,
  }) as NodeJS.Require;
}

/** The file's text: Latin-1 when its bytes are all ASCII (the same string, decoded far faster), else UTF-8. */
function readSource(file: string): string {
  const bytes = readFileSync(file);
  if (isAscii(bytes)) return bytes.toString('latin1');
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // a BOM, as Node's loader strips it
}

function readIfExists(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function save(target: CachedFile & { cacheFile: string }, script: vm.Script): void {
  try {
    mkdirSync(dirname(target.cacheFile), { recursive: true });
    const tmp = `${target.cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, target.cacheFile);
    pruneOld(target);
  } catch {
    // A cache is an optimisation: never fail the command for it.
  }
}

/** How many caches of one source (and tag) stay: every fresh install has new mtimes, so new cache files. */
const KEEP = 4;
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;

/** Drops the same source's (and tag's) caches older than a week, and all but the newest KEEP. */
function pruneOld(target: CachedFile & { cacheFile: string }): void {
  const dir = dirname(target.cacheFile);
  const prefix = cachePrefix(target);
  // The Node version follows the prefix: `cli.cjs-` is not a prefix of `cli.cjs-manifests-v20…` here.
  const own = (name: string): boolean => name.startsWith(prefix) && /^v\d/.test(name.slice(prefix.length));
  const others = readdirSync(dir)
    .filter((name) => own(name) && name.endsWith('.bin') && join(dir, name) !== target.cacheFile)
    .map((name) => ({ path: join(dir, name), mtimeMs: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const [i, f] of others.entries()) {
    if (i >= KEEP - 1 || Date.now() - f.mtimeMs > MAX_AGE_MS) rmSync(f.path, { force: true });
  }
}
