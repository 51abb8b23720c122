/**
 * The OLM guide's "Running the bundle with OLM" commands beside operator-sdk v1.42.3 and a real
 * API server (`npm run test:anchors`). operator-sdk loads the PROJECT file of the directory it runs
 * in and stops at a layout it has no plugin for, whatever the command; the guide runs it from
 * bundle/, which has none. Here each operator-sdk line of the guide runs as written from there,
 * and gets past the project to the cluster (which has no OLM, and the image no registry: those
 * steps need a real cluster); from the project's root the same lines stop at PROJECT.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';

const REPO = join(import.meta.dirname, '../..');
const GUIDE = join(REPO, 'docs/guides/olm.md');

function locateOperatorSdk(): string | undefined {
  const cached = spawnSync('bash', [join(REPO, 'scripts/operator-sdk.sh'), '--print'], { encoding: 'utf8' });
  const candidates = [
    process.env['OPERATOR_SDK'],
    cached.status === 0 ? cached.stdout.trim() : undefined,
    join(homedir(), 'anchors/bin/operator-sdk'),
  ];
  return candidates.find((p): p is string => p !== undefined && p !== '' && existsSync(p));
}
const sdk = locateOperatorSdk();
if (sdk === undefined)
  throw new Error(
    'operator-sdk v1.42.3 not found: build it with `bash scripts/operator-sdk.sh` (about 18 minutes on two cores), or set OPERATOR_SDK',
  );

/** The shell lines of the guide's "Running the bundle with OLM" block, comments dropped. */
function guideLines(): string[] {
  const section = readFileSync(GUIDE, 'utf8').split(/^## Running the bundle with OLM$/m)[1] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l.length > 0);
}

/** An image name whose registry refuses at once: loopback port 1, no DNS, no network. */
const BUNDLE_IMG = '127.0.0.1:1/memcached-operator-bundle:v0.0.1';
const PROJECT_REFUSAL = 'no plugin could be resolved with key "typescript.tsop.dev/v1"';
/** How far each command gets on an API server without OLM, once PROJECT is out of its way. */
const REACHED: Record<string, RegExp> = {
  'olm install': /Failed to install OLM|Successfully installed OLM/,
  'run bundle': /pull bundle image/,
  cleanup: /operators\.coreos\.com/,
};

describeWithControlPlane('the OLM guide with operator-sdk', {}, (env) => {
  let work = '';
  let project = '';
  const lines = guideLines();
  const sdkLines = lines.filter((l) => l.startsWith('operator-sdk '));
  /** A guide line's arguments, the bundle image filled in and a bound on how long it waits. */
  const argsOf = (line: string) => [
    ...line
      .replace(/^operator-sdk /, '')
      .replace(/\$\{?BUNDLE_IMG\}?/g, BUNDLE_IMG)
      .split(/\s+/),
    '--timeout',
    '30s',
  ];
  const run = (line: string, cwd: string) =>
    execa(sdk!, argsOf(line), { cwd, all: true, reject: false, env: { KUBECONFIG: env.cp.kubeconfigPath } });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'tsop-olm-guide-'));
    project = join(work, 'memcached-operator');
    const init = await execa(
      process.execPath,
      [
        join(REPO, 'bin/tsop.js'),
        'init',
        '--dir',
        project,
        '--domain',
        'example.com',
        '--plugins',
        'go/v4,manifests.sdk.operatorframework.io/v2,scorecard.sdk.operatorframework.io/v2',
        '--skip-install',
      ],
      { all: true, reject: false },
    );
    expect(init.exitCode, init.all).toBe(0);
    // What `npm run bundle` writes; the commands below read nothing in it but its having no PROJECT.
    mkdirSync(join(project, 'bundle'));
  });
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('runs operator-sdk from bundle/, after the bundle is built', () => {
    expect(sdkLines.map((l) => l.split(/\s+/).slice(0, 3).join(' '))).toEqual([
      'operator-sdk olm install',
      'operator-sdk run bundle',
      'operator-sdk cleanup memcached-operator',
    ]);
    const cd = lines.indexOf('cd bundle');
    expect(cd, lines.join('\n')).toBeGreaterThan(lines.findIndex((l) => l.includes('npm run bundle')));
    expect(lines.findIndex((l) => l.startsWith('operator-sdk '))).toBeGreaterThan(cd);
  });

  it("gets past the project to the cluster from bundle/, and stops at tsop's PROJECT in the root", async () => {
    for (const line of sdkLines) {
      const fromBundle = await run(line, join(project, 'bundle'));
      expect(fromBundle.all, line).not.toContain(PROJECT_REFUSAL);
      const reached = Object.entries(REACHED).find(([command]) => line.startsWith(`operator-sdk ${command}`))?.[1];
      expect(fromBundle.all, line).toMatch(reached ?? /^$/);
      const fromRoot = await run(line, project);
      expect(fromRoot.exitCode, line).not.toBe(0);
      expect(fromRoot.all, line).toContain(PROJECT_REFUSAL);
    }
    // And it talks to the API server the kubeconfig names: no OLM there.
    const status = await execa(sdk!, ['olm', 'status'], {
      cwd: join(project, 'bundle'),
      all: true,
      reject: false,
      env: { KUBECONFIG: env.cp.kubeconfigPath },
    });
    expect(status.all).toContain('no existing installation found');
  });
});
