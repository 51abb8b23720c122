/**
 * A watch connection dropped silently (no FIN, no RST) in front of a healthy API server, against
 * a real one: a loopback proxy stops forwarding the connections open at that moment without
 * closing them, while new connections work — so a probe on a new connection passes, and TCP
 * keep-alive is answered by the proxy's kernel. Over HTTP/2 (the default over TLS) the watch's
 * own connection is pinged and found dead within 45 s of its last frame; over HTTP/1.1 the watch
 * is taken for dead once it has carried no event and no bookmark for the configured silence.
 * Either way it is re-opened from its last resourceVersion (no relist), and the controller sees
 * the edit made while its watch was blackholed.
 */
import { Registry } from 'prom-client';
import type { KubeObject } from '../apimachinery/index.js';
import { afterEach, expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { createClient } from '../client/index.js';
import { createLogger } from '../log/index.js';
import { createManager } from '../manager/index.js';
import { connectionFor } from '../rest/index.js';
import { describeWithControlPlane, type ControlPlaneEnv } from '../testing/control-plane.js';
import { waitFor } from '../test-fixtures/helpers.js';
import { StallingProxy, viaPort } from '../test-fixtures/stalling-proxy.js';

const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;

interface LogLine {
  t: number;
  line: Record<string, unknown>;
}

describeWithControlPlane('cache: a silently dropped watch connection', { shared: true }, (env) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('over HTTP/2 is found by a PING, and the edit made meanwhile is seen within 50 s, with default timings', async () => {
    const run = await blackholedWatch(env, cleanups, 'h2', {});
    await waitFor('the controller to see the edit', () => run.seen.some((s) => s.v === '2'), 60_000, 100);
    const sawEdit = run.seen.find((s) => s.v === '2')!.t;
    const dead = run.logs.filter((l) => String(l.line['msg']).includes('did not answer a PING'));
    expect(dead.length).toBeGreaterThanOrEqual(1);
    console.info(
      `HTTP/2: watch declared dead ${Math.round(dead[0]!.t - run.blackholedAt)} ms and the edit seen ${Math.round(sawEdit - run.blackholedAt)} ms after the blackhole`,
    );
    expect(sawEdit - run.blackholedAt).toBeLessThan(50_000);
    expect(dead[0]!.t).toBeGreaterThan(run.blackholedAt);
    expect(dead[0]!.line).toMatchObject({ level: 'warn', relist: false });
    expect(run.logs.filter((l) => l.line['relist'] === true)).toEqual([]);
  });

  it('over HTTP/1.1 is re-opened within the silence + 15 s without a relist', async () => {
    const SILENCE_MS = 10_000;
    const run = await blackholedWatch(env, cleanups, 'http/1.1', { watchSilenceMs: SILENCE_MS });
    await waitFor('the controller to see the edit', () => run.seen.some((s) => s.v === '2'), SILENCE_MS + 30_000, 100);
    const sawEdit = run.seen.find((s) => s.v === '2')!.t;
    console.info(
      `HTTP/1.1: edit seen ${Math.round(sawEdit - run.blackholedAt)} ms after the blackhole (silence ${SILENCE_MS} ms)`,
    );
    expect(sawEdit - run.blackholedAt).toBeLessThan(SILENCE_MS + 15_000);
    const recycled = run.logs.filter((l) => String(l.line['msg']).includes('no event or bookmark'));
    expect(recycled.length).toBeGreaterThanOrEqual(1);
    expect(recycled[0]!.t).toBeGreaterThan(run.blackholedAt);
    expect(recycled[0]!.line).toMatchObject({ level: 'warn', relist: false });
    // Resumed from its resourceVersion: no list was needed, so none of the errors asked for one.
    expect(run.logs.filter((l) => l.line['relist'] === true)).toEqual([]);
  });
});

/**
 * A manager behind a proxy reconciling one ConfigMap; once it has, the proxy blackholes the
 * connections open then (its watch's among them) and the ConfigMap is edited directly.
 */
async function blackholedWatch(
  env: ControlPlaneEnv,
  cleanups: Array<() => Promise<void> | void>,
  protocol: 'h2' | 'http/1.1',
  cache: { watchSilenceMs?: number },
): Promise<{ blackholedAt: number; seen: Array<{ t: number; v: string | undefined }>; logs: LogLine[] }> {
  const NS = env.namespace;
  const client = createClient(env.cp.kubeConfig);
  const name = `watched-${protocol.replace(/\W/g, '')}`;
  await client.create({ ...CM, metadata: { name, namespace: NS }, data: { v: '1' } });
  cleanups.push(() => client.delete({ ...CM, metadata: { name, namespace: NS } }));
  const proxy = new StallingProxy(Number(new URL(env.cp.server).port));
  const port = await proxy.listen();
  cleanups.push(() => proxy.close());
  // DISABLE_HTTP2 is read when the connection is made (with the manager): what a user would set.
  if (protocol === 'http/1.1') {
    process.env['DISABLE_HTTP2'] = '1';
    cleanups.push(() => void delete process.env['DISABLE_HTTP2']);
  }

  const logs: LogLine[] = [];
  const destination = {
    write: (msg: string): void => {
      for (const l of msg.split('\n'))
        if (l.trim()) logs.push({ t: performance.now(), line: JSON.parse(l) as Record<string, unknown> });
    },
  };
  const kubeConfig = viaPort(env.cp.kubeConfig, port);
  const mgr = createManager({
    kubeConfig,
    namespace: NS,
    metricsBindAddress: '0',
    registry: new Registry(),
    logger: createLogger({ level: 'info', destination }),
    cache,
  });
  const seen: Array<{ t: number; v: string | undefined }> = [];
  controllerFor(mgr, CM).complete({
    reconcile: async (req) => {
      if (req.name !== name) return;
      const cm = await mgr.client.get<KubeObject & { data?: Record<string, string> }>(CM, req);
      seen.push({ t: performance.now(), v: cm.data?.['v'] });
    },
  });
  const ac = new AbortController();
  const running = mgr.start(ac.signal);
  cleanups.push(async () => {
    ac.abort();
    await running;
  });
  await waitFor('the first reconcile', () => seen.some((s) => s.v === '1'), 60_000);
  expect(connectionFor(kubeConfig).streamProtocol).toBe(protocol);

  // Right after the initial list: the watch open now is the one the blackhole swallows.
  const blackholedAt = proxy.blackhole();
  await client.update({ ...(await client.get(CM, { namespace: NS, name })), data: { v: '2' } });
  return { blackholedAt, seen, logs };
}
