/**
 * The command line says what happened, through the built CLI: a reader that stops early ends it
 * quietly; one table of exit codes, in --help; init in a kubebuilder project adds only what is
 * missing when told to, keeps kubebuilder's PROJECT and RBAC; init takes over the package.json
 * `npm i -D tsop` leaves; a directory name is turned into a project name aloud, never silently.
 * (The refusals themselves are rows of bad-inputs.test.ts.)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tsop } from './run-cli.js';

const bin = fileURLToPath(new URL('../../bin/tsop.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'tsop-never-lies-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** `tsop args | head -n lines` through a real pipe: tsop's exit code, its stderr, what head printed. */
function piped(args: string[], lines: number): Promise<{ code: number | null; stderr: string; head: string }> {
  return new Promise((resolve, reject) => {
    const cli = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const head = spawn('head', ['-n', String(lines)], { stdio: ['pipe', 'pipe', 'inherit'] });
    cli.stdout.pipe(head.stdin);
    // head exits after its lines: the pipe closes under tsop, as in a shell.
    head.stdin.on('error', () => undefined);
    let stderr = '';
    let out = '';
    cli.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    head.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    cli.on('error', reject);
    head.on('error', reject);
    // Both must have ended: head may print its line after tsop has already closed (a busy machine).
    const cliClosed = new Promise<number | null>((done) => cli.on('close', done));
    const headClosed = new Promise<void>((done) => head.on('close', () => done()));
    void Promise.all([cliClosed, headClosed]).then(([code]) => resolve({ code, stderr, head: out }));
  });
}

/** tsop with a stdout pipe nobody reads: the read end is closed before tsop writes, so every write fails with EPIPE. */
function unread(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const cli = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    cli.stdout.destroy();
    let stderr = '';
    cli.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    cli.on('error', reject);
    cli.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('the command line never lies', () => {
  it('writes to a closed pipe end quietly, with the exit code the command had', async () => {
    for (const args of [['create', 'api', '--help'], ['--version'], ['manifests', '--help']]) {
      const r = await unread(args);
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: '' });
    }
    // A failing command keeps its exit code when its output goes nowhere.
    expect((await unread(['craete'])).code).toBe(1);
  });

  it('a reader that stops early (help | head -1) ends tsop quietly, with the exit code of the help', async () => {
    for (const args of [['create', 'api', '--help'], ['manifests', '--help'], ['--help']]) {
      const r = await piped(args, 1);
      expect(r.head).toMatch(/^Usage: tsop /);
      expect(r.stderr, args.join(' ')).toBe('');
      expect(r.code).toBe(0);
    }
  });

  it("one table of exit codes, in tsop --help, and a line pointing at it in every command's help", async () => {
    const help = await tsop(root, ['--help']);
    expect(help.stdout).toMatch(
      /Exit codes \(the same for every command\):\n {2}0 +done.*\n {2}1 +a problem.*\n {2}2 +cannot run here: not in a tsop project.*\n {2}130 +stopped at a prompt/,
    );
    for (const cmd of [
      ['create', 'api'],
      ['create', 'webhook'],
      ['init'],
      ['edit'],
      ['manifests'],
      ['alpha', 'update'],
      ['dev'],
      ['docs'],
      ['import', 'crd'],
    ]) {
      const r = await tsop(root, [...cmd, '--help']);
      expect(r.stdout, cmd.join(' ')).toContain(
        'Exit codes: 0 done, 1 a problem, 2 cannot run here, 130 stopped at a prompt',
      );
    }
  });

  it("'not in a project' is exit 2 for every command that needs one", async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    for (const cmd of [
      ['create', 'api', '--group', 'a', '--version', 'v1', '--kind', 'A'],
      ['create', 'webhook', '--group', 'a', '--version', 'v1', '--kind', 'A', '--defaulting'],
      ['edit', '--multigroup'],
      ['manifests'],
      ['manifests', '--check'],
      ['docs'],
      ['dev'],
      ['alpha', 'update'],
      ['alpha', 'generate', '--output-dir', join(root, 'out')],
    ]) {
      const r = await tsop(empty, cmd);
      expect({ cmd: cmd.join(' '), code: r.code }, r.stderr).toEqual({ cmd: cmd.join(' '), code: 2 });
      expect(r.stderr).toMatch(/is not a tsop project/);
    }
  });

  it('init --over-kubebuilder adds only the files a kubebuilder project lacks: its PROJECT, RBAC and go.mod stay', async () => {
    const dir = join(root, 'kubebuilder');
    mkdirSync(join(dir, 'config/rbac'), { recursive: true });
    const project =
      'domain: example.com\nlayout:\n- go.kubebuilder.io/v4\nprojectName: ' +
      'memcached-operator\nrepo: example.com/memcached-operator\nresources:\n- group: cache\n  ' +
      'kind: Memcached\n  version: v1alpha1\nversion: "3"\n';
    const role =
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: manager-role\nrules: []\n';
    writeFileSync(join(dir, 'PROJECT'), project);
    writeFileSync(join(dir, 'config/rbac/role.yaml'), role);
    writeFileSync(
      join(dir, 'go.mod'),
      'module example.com/memcached-operator\n\nrequire sigs.k8s.io/controller-runtime v0.22.1\n',
    );
    const r = await tsop(dir, ['init', '--domain', 'example.com', '--skip-install', '--over-kubebuilder']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'PROJECT.kubebuilder'), 'utf8')).toBe(project);
    expect(readFileSync(join(dir, 'PROJECT'), 'utf8')).toContain('typescript.tsop.dev/v1');
    expect(readFileSync(join(dir, 'config/rbac/role.yaml'), 'utf8')).toBe(role);
    expect(readFileSync(join(dir, 'go.mod'), 'utf8')).toContain('controller-runtime');
    expect(existsSync(join(dir, 'src/main.ts'))).toBe(true);
    expect(r.stderr).toMatch(
      /kubebuilder's PROJECT is now PROJECT\.kubebuilder; its Go code and the files it already had \(config\/rbac\/role\.yaml\) were left as they were/,
    );
  });

  it("init takes over the package.json 'npm init' and 'npm i -D tsop' leave: the user's name and tsop version stay, the project's scripts and dependencies come in", async () => {
    const dir = join(root, 'npm-first');
    mkdirSync(dir);
    const npmInit = {
      name: 'npm-first',
      version: '1.0.0',
      main: 'index.js',
      type: 'commonjs',
      scripts: { test: 'echo "Error: no test specified" && exit 1', lint: 'eslint .' },
      license: 'ISC',
      devDependencies: { tsop: '^9.9.9' },
    };
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(npmInit, null, 2)}\n`);
    const r = await tsop(dir, ['init', '--domain', 'example.com', '--skip-install']);
    expect(r.code, r.stderr).toBe(0);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown> & {
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg).toMatchObject({ name: 'npm-first', version: '1.0.0', type: 'module', license: 'ISC' });
    expect(pkg.devDependencies['tsop']).toBe('^9.9.9');
    expect(pkg.devDependencies['typescript']).toBeDefined();
    expect(pkg.dependencies['@kubernetes/client-node']).toBeDefined();
    expect(pkg.scripts['lint']).toBe('eslint .');
    expect(pkg.scripts['test']).toMatch(/^tsop manifests && /);
    expect(pkg.scripts['manifests']).toBe('tsop manifests');
  });

  it('a directory name that is not a project name as it is is said to become one, not changed silently', async () => {
    const dir = join(root, 'My_Operator');
    mkdirSync(dir);
    const r = await tsop(dir, ['init', '--domain', 'example.com', '--skip-install']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "project name 'my-operator' (from the directory name 'My_Operator'; pass --project-name to choose another)",
    );
    expect(readFileSync(join(dir, 'PROJECT'), 'utf8')).toContain('projectName: my-operator');
  });
});
