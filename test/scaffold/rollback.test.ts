/**
 * A failure while writing rolls the whole change back: init, create api, edit and manifests are
 * run by the built CLI (bin/tsop.js → dist/) as a non-root user against a project with a
 * read-only directory (the failure comes while staging) or a root-owned file in a sticky
 * directory (it can be staged next to, but not replaced: the failure comes after other files are
 * in place). Each run must exit 1 with one line naming the path and the cause, leave the tree
 * byte for byte and mode for mode as it was, and succeed once the directory is fixed.
 *
 * Root ignores permissions, so as root (CI) the test creates the user `tsoptest` and runs the CLI
 * as that user through setpriv (util-linux); it fails rather than skips when it cannot. The user
 * keeps one capability, reading any file (CAP_DAC_READ_SEARCH), so a checkout under a private
 * home (/root) still loads; writing obeys permissions as for anyone.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runInit } from '../../src/cli/init.js';
import { UserError } from '../../src/errors.js';
import { captured } from './harness.js';

const bin = fileURLToPath(new URL('../../bin/tsop.js', import.meta.url));
const USER = 'tsoptest';
const isRoot = process.getuid?.() === 0;

/** The uid/gid the CLI runs as: ours, or (as root) the test user, created if missing. */
function testUser(): { uid: number; gid: number } {
  if (!isRoot) return { uid: process.getuid!(), gid: process.getgid!() };
  try {
    execFileSync('id', ['-u', USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', USER], { stdio: 'pipe' });
  }
  const id = (flag: string): number => Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function tsopAs(cwd: string, args: string[]): Promise<Outcome> {
  const asUser = [
    '--reuid',
    String(user.uid),
    '--regid',
    String(user.gid),
    '--clear-groups',
    '--inh-caps=-all,+dac_read_search',
    '--ambient-caps=-all,+dac_read_search',
  ];
  const [file, argv] = isRoot
    ? ['setpriv', [...asUser, process.execPath, bin, ...args]]
    : [process.execPath, [bin, ...args]];
  return new Promise((resolve) => {
    execFile(file as string, argv as string[], { cwd }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Every entry under `dir` (hidden ones too): type, mode and a hash of the content. */
function snapshot(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(dir, prefix)).sort()) {
    const rel = prefix ? `${prefix}/${name}` : name;
    const st = lstatSync(join(dir, rel));
    const mode = (st.mode & 0o7777).toString(8);
    if (st.isDirectory()) {
      out[`${rel}/`] = mode;
      Object.assign(out, snapshot(dir, rel));
    } else
      out[rel] = `${mode} ${createHash('sha256')
        .update(readFileSync(join(dir, rel)))
        .digest('hex')}`;
  }
  return out;
}

function chownTree(path: string, uid: number, gid: number): void {
  chownSync(path, uid, gid);
  if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), uid, gid);
}

let base = '';
let user = { uid: 0, gid: 0 };
beforeAll(() => {
  user = testUser();
  base = mkdtempSync(join(tmpdir(), 'tsop-rollback-'));
  chmodSync(base, 0o755); // the test user must reach the projects inside
});
afterAll(() => {
  if (!base) return;
  // Make everything writable again so a non-root run can remove it too.
  execFileSync('chmod', ['-R', 'u+rwX', base]);
  rmSync(base, { recursive: true, force: true });
});

let count = 0;
/** A project directory owned by the test user; `scaffold` fills it in-process first. */
async function project(scaffold: 'none' | 'init' | 'api'): Promise<string> {
  const dir = join(base, `p${++count}`, 'rollback-op');
  mkdirSync(dir, { recursive: true });
  chmodSync(join(dir, '..'), 0o755);
  if (scaffold !== 'none') await runInit({ dir, domain: 'example.com', owner: 'Acme', skipInstall: true }, captured());
  if (scaffold === 'api')
    await runCreateApi({ dir, group: 'cache', version: 'v1', kind: 'Memcached', make: false }, captured());
  chownTree(dir, user.uid, user.gid);
  return dir;
}

/** `dir` made read-only for the test user. */
function readOnly(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o555);
  return () => chmodSync(dir, 0o755);
}

/**
 * `file` that the test user can stage next to but not replace: a sticky directory (like /tmp)
 * only lets a file's owner rename it, so the file belongs to someone else (root). Needs root.
 */
function locked(dir: string, file: string): () => void {
  chownSync(dir, 0, 0);
  chmodSync(dir, 0o1777);
  chownSync(join(dir, file), 0, 0);
  return () => {
    chmodSync(dir, 0o755);
    chownTree(dir, user.uid, user.gid);
  };
}

async function expectRolledBack(dir: string, args: string[], path: RegExp, cause: RegExp): Promise<void> {
  const before = snapshot(dir);
  const out = await tsopAs(dir, args);
  expect(out.code, out.stderr).toBe(1);
  const lines = out.stderr.trimEnd().split('\n');
  expect(lines, out.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^tsop: cannot write \S+: .*; nothing was changed, so fix that and run the command again$/);
  expect(lines[0]).toMatch(path);
  expect(lines[0]).toMatch(cause);
  expect(out.stderr).not.toMatch(/\n\s+at /);
  expect(snapshot(dir)).toEqual(before);
}

async function expectSucceeds(dir: string, args: string[]): Promise<void> {
  const out = await tsopAs(dir, args);
  expect(out.code, out.stderr).toBe(0);
}

const createApi = ['create', 'api', '--group', 'cache', '--version', 'v1', '--kind', 'Redis', '--make=false'];
const EACCES = /permission denied \(EACCES\)/;
const EPERM = /operation not permitted .* \(EPERM\)/;

// Each case starts the built CLI once or twice as another user, on a loaded two-core machine.
describe('a failure while writing leaves the project as it was', { timeout: 60_000 }, () => {
  it('init into a directory whose config/ is read-only', async () => {
    const dir = await project('none');
    const fix = readOnly(join(dir, 'config'));
    await expectRolledBack(dir, ['init', '--domain', 'example.com', '--skip-install'], /rollback-op\/config\//, EACCES);
    fix();
    await expectSucceeds(dir, ['init', '--domain', 'example.com', '--skip-install']);
    expect(readFileSync(join(dir, 'PROJECT'), 'utf8')).toContain('projectName: rollback-op');
  });

  it('create api with a read-only config/samples', async () => {
    const dir = await project('init');
    const fix = readOnly(join(dir, 'config/samples'));
    await expectRolledBack(dir, createApi, /config\/samples\//, EACCES);
    fix();
    await expectSucceeds(dir, createApi);
    expect(readFileSync(join(dir, 'PROJECT'), 'utf8')).toContain('kind: Redis');
  });

  it('create api whose manifests step cannot write the CRD undoes the scaffold too', async () => {
    const dir = await project('init');
    const fix = readOnly(join(dir, 'config/crd/bases'));
    const args = createApi.filter((a) => a !== '--make=false');
    await expectRolledBack(dir, args, /config\/crd\/bases\/cache\.example\.com_redis\.yaml/, EACCES);
    fix();
    await expectSucceeds(dir, args);
    expect(readdirSync(join(dir, 'config/crd/bases'))).toEqual(['cache.example.com_redis.yaml']);
  });

  it('edit --owner when the license header cannot be replaced (after PROJECT already was)', async () => {
    const dir = await project('api');
    const fix = isRoot ? locked(join(dir, 'hack'), 'boilerplate.ts.txt') : readOnly(join(dir, 'hack'));
    await expectRolledBack(
      dir,
      ['edit', '--owner', 'Other Corp'],
      /hack\/boilerplate\.ts\.txt/,
      isRoot ? EPERM : EACCES,
    );
    fix();
    await expectSucceeds(dir, ['edit', '--owner', 'Other Corp']);
    expect(readFileSync(join(dir, 'hack/boilerplate.ts.txt'), 'utf8')).toContain('Other Corp');
  });

  it('manifests with a read-only config/rbac, and with a role.yaml that cannot be replaced after the CRD was', async () => {
    const dir = await project('api');
    const fixRo = readOnly(join(dir, 'config/rbac'));
    await expectRolledBack(dir, ['manifests'], /config\/rbac\/role\.yaml/, EACCES);
    fixRo();
    if (isRoot) {
      // role.yaml exists from init, so manifests must replace it after writing the new CRD.
      writeFileSync(join(dir, 'config/rbac/role.yaml'), readFileSync(join(dir, 'config/rbac/role.yaml'), 'utf8'));
      const fixLock = locked(join(dir, 'config/rbac'), 'role.yaml');
      await expectRolledBack(dir, ['manifests'], /config\/rbac\/role\.yaml/, EPERM);
      fixLock();
    }
    await expectSucceeds(dir, ['manifests']);
    expect(readdirSync(join(dir, 'config/crd/bases'))).toEqual(['cache.example.com_memcacheds.yaml']);
  });
});

// A full disk, for real: a 128 KiB tmpfs (mounting needs root, which CI has) fills up part-way
// through init's 160-odd files.
describe.runIf(isRoot)('a full disk while writing', { timeout: 60_000 }, () => {
  it('init on a full file system says so in one line and leaves it empty', async () => {
    const mnt = join(base, 'small-disk');
    mkdirSync(mnt);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=128k', 'tsop-test', mnt]);
    try {
      const dir = join(mnt, 'full-op');
      const error = await runInit({ dir, domain: 'example.com', skipInstall: true }, captured()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UserError);
      expect((error as Error).message).toMatch(
        new RegExp(
          `^cannot write ${mnt}/full-op/\\S+: no space left on device \\(ENOSPC\\); nothing was changed, so fix that and run the command again$`,
        ),
      );
      expect(readdirSync(mnt)).toEqual([]);
    } finally {
      execFileSync('umount', [mnt]);
    }
  });
});
