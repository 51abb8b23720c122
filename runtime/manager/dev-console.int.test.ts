/**
 * The dev console's feed from a cache, against a real API server: what an informer of whole
 * objects across the cluster delivers (added, changed, deleted) and, once it has listed, every
 * uid it holds, posted in batches to /dev/objects; narrowed and metadata-only informers, which
 * hold part of their kind, are not reported.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { metadataOnly, type KubeObject } from '../apimachinery/index.js';
import { Cache } from '../cache/index.js';
import { createClient } from '../client/index.js';
import { RESTMapper } from '../restmapper/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { DevObjectReporter, type DevObjectsReport } from './dev-console.js';

const CM = { group: '', version: 'v1', kind: 'ConfigMap' };
const SECRET = { group: '', version: 'v1', kind: 'Secret' };
const SA = { group: '', version: 'v1', kind: 'ServiceAccount' };

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

describeWithControlPlane('manager: the dev console feed', { shared: true }, (env) => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });

  it("posts what the cluster-wide informers deliver, then what each holds once listed; not a narrowed informer's", async () => {
    const reports: DevObjectsReport[] = [];
    const paths = new Set<string | undefined>();
    const server = createServer((req, res) => {
      paths.add(req.url);
      void readBody(req).then((text) => {
        reports.push(JSON.parse(text) as DevObjectsReport);
        res.end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    stops.push(() => new Promise<void>((r) => server.close(() => r())));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/dev/objects`);
    const ns = env.namespace;
    const client = createClient(env.cp.kubeConfig);
    const before = await client.create<KubeObject>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'before', namespace: ns },
      data: { a: '1' },
    });

    const mapper = new RESTMapper(env.cp.kubeConfig);
    const cache = new Cache({
      kubeConfig: env.cp.kubeConfig,
      mapper,
      byObject: [{ gvk: SA, namespace: ns }],
      observer: new DevObjectReporter(url, mapper),
    });
    cache.informerFor(CM);
    cache.informerFor(metadataOnly(SECRET));
    cache.informerFor(SA);
    const ac = new AbortController();
    const run = cache.start(ac.signal);
    stops.push(async () => {
      ac.abort();
      await run;
    });
    expect(await cache.waitForCacheSync()).toBe(true);

    await client.update<KubeObject>({ ...before, data: { a: '2' } });
    const after = await client.create<KubeObject>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'after', namespace: ns },
    });
    await client.delete(after);
    await client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: ns } });
    await client.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', namespace: ns } });

    const mine = (): string[] =>
      reports
        .flatMap((r) => r.objects)
        .filter((o) => o.object.metadata?.namespace === ns)
        .map((o) => `${o.resource} ${o.type} ${o.object.metadata?.name}`);
    const deadline = Date.now() + 10_000;
    while (!mine().includes('configmaps DELETED after') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(mine()).toEqual([
      'configmaps ADDED before',
      'configmaps MODIFIED before',
      'configmaps ADDED after',
      'configmaps DELETED after',
    ]);
    const modified = reports.flatMap((r) => r.objects).find((o) => o.type === 'MODIFIED')!;
    expect(modified.object).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: '2' } });
    expect(modified.object.metadata?.managedFields).toBeUndefined();
    expect(modified.at).toBeGreaterThan(Date.now() - 10_000);
    expect([...paths]).toEqual(['/dev/objects']);
    const listed = reports.flatMap((r) => r.listed);
    expect(listed.map((l) => `${l.resource} ${l.apiVersion} ${l.kind}`)).toEqual(['configmaps v1 ConfigMap']);
    expect(listed[0]?.uids).toContain(before.metadata?.uid);
  });
});
