/**
 * The pure parts of the start-up checks and of how failures are logged: which kubeconfig
 * contexts are usable, listen errors, the one-line log of a user error, that the checks send
 * nothing when there is nothing to check, and exitOnFatalError in a child process. Against a real API server: test/scaffold/startup-errors.int.test.ts.
 */
import { spawnSync } from 'node:child_process';
import * as net from 'node:net';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { KubeConfigError, LoadedKubeConfig } from '../kubeconfig/index.js';
import { RESTMapper } from '../restmapper/index.js';
import { createLogger, memoryDestination } from '../log/index.js';
import { isUserError, logFailure } from './fatal.js';
import {
  ApiServerUnreachableError,
  checkKubeConfig,
  KubeConfigContextError,
  listenError,
  ListenError,
  runStartupChecks,
} from './startup.js';

const REGISTER = fileURLToPath(new URL('../testing/register.mjs', import.meta.url));
const cluster = { name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true };

function loaded(contexts: Array<{ name: string; cluster: string; user: string }>, current: string): LoadedKubeConfig {
  return new LoadedKubeConfig([cluster], [{ name: 'u' }], contexts, current);
}

describe('checkKubeConfig', () => {
  it('accepts a context naming a defined cluster and user, or no user at all', () => {
    expect(() => checkKubeConfig(loaded([{ name: 'x', cluster: 'c', user: 'u' }], 'x'))).not.toThrow();
    expect(() => checkKubeConfig(loaded([{ name: 'x', cluster: 'c', user: '' }], 'x'))).not.toThrow();
  });

  it('names what is missing: the current context, the context it names, its cluster, its user', () => {
    const cases: Array<[LoadedKubeConfig, string]> = [
      [loaded([{ name: 'x', cluster: 'c', user: 'u' }], ''), 'has no current-context'],
      [loaded([{ name: 'x', cluster: 'c', user: 'u' }], 'y'), 'current-context "y" is not defined under contexts'],
      [
        loaded([{ name: 'x', cluster: 'gone', user: 'u' }], 'x'),
        'context "x" names cluster "gone", which is not defined under clusters',
      ],
      [
        loaded([{ name: 'x', cluster: 'c', user: 'nobody' }], 'x'),
        'context "x" names user "nobody", which is not defined under users',
      ],
    ];
    for (const [kc, text] of cases) {
      expect(() => checkKubeConfig(kc)).toThrow(KubeConfigContextError);
      expect(() => checkKubeConfig(kc)).toThrow(text);
    }
  });

  it("reads client-node's KubeConfig the same way", () => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [cluster],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'gone', user: 'u' }],
      currentContext: 'x',
    });
    expect(() => checkKubeConfig(kc)).toThrow('names cluster "gone"');
  });
});

describe('listenError', () => {
  it('turns a port in use into a ListenError naming the server, the address and the flag', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const second = net.createServer();
    const err = await new Promise<unknown>((resolve) => second.once('error', resolve).listen(port, '127.0.0.1'));
    await new Promise((resolve) => taken.close(resolve));
    const mapped = listenError(err, 'metrics', `127.0.0.1:${port}`, '--metrics-bind-address');
    expect(mapped).toBeInstanceOf(ListenError);
    expect((mapped as Error).message).toBe(
      `cannot serve metrics on 127.0.0.1:${port}: the address is already in use; stop what listens there or choose another address with --metrics-bind-address`,
    );
  });

  it('leaves other errors as they are', () => {
    const bug = new TypeError('x is not a function');
    expect(listenError(bug, 'metrics', ':8080', '--metrics-bind-address')).toBe(bug);
  });
});

describe('logFailure', () => {
  it('logs a user error as one line with its type and no stack, a bug with its stack', () => {
    const dest = memoryDestination();
    const log = createLogger({ destination: dest, level: 'info' });
    logFailure(
      log,
      new KubeConfigError('kubeconfig /x: ENOENT; point KUBECONFIG at a readable kubeconfig file'),
      'unable to start manager',
    );
    logFailure(log, new TypeError('x is not a function'), 'unable to start manager');
    const [user, bug] = dest.records();
    expect(user).toMatchObject({
      level: 'error',
      error: 'KubeConfigError',
      msg: 'unable to start manager: kubeconfig /x: ENOENT; point KUBECONFIG at a readable kubeconfig file',
    });
    expect(JSON.stringify(user)).not.toContain('    at ');
    expect(bug).toMatchObject({ level: 'error', msg: 'unable to start manager' });
    expect((bug!['err'] as { stack: string }).stack).toContain('    at ');
    expect(isUserError(new TypeError('x'))).toBe(false);
  });
});

describe('runStartupChecks', () => {
  const kubeConfig = loaded([{ name: 'x', cluster: 'c', user: 'u' }], 'x');

  it('sends nothing when there are no kinds and no Lease (nothing listens on port 1)', async () => {
    await expect(
      runStartupChecks({ kubeConfig, mapper: new RESTMapper(kubeConfig), kinds: [] }),
    ).resolves.toBeUndefined();
  });

  it('names the URL of an API server that refuses connections', async () => {
    const err = await runStartupChecks({
      kubeConfig,
      mapper: new RESTMapper(kubeConfig),
      kinds: [{ group: 'apps', version: 'v1', kind: 'Deployment' }],
      retryDelaysMs: [],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiServerUnreachableError);
    expect((err as Error).message).toMatch(
      /^cannot reach the API server at https:\/\/127\.0\.0\.1:1 \(connect ECONNREFUSED 127\.0\.0\.1:1\); start the cluster/,
    );
  });
});

describe('exitOnFatalError', () => {
  /** Runs `body` after exitOnFatalError in a child process; its exit code and output. */
  function child(body: string): { status: number | null; out: string } {
    const fatal = fileURLToPath(new URL('./fatal.ts', import.meta.url));
    const kubeconfig = fileURLToPath(new URL('../kubeconfig/index.ts', import.meta.url));
    const script = [
      `import { exitOnFatalError, markManagerRunning } from ${JSON.stringify(fatal)};`,
      `import { KubeConfigError } from ${JSON.stringify(kubeconfig)};`,
      `import { createLogger } from ${JSON.stringify(fileURLToPath(new URL('../log/index.ts', import.meta.url)))};`,
      'exitOnFatalError(createLogger());',
      body,
    ].join('\n');
    const r = spawnSync(process.execPath, ['--import', REGISTER, '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, LOG_LEVEL: 'info' },
    });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  }

  it("ends a top-level throw of a user's mistake with one line and exit 1, a bug after start with its stack", () => {
    const user = child(
      "await Promise.resolve(); throw new KubeConfigError('kubeconfig /x: ENOENT; point KUBECONFIG at a readable kubeconfig file');",
    );
    expect(user.status).toBe(1);
    expect(user.out.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(user.out)).toMatchObject({
      level: 'error',
      error: 'KubeConfigError',
      msg: 'unable to start manager: kubeconfig /x: ENOENT; point KUBECONFIG at a readable kubeconfig file',
    });
    const bug = child("markManagerRunning(); setTimeout(() => { throw new TypeError('x is not a function'); }, 1);");
    expect(bug.status).toBe(1);
    expect(JSON.parse(bug.out.trim().split('\n')[0]!)).toMatchObject({
      level: 'error',
      msg: 'uncaught error',
      err: { type: 'TypeError' },
    });
    expect(bug.out).toContain('    at ');
  });
});
