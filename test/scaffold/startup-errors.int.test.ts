/**
 * A generated operator's start-up failures that its user can fix end with one error line in the
 * logger's format and exit 1, never a stack trace: a bad or missing kubeconfig, a context naming
 * nothing usable, a bad bind address, a metrics certificate that cannot be read, an API server that refuses connections (a closed port),
 * a CRD not installed, a leader-election namespace that does not exist and a port in use. The
 * operator is scaffolded and built with the CLI and run as a process against a real control plane.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { tempProject } from './harness.js';
import { linkNodeModules } from './node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(TSOP, 'node_modules/typescript/bin/tsc');

interface Outcome {
  code: number | undefined;
  /** Every line of stdout and stderr. */
  lines: string[];
  /** The JSON log lines at level error. */
  errors: Array<{ msg: string; error?: string }>;
}

/** A port nothing listens on: bound once by the kernel's choice, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function kubeconfig(server: string, extra: { context?: string; cluster?: string; current?: string } = {}): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: c, cluster: {server: "${server}", insecure-skip-tls-verify: true}}]`,
    'users: [{name: u, user: {token: unused}}]',
    `contexts: [{name: ${extra.context ?? 'c'}, context: {cluster: ${extra.cluster ?? 'c'}, user: u}}]`,
    ...(extra.current === '' ? [] : [`current-context: ${extra.current ?? 'c'}`]),
    '',
  ].join('\n');
}

describeWithControlPlane('generated operator: start-up failures are one line', { shared: true }, (env) => {
  const dir = tempProject('startup-operator');
  const files = mkdtempSync(join(tmpdir(), 'tsop-startup-'));
  const cleanups: Array<() => Promise<void> | void> = [];

  /** Runs build/main.js to its exit with KUBECONFIG=`kubeConfigPath`. */
  async function operator(
    kubeConfigPath: string,
    args: string[] = [],
    extraEnv: Record<string, string> = {},
  ): Promise<Outcome> {
    const r = await execa(process.execPath, ['build/main.js', '--health-probe-bind-address=0', ...args], {
      cwd: dir,
      env: { KUBECONFIG: kubeConfigPath, LOG_LEVEL: 'info', POD_NAMESPACE: 'default', ...extraEnv },
      reject: false,
      timeout: 60_000,
    });
    const lines = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => l !== '');
    const errors = lines
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: string; msg: string; error?: string })
      .filter((l) => l.level === 'error');
    return { code: r.exitCode, lines, errors };
  }

  /** Exit 1, exactly one error line (its type and text as given), every line JSON, no stack frame. */
  function expectOneLine(o: Outcome, type: string, ...parts: string[]): void {
    const all = o.lines.join('\n');
    expect(o.code, all).toBe(1);
    expect(o.errors, all).toHaveLength(1);
    expect(o.errors[0]!.error, all).toBe(type);
    for (const p of parts) expect(o.errors[0]!.msg).toContain(p);
    expect(all).not.toMatch(/^\s+at /m);
    expect(
      o.lines.every((l) => l.startsWith('{')),
      all,
    ).toBe(true);
  }

  function file(name: string, text: string): string {
    const path = join(files, name);
    writeFileSync(path, text);
    return path;
  }

  beforeAll(async () => {
    const tsop = (...args: string[]) =>
      execa(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], { cwd: dir, all: true, reject: false });
    const init = await tsop('init', '--domain', 'example.com', '--skip-install');
    expect(init.exitCode, init.all).toBe(0);
    const api = await tsop(
      'create',
      'api',
      '--group',
      'cache',
      '--version',
      'v1alpha1',
      '--kind',
      'Memcached',
      '--resource',
      '--controller',
    );
    expect(api.exitCode, api.all).toBe(0);
    linkNodeModules(dir);
    const tsc = await execa(process.execPath, [TSC, '-p', 'tsconfig.build.json'], {
      cwd: dir,
      all: true,
      reject: false,
    });
    expect(tsc.exitCode, tsc.all).toBe(0);
  }, 180_000);

  afterAll(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    rmSync(files, { recursive: true, force: true });
  });

  it('a kubeconfig file that does not exist, or does not parse', async () => {
    const [missing, bad] = await Promise.all([
      operator(join(files, 'nowhere')),
      operator(file('bad.yaml', 'apiVersion: v1\nclusters: [\n')),
    ]);
    expectOneLine(
      missing,
      'KubeConfigError',
      `kubeconfig ${join(files, 'nowhere')}`,
      'ENOENT',
      'point KUBECONFIG at a readable kubeconfig file',
    );
    expectOneLine(bad, 'KubeConfigError', `kubeconfig ${join(files, 'bad.yaml')}`, 'point KUBECONFIG');
  });

  it('a context naming a missing cluster, a current-context naming no context, no current-context', async () => {
    const [cluster, context, none] = await Promise.all([
      operator(file('cluster.yaml', kubeconfig(env.cp.server, { cluster: 'gone' }))),
      operator(file('context.yaml', kubeconfig(env.cp.server, { current: 'other' }))),
      operator(file('none.yaml', kubeconfig(env.cp.server, { current: '' }))),
    ]);
    expectOneLine(
      cluster,
      'KubeConfigContextError',
      'context "c" names cluster "gone", which is not defined under clusters',
    );
    expectOneLine(context, 'KubeConfigContextError', 'current-context "other" is not defined under contexts');
    expectOneLine(none, 'KubeConfigContextError', 'has no current-context', 'kubectl config use-context');
  });

  it('a bind address without a port', async () => {
    expectOneLine(
      await operator(env.cp.kubeconfigPath, ['--health-probe-bind-address=probes']),
      'InvalidManagerOptionsError',
      'bind address "probes" has no port',
    );
  });

  it('an API server that refuses connections: names its URL', async () => {
    const server = `https://127.0.0.1:${await closedPort()}`;
    expectOneLine(
      await operator(file('refused.yaml', kubeconfig(server))),
      'ApiServerUnreachableError',
      `cannot reach the API server at ${server}`,
      'ECONNREFUSED',
    );
  });

  it('a CRD not installed: names the kind and how to install it', async () => {
    expectOneLine(
      await operator(env.cp.kubeconfigPath),
      'KindNotServedError',
      'kind Memcached (cache.example.com/v1alpha1) is not served',
      'kubectl apply -k config/crd',
    );
  });

  it('with the CRD installed: a missing leader-election namespace, and a health-probe port in use', async () => {
    await env.cp.installCRDs([join(dir, 'config/crd/bases')]);
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const address = `127.0.0.1:${(taken.address() as net.AddressInfo).port}`;
    const [lease, port] = await Promise.all([
      operator(env.cp.kubeconfigPath, ['--leader-elect'], { POD_NAMESPACE: 'no-such-namespace' }),
      operator(env.cp.kubeconfigPath, [`--health-probe-bind-address=${address}`]),
    ]);
    expectOneLine(lease, 'LeaseNamespaceError', 'namespace "no-such-namespace"', 'does not exist', 'POD_NAMESPACE');
    expectOneLine(
      port,
      'ListenError',
      `cannot serve health probes on ${address}`,
      'already in use',
      '--health-probe-bind-address',
    );
  });

  it('with the CRD installed: a metrics certificate directory that does not exist names the file and the flags', async () => {
    const certs = join(files, 'no-certs');
    expectOneLine(
      await operator(env.cp.kubeconfigPath, ['--metrics-bind-address=127.0.0.1:0', `--metrics-cert-path=${certs}`]),
      'CertificateLoadError',
      `metrics certificate: cannot read ${join(certs, 'tls.crt')}`,
      'check --metrics-cert-path, --metrics-cert-name and --metrics-cert-key',
    );
  });
});
