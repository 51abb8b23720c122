import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/tsop.js', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function tsop(...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('tsop command line', () => {
  it('prints its version', async () => {
    expect(await tsop('--version')).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('prints help listing its commands', async () => {
    const out = await tsop('--help');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Usage: tsop \[options\] <command>\n/);
    expect(out.stdout).toContain('--version');
    for (const command of ['init', 'create', 'edit', 'manifests'])
      expect(out.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
  });

  it("shows the marker catalog in 'manifests --help' (loaded for that command only)", async () => {
    const out = await tsop('manifests', '--help');
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Controller markers:');
    expect(out.stdout).toMatch(/^ {2}@Rbac\(\{ groups\?: string\[\]/m);
    expect(out.stdout).toMatch(/^ {2}@Minimum\(/m);
  });

  it('rejects an unknown command with one line and exit 1', async () => {
    const out = await tsop('frobnicate');
    expect(out).toEqual({
      code: 1,
      stdout: '',
      stderr: "tsop: unknown command 'frobnicate'; run 'tsop --help' for the list of commands\n",
    });
  });

  it('rejects an unknown flag with one line and exit 1', async () => {
    const out = await tsop('--frobnicate');
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toMatch(/^tsop: unknown option '--frobnicate'/);
  });

  describe('keeps a flag value with a line break on one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsop-cli-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    it.each([
      [['--project-name', 'a\nb'], "tsop: --project-name: 'a\\nb' is not a DNS-1123 label"],
      [['--domain', 'example\r\n.com'], "tsop: --domain: 'example\\r\\n.com' is not a DNS-1123 subdomain"],
      [['--repo', 'op\u2028x'], "tsop: --repo: 'op\\u2028x' "],
      [['--owner', 'Evil\nCorp'], "tsop: --owner: 'Evil\\nCorp' contains a line break (U+000A)"],
    ])('init %j', async (args, start) => {
      const out = await tsop('init', '--dir', join(dir, 'p'), '--skip-install', ...args);
      expect(out.code).toBe(1);
      expect(out.stderr.startsWith(start), out.stderr).toBe(true);
      expect(out.stderr.split('\n')).toHaveLength(2); // one line and its newline
      expect(readdirSync(dir)).toEqual([]);
    });
  });
});
