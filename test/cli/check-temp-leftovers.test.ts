/**
 * scripts/check-temp-leftovers.sh, the CI check that tests leave nothing in the temp directory:
 * in `-- command` mode anything the command leaves in its fresh TMPDIR fails the run (except the
 * compile cache kept on purpose) and the fresh TMPDIR is removed either way; given a directory, it
 * looks for tsop's test naming only.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/check-temp-leftovers.sh', import.meta.url));
const parent = mkdtempSync(join(tmpdir(), 'tsop-leftovers-test-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

function check(...args: string[]): { code: number | null; stderr: string } {
  const out = spawnSync('bash', [script, ...args], { env: { ...process.env, TMPDIR: parent }, encoding: 'utf8' });
  return { code: out.status, stderr: out.stderr };
}

describe('check-temp-leftovers.sh', () => {
  it('fails when the command leaves something in its fresh TMPDIR, naming it, and removes that TMPDIR', () => {
    const out = check(
      '--',
      'bash',
      '-c',
      'mkdir "$TMPDIR/assets-x" "$TMPDIR/tsop-compile-cache" && touch "$TMPDIR/stray"',
    );
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(
      /^check-temp-leftovers: 2 temp entries left in \S+\/tsop-run-\w+ by the tests; each test must remove what it creates:\n {2}\S+\/assets-x\n {2}\S+\/stray\n$/,
    );
    expect(readdirSync(parent)).toEqual([]);
  });

  it('passes when only the compile caches are left, and passes the command its own failure', () => {
    expect(
      check(
        '--',
        'bash',
        '-c',
        'mkdir "$TMPDIR/tsop-compile-cache" "$TMPDIR/node-compile-cache" "$TMPDIR/tsop-ts-hooks-cache"',
      ),
    ).toEqual({ code: 0, stderr: '' });
    expect(check('--', 'bash', '-c', 'exit 3')).toEqual({ code: 3, stderr: '' });
    expect(readdirSync(parent)).toEqual([]);
  });

  it("looks for tsop's test naming in a given directory", () => {
    const dir = join(parent, 'shared');
    mkdirSync(join(dir, 'fake-go-1'), { recursive: true });
    mkdirSync(join(dir, 'someone-else'));
    mkdirSync(join(dir, 'tsop-compile-cache'));
    const out = check(dir);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`\n  ${dir}/fake-go-1\n`);
    expect(out.stderr).not.toContain('someone-else');
    rmSync(join(dir, 'fake-go-1'), { recursive: true });
    expect(check(dir)).toEqual({ code: 0, stderr: '' });
  });
});
