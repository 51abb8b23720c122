/**
 * Loads the TypeScript compiler ts-morph bundles (9 MB of JavaScript), and ts-morph itself, with
 * V8's compiled code kept between runs, so `tsop manifests` neither compiles them again on every
 * run (that was a third of its CPU time) nor decodes 9 MB as UTF-8: typescript.js is pure ASCII,
 * and a Latin-1 read of ASCII bytes is the same string at a fraction of the cost. Node's own
 * `module.enableCompileCache` (Node 22+) reads every file as UTF-8, so these three files take
 * this path on every Node version: the `.js` loader is hooked for them alone, reads the bytes,
 * and compiles with `vm.Script` cached data (the v8-compile-cache technique). Everything else,
 * the CLI bundle included, is left to Node's cache where there is one (bin/tsop.js enables it).
 * Any failure falls back to a normal load.
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
  enableCompileCache?: () => unknown;
}

/** The files worth caching, as ts-morph resolves them; which of them a run loads depends on the reader. */
const TARGETS = ['ts-morph', '@ts-morph/common', '@ts-morph/common/dist/typescript.js'];

/**
 * Node 20's V8 (no Maglev) hands a function to TurboFan after about 66 KB of its bytecode ran, so
 * in a run of a fraction of a second the TypeScript parser and the YAML writer are optimised on
 * background threads for more CPU than the optimised code then saves. Eight times that budget
 * still optimises what stays hot: `tsop manifests` takes 21 % less CPU at 50 kinds (4 % less
 * RSS), 25 % less CPU and 10 % less wall time at 200 kinds, 16 % and 9 % at 500. V8 checks cached
 * data against its flags, so every process using this cache sets the same one before compiling
 * the files: one that did not would reject a cache written by one that did, and rewrite it.
 * Node 22+ (Maglev) is left as it is.
 */
const TIER_UP_LATER = process.versions.node.startsWith('20.') ? '--interrupt-budget=540672' : undefined;

let enabled = false;

/** Call before the first `require` of ts-morph or of its typescript.js; later calls do nothing. */
export function enableTsCompileCache(): void {
  if (enabled) return;
  enabled = true;
  if (TIER_UP_LATER !== undefined) v8.setFlagsFromString(TIER_UP_LATER);
  const M = module as unknown as ModuleInternals;
  M.enableCompileCache?.(); // Node 22+: whatever else loads from now on (ESM chunks too)
  const targets = new Map<string, string>(); // file → its cache file
  try {
    const fromTsMorph = createRequire(createRequire(import.meta.url).resolve('ts-morph'));
    const dir = join(tmpdir(), 'tsop-compile-cache');
    for (const id of TARGETS) {
      const file = fromTsMorph.resolve(id);
      const st = statSync(file);
      targets.set(file, join(dir, `${cachePrefix(file)}${process.version}-${process.arch}-${st.size}-${Math.trunc(st.mtimeMs)}.bin`));
    }
  } catch {
    return;
  }
  const loaders = M._extensions;
  const original = loaders['.js'];
  if (original === undefined) return;
  loaders['.js'] = function (mod, filename) {
    const cacheFile = targets.get(filename);
    if (cacheFile === undefined) return original.call(this, mod, filename);
    targets.delete(filename);
    if (targets.size === 0) loaders['.js'] = original; // the hook lives only for these files
    let script: vm.Script;
    let cached: Buffer | undefined;
    try {
      cached = readIfExists(cacheFile);
      script = new vm.Script(M.wrap(readSource(filename)), {
        filename,
        ...(cached ? { cachedData: cached } : {}),
        // typescript.js may import() (plugins): resolve it as the module's own import() would.
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
    } catch {
      return original.call(this, mod, filename);
    }
    const fn = script.runInThisContext() as (...args: unknown[]) => unknown;
    fn.call(mod.exports, mod.exports, withLazyCrypto(createRequire(filename)), mod, filename, dirname(filename));
    // Written at exit, so the functions this run compiled lazily are in the cache too.
    if (!cached || script.cachedDataRejected) process.once('exit', () => save(cacheFile, script, filename));
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
  return Object.assign(lazy, { resolve: req.resolve, cache: req.cache, main: req.main, extensions: req.extensions }) as NodeJS.Require;
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

function save(file: string, script: vm.Script, source: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, file);
    pruneOld(file, source);
  } catch {
    // A cache is an optimisation: never fail the command for it.
  }
}

/** A cache file's name starts with its source's file name: `typescript.js-v20.20.2-x64-….bin`. */
const cachePrefix = (source: string): string => `${basename(source)}-`;

/** Every fresh install has new mtimes, so a new cache file: drop the same source's caches older than a week. */
function pruneOld(file: string, source: string, maxAgeMs = 7 * 24 * 3600 * 1000): void {
  const dir = dirname(file);
  const base = basename(file);
  const prefix = cachePrefix(source);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name !== base && name.startsWith(prefix) && Date.now() - statSync(path).mtimeMs > maxAgeMs) rmSync(path, { force: true });
  }
}
