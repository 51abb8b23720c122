import { describe, expect, it } from 'vitest';
import { createLogger } from '../log/index.js';
import { Checks, createManager, InvalidBindAddressError, parseBindAddress, ShutdownTimeoutError } from './index.js';
import { InvalidManagerOptionsError, resolveOptions } from './options.js';
import { KubeConfig } from '@kubernetes/client-node';

describe('parseBindAddress', () => {
  it('reads controller-runtime style addresses', () => {
    expect(parseBindAddress(':8080')).toEqual({ port: 8080 });
    expect(parseBindAddress('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseBindAddress('[::1]:9443')).toEqual({ host: '::1', port: 9443 });
    expect(parseBindAddress('0')).toBeUndefined();
    expect(parseBindAddress('')).toBeUndefined();
    expect(() => parseBindAddress('8080')).toThrow(InvalidBindAddressError);
    expect(() => parseBindAddress(':http')).toThrow(InvalidBindAddressError);
    expect(() => parseBindAddress(':70000')).toThrow(InvalidBindAddressError);
  });
});

describe('resolveOptions', () => {
  const kubeConfig = new KubeConfig();
  it('applies controller-runtime defaults', () => {
    expect(resolveOptions({ kubeConfig })).toEqual({
      metricsAddr: { port: 8080 },
      probeAddr: undefined,
      gracefulShutdownTimeoutMs: 30_000,
      cacheSyncTimeoutMs: 120_000,
    });
  });
  it('collects every problem', () => {
    const err = (() => {
      try {
        resolveOptions({
          kubeConfig,
          metricsBindAddress: 'nope',
          gracefulShutdownTimeoutMs: -1,
          cacheSyncTimeoutMs: 0,
          leaderElection: { id: '', namespace: 'x' },
        });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InvalidManagerOptionsError);
    expect((err as InvalidManagerOptionsError).problems).toHaveLength(4);
  });
  it('refuses a metrics cert dir without secure serving', () => {
    expect(() => resolveOptions({ kubeConfig, metricsServer: { certDir: '/certs' } })).toThrow(
      'invalid manager options: metricsServer.certDir is set but metricsServer.secureServing is not (the certificate would be unused)',
    );
    expect(() =>
      resolveOptions({ kubeConfig, metricsServer: { certDir: '/certs', secureServing: true } }),
    ).not.toThrow();
  });
});

describe('Checks', () => {
  it('passes only when every check passes and names the failing one', async () => {
    const checks = new Checks();
    let ready = false;
    checks.add('ping', () => {});
    checks.add('synced', () => {
      if (!ready) throw new Error('not synced');
    });
    expect(await checks.run()).toEqual({ ok: false, lines: ['[+]ping ok', '[-]synced failed: not synced'] });
    expect((await checks.run('ping')).ok).toBe(true);
    expect((await checks.run('missing')).ok).toBe(false);
    ready = true;
    expect((await checks.run()).ok).toBe(true);
    expect(() => checks.add('ping', () => {})).toThrow(/already registered/);
  });
});

describe('graceful shutdown of any length', () => {
  // Never contacted: a manager with no kinds syncs at once and sends nothing.
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: 'http://127.0.0.1:1', skipTLSVerify: false }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });

  /** A manager with no kinds (nothing to sync, no API server needed) and one slow-to-stop runnable. */
  async function stopWith(gracefulShutdownTimeoutMs: number, stopTakesMs: number): Promise<unknown> {
    const mgr = createManager({
      kubeConfig,
      metricsBindAddress: '0',
      logger: createLogger({ level: 'silent' }),
      gracefulShutdownTimeoutMs,
    });
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    mgr.add({
      needLeaderElection: false,
      start: async (signal) => {
        started();
        await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
        await new Promise((r) => setTimeout(r, stopTakesMs));
      },
    });
    const ac = new AbortController();
    const run = mgr.start(ac.signal);
    await running;
    ac.abort();
    return run.then(
      () => 'stopped',
      (err: unknown) => err,
    );
  }

  it('waits for in-flight work when the timeout is Infinity or longer than 24.8 days', async () => {
    expect(await stopWith(Infinity, 50)).toBe('stopped');
    expect(await stopWith(40 * 24 * 60 * 60 * 1000, 50)).toBe('stopped');
  });

  it('still gives up after a short timeout', async () => {
    expect(await stopWith(20, 2_000)).toBeInstanceOf(ShutdownTimeoutError);
  });
});

describe('event recorders', () => {
  it('getEventRecorder (controller-runtime >= 0.23) and getEventRecorderFor name one recorder per name', () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'c', server: 'http://127.0.0.1:1', skipTLSVerify: false }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const mgr = createManager({ kubeConfig, metricsBindAddress: '0', logger: createLogger({ level: 'silent' }) });
    const r = mgr.getEventRecorder('memcached-controller');
    expect(mgr.getEventRecorderFor('memcached-controller')).toBe(r);
    expect(mgr.getEventRecorder('other')).not.toBe(r);
  });
});
