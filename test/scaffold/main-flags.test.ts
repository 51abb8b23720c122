/**
 * The generated main.ts's metrics flags, by running it: `tsop init` writes a project, tsc builds
 * it (with tsop's node_modules; so the generated code also type-checks), and build/main.js runs
 * against a kubeconfig whose server does not exist — the metrics server starts before anything
 * talks to the API server, and a request without a token is refused without asking it. What the
 * flags do shows in the 'serving metrics' log line and in how the endpoint answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedServingCertificate } from '../../runtime/certs/index.js';
import { runInit } from '../../src/cli/init.js';
import { captured, tempProject } from './harness.js';
import { linkNodeModules } from './node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(TSOP, 'node_modules/typescript/bin/tsc');

interface Started {
  proc: ChildProcess;
  /** The 'serving metrics' log line. */
  line: { port: number; secure: boolean };
}

interface Answer {
  status: number;
  body: string;
  fingerprint?: string;
}

function get(url: string): Promise<Answer> {
  const send = url.startsWith('https:') ? https.get : http.get;
  return new Promise((resolve, reject) => {
    send(url, { rejectUnauthorized: false, agent: false }, (res) => {
      const socket = res.socket as TLSSocket;
      const fingerprint =
        typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate().fingerprint256 : undefined;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, fingerprint }));
    }).on('error', reject);
  });
}

describe.concurrent('generated main.ts: metrics flags', { timeout: 60_000 }, () => {
  let dir = '';
  const procs: ChildProcess[] = [];

  const node = (args: string[]): ChildProcess => {
    const proc = spawn(process.execPath, ['build/main.js', '--health-probe-bind-address=0', ...args], {
      cwd: dir,
      env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig'), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    procs.push(proc);
    return proc;
  };

  /** Runs main.js with `args` until it logs 'serving metrics'. */
  const start = (args: string[]): Promise<Started> => {
    const proc = node(['--metrics-bind-address=127.0.0.1:0', ...args]);
    return new Promise((resolve, reject) => {
      let out = '';
      let err = '';
      proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
      proc.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        for (const text of out.split('\n')) {
          if (!text.includes('"serving metrics"')) continue;
          const line = JSON.parse(text) as { port: number; secure: boolean };
          resolve({ proc, line });
        }
      });
      proc.on('exit', (code) => reject(new Error(`main.js exited with ${code} before serving metrics:\n${out}${err}`)));
    });
  };

  /** Runs main.js with `args` to its exit. */
  const exit = (args: string[]): Promise<{ code: number | null; stderr: string }> => {
    const proc = node(args);
    let stderr = '';
    proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    return new Promise((resolve) => proc.on('exit', (code) => resolve({ code, stderr })));
  };

  beforeAll(async () => {
    dir = tempProject('flags-operator');
    await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
    linkNodeModules(dir);
    const tsc = await execa(process.execPath, [TSC, '-p', 'tsconfig.build.json'], {
      cwd: dir,
      all: true,
      reject: false,
    });
    expect(tsc.exitCode, tsc.all).toBe(0);
    // Nothing listens on port 1: a review attempt would fail with 500, not 401.
    writeFileSync(
      join(dir, 'kubeconfig'),
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]',
        'users: [{name: u, user: {token: unused}}]',
        'contexts: [{name: c, context: {cluster: c, user: u}}]',
        'current-context: c',
        '',
      ].join('\n'),
    );
  }, 60_000);

  afterAll(() => {
    for (const p of procs.splice(0)) p.kill('SIGKILL');
  });

  it('builds what the operator runs, without the test harness (envtest and testing stay out of build/)', () => {
    expect(existsSync(join(dir, 'build/runtime/manager/index.js'))).toBe(true);
    for (const harness of ['envtest', 'testing']) expect(existsSync(join(dir, 'build/runtime', harness))).toBe(false);
  });

  it('serves HTTPS and refuses a request without a token by default', async () => {
    const { line } = await start([]);
    expect(line.secure).toBe(true);
    expect(await get(`https://127.0.0.1:${line.port}/metrics`)).toMatchObject({ status: 401, body: 'Unauthorized\n' });
    await expect(get(`http://127.0.0.1:${line.port}/metrics`)).rejects.toThrow();
  });

  it('serves plain HTTP without checks with --metrics-secure=false (Go-style boolean)', async () => {
    const { line } = await start(['--metrics-secure=false', '--leader-elect=false']);
    expect(line.secure).toBe(false);
    const res = await get(`http://127.0.0.1:${line.port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.body).toContain('# TYPE controller_runtime_reconcile_total counter');
  });

  it('takes the last of several boolean values, and --flag alone as true', async () => {
    const [on, off] = await Promise.all([
      start(['--metrics-secure=false', '--metrics-secure']),
      start(['--metrics-secure=true', '--metrics-secure=0']),
    ]);
    expect(on.line.secure).toBe(true);
    expect(off.line.secure).toBe(false);
  });

  it('serves the certificate named by --metrics-cert-path, --metrics-cert-name and --metrics-cert-key', async () => {
    const certs = join(dir, 'certs');
    mkdirSync(certs, { recursive: true });
    const c = selfSignedServingCertificate({ commonName: 'from-flags' });
    writeFileSync(join(certs, 'm.crt'), c.certPem);
    writeFileSync(join(certs, 'm.key'), c.keyPem);
    const { line } = await start([
      `--metrics-cert-path=${certs}`,
      '--metrics-cert-name=m.crt',
      '--metrics-cert-key',
      'm.key',
    ]);
    const res = await get(`https://127.0.0.1:${line.port}/metrics`);
    expect(res.fingerprint).toBe(new X509Certificate(c.certPem).fingerprint256);
    expect(res.status).toBe(401);
  });

  it('rejects a boolean flag with a value that is not a boolean: one line, the usage, exit 2', async () => {
    const { code, stderr } = await exit(['--metrics-secure=maybe']);
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe('invalid boolean value "maybe" for --metrics-secure (use true or false)');
    expect(stderr).toContain('--metrics-secure[=false]');
  });

  it('documents --webhook-self-provision in --help, and refuses it next to --webhook-cert-path in one line', async () => {
    const help = await execa(process.execPath, ['build/main.js', '--help'], { cwd: dir, reject: false });
    expect(help.exitCode).toBe(0);
    for (const flag of [
      '--webhook-self-provision[=false]',
      '--webhook-service-name <name>',
      '--webhook-cert-secret <name>',
      '--webhook-cert-hosts <host,...>',
      '--webhook-mutating-configuration <name,...>',
      '--webhook-validating-configuration <name,...>',
      '--webhook-conversion-crd <name,...>',
    ]) {
      expect(help.stdout).toContain(`  ${flag} `);
    }
    const { code, stderr } = await exit(['--webhook-self-provision', '--webhook-cert-path=/certs']);
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe(
      '--webhook-self-provision and --webhook-cert-path both say where the webhook certificate comes from; pass one of them',
    );
  });
});
