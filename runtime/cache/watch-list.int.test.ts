/**
 * The initial list as a watch-list stream (sendInitialEvents=true, resourceVersionMatch=
 * NotOlderThan, ended by the k8s.io/initial-events-end bookmark) against kube-apiserver 1.36,
 * where the WatchList feature gate is on by default; and the fallback to a paginated list on an
 * API server started with WatchList=false, which refuses such requests.
 */
import { expect, it } from 'vitest';
import type { GroupVersionKind } from '../apimachinery/index.js';
import { ApiConnection, type HttpStatusError, type KubeRequest, type StreamAnswer } from '../rest/index.js';
import { createClient } from '../client/index.js';
import { describeWithControlPlane, type ControlPlaneEnv } from '../testing/control-plane.js';
import { ensureNamespace, waitFor } from '../test-fixtures/helpers.js';
import { Informer, type AddInfo } from './index.js';

const CM: GroupVersionKind = { group: '', version: 'v1', kind: 'ConfigMap' };

/** The real connection, noting the query of every request it sends. */
class RecordingConnection extends ApiConnection {
  readonly sent: Array<{ stream: boolean; query: Record<string, string> }> = [];
  override openStream(req: KubeRequest): Promise<StreamAnswer> {
    this.note(true, req);
    return super.openStream(req);
  }
  override request(req: KubeRequest): ReturnType<ApiConnection['request']> {
    this.note(false, req);
    return super.request(req);
  }
  private note(stream: boolean, req: KubeRequest): void {
    if (!req.path.includes('/configmaps')) return; // discovery and probes are not the list
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) query[k] = String(v);
    this.sent.push({ stream, query });
  }
}

/** Starts an informer over 30 ConfigMaps (page size 10), syncs it and sees one later change. */
async function listThirty(
  env: ControlPlaneEnv,
  namespace: string,
  refused: HttpStatusError[],
): Promise<RecordingConnection> {
  const client = createClient(env.cp.kubeConfig);
  await ensureNamespace(client, namespace);
  for (let i = 0; i < 30; i++) {
    await client.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${i}`, namespace, labels: { set: 'a' } },
    });
  }
  const connection = new RecordingConnection(env.cp.kubeConfig);
  const informer = new Informer({
    kubeConfig: env.cp.kubeConfig,
    connection,
    gvk: CM,
    namespace,
    labelSelector: 'set=a',
    pageSize: 10,
    onWatchListRefused: (err) => refused.push(err),
  });
  const adds: Array<[string, boolean]> = [];
  informer.addEventHandler({
    onAdd: (o, info?: AddInfo) => adds.push([o.metadata!.name!, info?.isInInitialList ?? false]),
  });
  const ac = new AbortController();
  const running = informer.run(ac.signal);
  try {
    expect(await informer.waitForSync(ac.signal)).toBe(true);
    expect(informer.store.size).toBe(30);
    expect(informer.store.list().every((o) => o.apiVersion === 'v1' && o.kind === 'ConfigMap')).toBe(true);
    expect(adds.filter(([, initial]) => initial)).toHaveLength(30);
    await client.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'later', namespace, labels: { set: 'a' } },
    });
    await waitFor(
      'the change after the list',
      () => adds.some(([n, initial]) => n === 'later' && !initial),
      20_000,
      20,
    );
    expect(informer.store.size).toBe(31);
  } finally {
    ac.abort();
    await running;
    client.close();
  }
  return connection;
}

describeWithControlPlane('informer: watch-list where the server has it', { shared: true }, (env) => {
  it('lists with one watch-list stream, which then carries the changes', async () => {
    const refused: HttpStatusError[] = [];
    const conn = await listThirty(env, 'watch-list-on', refused);
    expect(refused).toEqual([]);
    // One request for list and watch: no page, no second watch.
    expect(conn.sent).toEqual([
      {
        stream: true,
        query: expect.objectContaining({
          watch: 'true',
          sendInitialEvents: 'true',
          resourceVersionMatch: 'NotOlderThan',
          allowWatchBookmarks: 'true',
          labelSelector: 'set=a',
        }) as Record<string, string>,
      },
    ]);
    expect(conn.sent[0]!.query['resourceVersion']).toBeUndefined();
  });
});

describeWithControlPlane(
  'informer: watch-list refused',
  { apiServerFlags: ['--feature-gates=WatchList=false'] },
  (env) => {
    it('falls back to a paginated list and a watch from its resourceVersion', async () => {
      const refused: HttpStatusError[] = [];
      const conn = await listThirty(env, 'watch-list-off', refused);
      expect(refused.map((e) => e.code)).toEqual([422]);
      expect(
        conn.sent.map((s) => (s.query['sendInitialEvents'] ? 'watch-list' : s.query['watch'] ? 'watch' : 'page')),
      ).toEqual(['watch-list', 'page', 'page', 'page', 'watch']);
      expect(conn.sent.at(-1)!.query['resourceVersion']).toMatch(/^\d+$/);
    });
  },
);
