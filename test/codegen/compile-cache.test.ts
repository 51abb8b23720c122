/**
 * The compile cache for ts-morph: a first process writes V8 cached data for the three big files;
 * a second one loads ts-morph from it without rewriting it (the data was accepted). Runs real
 * child processes with their own TMPDIR.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(join(tmpdir(), 'tsop-cc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function loadTsMorph(tmp = dir): string {
  const code = `const m = await import(${JSON.stringify(join(ROOT, 'src/codegen/reader/tsmorph.ts'))}); console.log(typeof m.Project, typeof m.Node.isClassDeclaration);`;
  return execFileSync(process.execPath, ['--import', join(ROOT, 'runtime/testing/register.mjs'), '--input-type=module', '-e', code], {
    env: { ...process.env, TMPDIR: tmp },
    encoding: 'utf8',
  }).trim();
}

const major = Number(process.versions.node.split('.')[0]);

describe('ts-morph compile cache', () => {
  it.runIf(major >= 22)("Node 22+: Node's own compile cache is enabled", () => {
    expect(loadTsMorph()).toBe('function function');
    expect(readdirSync(join(dir, 'node-compile-cache')).length).toBeGreaterThan(0);
  }, 60_000);

  it.runIf(major < 22)('Node 20: written by the first run and reused unchanged by the next', () => {
    expect(loadTsMorph()).toBe('function function');
    const cacheDir = join(dir, 'tsop-compile-cache');
    const files = readdirSync(cacheDir).sort();
    expect(files.map((f) => f.replace(/-v\d.*$/, ''))).toEqual(['ts-morph-common.js', 'ts-morph.js', 'typescript.js']);
    const before = files.map((f) => statSync(join(cacheDir, f)).mtimeMs);
    expect(loadTsMorph()).toBe('function function');
    expect(readdirSync(cacheDir).sort()).toEqual(files);
    expect(files.map((f) => statSync(join(cacheDir, f)).mtimeMs)).toEqual(before);
  }, 60_000);

  it.runIf(major < 22)('Node 20: a new cache file drops caches of the same source unused for a week, and only those', () => {
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
});
