/**
 * The built CLI starts from one CommonJS bundle whose compiled code V8 keeps between runs
 * (src/cli/launch.ts, src/code-cache.ts): one cache per command, written by the command's first run
 * and reused, unchanged, by the next; a corrupt cache is replaced; a changed bundle never meets the
 * cache of the old one, even at the same length and mtime (V8 checks only the length, and npm gives
 * every file one mtime); old caches of a command are pruned. Runs a copy of the built CLI, in child
 * processes with their own TMPDIR. Needs `npm run build` (the processes project's setup runs it).
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandTag } from '../../src/cli/launch.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const work = mkdtempSync(join(tmpdir(), 'tsop-launch-'));
const tsop = join(work, 'tsop');
const BUNDLE = join(tsop, 'dist/bundle/cli.cjs');

beforeAll(() => {
  for (const path of ['bin', 'dist/bundle', 'package.json'])
    cpSync(join(ROOT, path), join(tsop, path), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(tsop, 'node_modules'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the copied CLI with `args` and TMPDIR `tmp`; returns its stdout. */
const cli = (tmp: string, ...args: string[]): string =>
  execFileSync(process.execPath, [join(tsop, 'bin/tsop.js'), ...args], {
    env: { ...process.env, TMPDIR: tmp, NO_COLOR: '1' },
    encoding: 'utf8',
  });

const caches = (tmp: string): string[] => readdirSync(join(tmp, 'tsop-compile-cache')).sort();
const mtimeOf = (tmp: string, name: string): number => statSync(join(tmp, 'tsop-compile-cache', name)).mtimeMs;

describe('the CLI bundle with its compiled code cached', () => {
  it('names a cache by the command a run starts', () => {
    expect(commandTag(['node', 'tsop', 'manifests', '--check'])).toBe('manifests');
    expect(commandTag(['node', 'tsop', 'create', 'api'])).toBe('create');
    expect(commandTag(['node', 'tsop', '--version'])).toBe('cli');
    expect(commandTag(['node', 'tsop'])).toBe('cli');
    expect(commandTag(['node', 'tsop', '../../etc/passwd'])).toBe('cli');
    expect(commandTag(['node', 'tsop', 'x'.repeat(40)])).toBe('cli');
  });

  it('keeps one cache per command, written by its first run and reused unchanged by the next', () => {
    const tmp = mkdtempSync(join(work, 'tmp-'));
    expect(cli(tmp, '--version')).toBe(`${VERSION}\n`);
    const [versionCache] = caches(tmp);
    expect(versionCache).toMatch(/^cli\.cjs-cli-v\d+\.\d+\.\d+-/);
    const written = mtimeOf(tmp, versionCache ?? '');
    expect(cli(tmp, 'manifests', '--help')).toContain('Usage: tsop manifests');
    expect(caches(tmp)).toHaveLength(2);
    expect(caches(tmp).some((f) => f.startsWith('cli.cjs-manifests-v'))).toBe(true);
    expect(cli(tmp, '--version')).toBe(`${VERSION}\n`);
    expect(mtimeOf(tmp, versionCache ?? '')).toBe(written);
  }, 60_000);

  it('replaces a corrupt cache and still runs', () => {
    const tmp = mkdtempSync(join(work, 'bad-'));
    cli(tmp, '--version');
    const [name] = caches(tmp);
    const path = join(tmp, 'tsop-compile-cache', name ?? '');
    writeFileSync(path, 'not V8 cached data');
    expect(cli(tmp, '--version')).toBe(`${VERSION}\n`);
    expect(readFileSync(path).length).toBeGreaterThan(1000);
  }, 60_000);

  it('gives a changed bundle of the same length and mtime a cache of its own', () => {
    const tmp = mkdtempSync(join(work, 'changed-'));
    // As npm installs a package: every file with the same mtime.
    const NPM_MTIME = new Date('1985-10-26T08:15:00Z');
    const text = readFileSync(BUNDLE, 'latin1');
    utimesSync(BUNDLE, NPM_MTIME, NPM_MTIME);
    expect(cli(tmp, '--help')).toContain('print the tsop version');
    const before = caches(tmp);
    // Another build of the same length, installed by npm. Run from the old one's cache, it would
    // still print the old text (V8 would accept the cache: it checks the length).
    expect(text.split('"print the tsop version")')).toHaveLength(2);
    try {
      writeFileSync(BUNDLE, text.replace('"print the tsop version")', '"print the tsop VERSION")'), 'latin1');
      utimesSync(BUNDLE, NPM_MTIME, NPM_MTIME);
      expect(cli(tmp, '--help')).toContain('print the tsop VERSION');
      expect(caches(tmp)).toHaveLength(before.length + 1);
    } finally {
      writeFileSync(BUNDLE, text, 'latin1');
    }
  }, 60_000);

  it("prunes a command's caches to the newest few, and those of a week ago, leaving other commands' alone", () => {
    const tmp = mkdtempSync(join(work, 'prune-'));
    const dir = join(tmp, 'tsop-compile-cache');
    mkdirSync(dir);
    const plant = (name: string, ageHours: number) => {
      writeFileSync(join(dir, name), 'old');
      const t = (Date.now() - ageHours * 3600_000) / 1000;
      utimesSync(join(dir, name), t, t);
    };
    for (const age of [1, 2, 3, 4, 5]) plant(`cli.cjs-cli-v20.0.0-x64-1-${age}-${age}.bin`, age);
    plant('cli.cjs-manifests-v20.0.0-x64-1-9-9.bin', 9);
    plant('cli.cjs-manifests-v20.0.0-x64-1-8-8.bin', 24 * 8);
    plant('typescript.js-v20.0.0-x64-1-1-1.bin', 24 * 30);
    cli(tmp, '--version');
    const left = caches(tmp);
    // The new cache and the three newest of the same command stay.
    expect(left.filter((f) => f.startsWith('cli.cjs-cli-'))).toEqual([
      'cli.cjs-cli-v20.0.0-x64-1-1-1.bin',
      'cli.cjs-cli-v20.0.0-x64-1-2-2.bin',
      'cli.cjs-cli-v20.0.0-x64-1-3-3.bin',
      expect.stringMatching(/^cli\.cjs-cli-v\d+\.\d+\.\d+-/),
    ]);
    // Another command's caches (even one a week old) and another source's are not this run's to prune.
    expect(left).toContain('cli.cjs-manifests-v20.0.0-x64-1-9-9.bin');
    expect(left).toContain('cli.cjs-manifests-v20.0.0-x64-1-8-8.bin');
    expect(left).toContain('typescript.js-v20.0.0-x64-1-1-1.bin');
  }, 60_000);
});
