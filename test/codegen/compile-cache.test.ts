/**
 * The compile cache for the TypeScript compiler ts-morph bundles (and ts-morph): a first process
 * writes V8 cached data for the files it loaded; a second one loads them from it without
 * rewriting it (the data was accepted). Loading typescript.js on its own (reader/typescript.ts)
 * caches just that file. Runs real child processes with their own TMPDIR.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(join(tmpdir(), 'tsop-cc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `code` (an ES module) in a fresh Node with the repo's TS loader; returns its stdout. */
function runNode(code: string, tmp: string): string {
  return execFileSync(
    process.execPath,
    ['--import', join(ROOT, 'runtime/testing/register.mjs'), '--input-type=module', '-e', code],
    {
      env: { ...process.env, TMPDIR: tmp },
      encoding: 'utf8',
    },
  ).trim();
}

/** ts-morph itself (nothing in tsop loads it today, but the cache covers it for whoever does). */
const loadTsMorph = (tmp = dir): string =>
  runNode(
    `const { enableTsCompileCache } = await import(${JSON.stringify(join(ROOT, 'src/typescript/compile-cache.ts'))});
     enableTsCompileCache();
     const m = (await import('node:module')).createRequire(${JSON.stringify(join(ROOT, 'package.json'))})('ts-morph');
     console.log(typeof m.Project, typeof m.Node.isClassDeclaration);`,
    tmp,
  );

/** Parses a class with typescript.js loaded alone; prints the TypeScript version and the class name. */
const loadTypeScript = (tmp: string): string =>
  runNode(
    `const { ts } = await import(${JSON.stringify(join(ROOT, 'src/codegen/reader/typescript.ts'))});
     const f = ts.createSourceFile('a.ts', 'export class Straße {}', ts.ScriptTarget.Latest);
     console.log(ts.version, f.statements[0].name.text);`,
    tmp,
  );

const cacheFiles = (tmp: string): string[] => readdirSync(join(tmp, 'tsop-compile-cache')).sort();
const sourceOf = (name: string): string => name.replace(/-v\d.*$/, '');

describe('TypeScript compile cache', () => {
  it('ts-morph: written by the first run and reused unchanged by the next', () => {
    expect(loadTsMorph()).toBe('function function');
    const files = cacheFiles(dir);
    expect(files.map(sourceOf)).toEqual(['ts-morph-common.js', 'ts-morph.js', 'typescript.js']);
    const before = files.map((f) => statSync(join(dir, 'tsop-compile-cache', f)).mtimeMs);
    expect(loadTsMorph()).toBe('function function');
    expect(cacheFiles(dir)).toEqual(files);
    expect(files.map((f) => statSync(join(dir, 'tsop-compile-cache', f)).mtimeMs)).toEqual(before);
  }, 60_000);

  it('typescript.js required on its own (read as Latin-1, it is ASCII) is cached alone, and reused', () => {
    const tmp = mkdtempSync(join(dir, 'ts-'));
    const first = loadTypeScript(tmp);
    // Non-ASCII source text still parses right: only the compiler's own file is read as Latin-1.
    expect(first).toMatch(/^\d+\.\d+\.\d+ Straße$/);
    const files = cacheFiles(tmp);
    expect(files.map(sourceOf)).toEqual(['typescript.js']);
    const before = statSync(join(tmp, 'tsop-compile-cache', files[0] ?? '')).mtimeMs;
    expect(loadTypeScript(tmp)).toBe(first);
    expect(cacheFiles(tmp)).toEqual(files);
    expect(statSync(join(tmp, 'tsop-compile-cache', files[0] ?? '')).mtimeMs).toBe(before);
  }, 60_000);

  it("typescript.js gets Node's crypto only when it asks for a hash, and the hash is SHA-256", () => {
    const tmp = mkdtempSync(join(dir, 'crypto-'));
    const out = runNode(
      `const loaded = () => process.moduleLoadList.includes('NativeModule crypto');
       const before = loaded();
       const { ts } = await import(${JSON.stringify(join(ROOT, 'src/codegen/reader/typescript.ts'))});
       const afterLoad = loaded();
       ts.createSourceFile('a.ts', 'export class A {}', ts.ScriptTarget.Latest);
       console.log(before, afterLoad, loaded(), ts.sys.createHash('tsop'), loaded());`,
      tmp,
    );
    const sha = createHash('sha256').update('tsop').digest('hex');
    expect(out).toBe(`false false false ${sha} true`);
  }, 60_000);

  it('a corrupt cache file is rejected, the file still loads, and the cache is rewritten', () => {
    const tmp = mkdtempSync(join(dir, 'bad-'));
    const first = loadTypeScript(tmp);
    const [file] = cacheFiles(tmp);
    const path = join(tmp, 'tsop-compile-cache', file ?? '');
    writeFileSync(path, 'not V8 cached data');
    expect(loadTypeScript(tmp)).toBe(first);
    expect(readFileSync(path).length).toBeGreaterThan(1000);
  }, 60_000);

  it('a new cache file drops caches of the same source unused for a week, and only those', () => {
    const tmp = mkdtempSync(join(dir, 'prune-'));
    const cacheDir = join(tmp, 'tsop-compile-cache');
    mkdirSync(cacheDir);
    const days = (n: number) => (Date.now() - n * 24 * 3600 * 1000) / 1000;
    const plant = (name: string, ageDays: number) => {
      writeFileSync(join(cacheDir, name), 'stale');
      utimesSync(join(cacheDir, name), days(ageDays), days(ageDays));
    };
    plant('typescript.js-v20.0.0-x64-1-1.bin', 8);
    plant('typescript.js-v20.0.0-x64-1-2.bin', 1);
    plant('ts-morph.js-v20.0.0-x64-1-1.bin', 8);
    plant('unrelated.bin', 30);
    expect(loadTsMorph(tmp)).toBe('function function');
    const left = readdirSync(cacheDir);
    expect(left).not.toContain('typescript.js-v20.0.0-x64-1-1.bin');
    expect(left).not.toContain('ts-morph.js-v20.0.0-x64-1-1.bin');
    expect(left).toContain('typescript.js-v20.0.0-x64-1-2.bin');
    expect(left).toContain('unrelated.bin');
    expect(left.filter((f) => f.startsWith('ts-morph-common.js-v2'))).toHaveLength(1);
  }, 60_000);

  it.runIf(Number(process.versions.node.split('.')[0]) >= 22)(
    "Node 22+: Node's own compile cache is on too, for everything else",
    () => {
      const tmp = mkdtempSync(join(dir, 'node-'));
      expect(loadTsMorph(tmp)).toBe('function function');
      expect(readdirSync(join(tmp, 'node-compile-cache')).length).toBeGreaterThan(0);
    },
    60_000,
  );
});
