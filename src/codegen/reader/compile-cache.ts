/**
 * Keeps V8's compiled code for ts-morph and the TypeScript compiler it bundles (13 MB of
 * JavaScript), so `tsop manifests` does not compile them again on every run — that compilation is
 * about a third of the command's CPU time. Node 22+ does this itself (`module.enableCompileCache`);
 * on older Node the same is done for those three files with `vm.Script` cached data, the technique
 * of the v8-compile-cache package. Any failure falls back to a normal load.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';

type Compile = (this: NodeModule, content: string, filename: string) => unknown;
interface ModuleInternals {
  prototype: { _compile: Compile };
  wrap(content: string): string;
  enableCompileCache?: () => unknown;
}

/** Call before the first `require('ts-morph')`. */
export function enableTsCompileCache(): void {
  const M = module as unknown as ModuleInternals;
  if (typeof M.enableCompileCache === 'function') {
    M.enableCompileCache();
    return;
  }
  const targets = new Map<string, string>(); // file → its cache file
  try {
    const fromTsMorph = createRequire(createRequire(import.meta.url).resolve('ts-morph'));
    const dir = join(tmpdir(), 'tsop-compile-cache');
    for (const id of ['ts-morph', '@ts-morph/common', '@ts-morph/common/dist/typescript.js']) {
      const file = fromTsMorph.resolve(id);
      const st = statSync(file);
      const name = `${cachePrefix(file)}${process.version}-${process.arch}-${st.size}-${Math.trunc(st.mtimeMs)}.bin`;
      targets.set(file, join(dir, name));
    }
  } catch {
    return;
  }
  const original = M.prototype._compile;
  M.prototype._compile = function (content, filename) {
    const cacheFile = targets.get(filename);
    if (cacheFile === undefined) return original.call(this, content, filename);
    targets.delete(filename);
    if (targets.size === 0) M.prototype._compile = original; // the hook lives only for these files
    let cached: Buffer | undefined;
    try {
      cached = readFileSync(cacheFile);
    } catch {
      cached = undefined;
    }
    let script: vm.Script;
    try {
      script = new vm.Script(M.wrap(content), cached ? { filename, cachedData: cached } : { filename });
    } catch {
      return original.call(this, content, filename);
    }
    const fn = script.runInThisContext() as (...args: unknown[]) => unknown;
    const result = fn.call(this.exports, this.exports, createRequire(filename), this, filename, dirname(filename));
    // Written at exit, so the functions this run compiled lazily are in the cache too.
    if (!cached || script.cachedDataRejected) process.once('exit', () => save(cacheFile, script, filename));
    return result;
  };
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
const cachePrefix = (source: string): string => `${source.split(/[\\/]/).slice(-1)[0]}-`;

/** Every fresh install has new mtimes, so a new cache file: drop the same source's caches older than a week. */
function pruneOld(file: string, source: string, maxAgeMs = 7 * 24 * 3600 * 1000): void {
  const dir = dirname(file);
  const base = file.slice(dir.length + 1);
  const prefix = cachePrefix(source);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name !== base && name.startsWith(prefix) && Date.now() - statSync(path).mtimeMs > maxAgeMs) rmSync(path, { force: true });
  }
}
