/**
 * Benchmark: the floor under an informer's initial sync — what reading a namespace's objects
 * costs before any decoding. One etcd + kube-apiserver holds COUNT ConfigMaps of SIZE bytes (the
 * namespace and objects `bench:scale` makes, so a DATA_DIR is shared with it); a raw HTTPS client
 * reads them to nowhere, as a watch-list stream (until its initial-events-end bookmark) and as a
 * plain LIST served from the watch cache (resourceVersion=0), in JSON and protobuf, whole and
 * metadata-only (PartialObjectMetadata). Each variant reports the seconds to the last byte it
 * needs, the bytes read, and the API server's CPU seconds meanwhile; RUNS rounds, medians.
 *
 *   node --import ./runtime/testing/register.mjs bench/runtime-scale-floor.ts
 *   (COUNT=100000 SIZE=1024 RUNS=3 DATA_DIR=<dir>)
 */
import { Agent, request } from 'node:https';
import { loadavg } from 'node:os';
import { type ControlPlane, startControlPlane } from '../runtime/envtest/index.js';
import { pool, rawClient } from './kube-raw.js';
import { childCpuSeconds } from './proc.js';

const count = Number(process.env['COUNT'] ?? 100_000);
const size = Number(process.env['SIZE'] ?? 1024);
const runs = Number(process.env['RUNS'] ?? 3);
const namespace = count % 1000 === 0 ? `s${count / 1000}k` : `s${count}`;

const JSON_TYPE = 'application/json';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const META = ';as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const META_LIST = ';as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const END_MARK = Buffer.from('k8s.io/initial-events-end');

interface Variant {
  name: string;
  query: string;
  accept: string;
  /** a watch-list stream: read until the initial-events-end bookmark, then close */
  stream: boolean;
}

const watchList = 'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';
const variants: Variant[] = [
  { name: 'watch-list JSON', query: watchList, accept: JSON_TYPE, stream: true },
  { name: 'watch-list protobuf', query: watchList, accept: `${PROTOBUF};stream=watch`, stream: true },
  { name: 'watch-list JSON metadata-only', query: watchList, accept: `${JSON_TYPE}${META}`, stream: true },
  { name: 'watch-list protobuf metadata-only', query: watchList, accept: `${PROTOBUF}${META}`, stream: true },
  { name: 'LIST rv=0 JSON', query: 'resourceVersion=0', accept: JSON_TYPE, stream: false },
  { name: 'LIST rv=0 protobuf', query: 'resourceVersion=0', accept: PROTOBUF, stream: false },
  {
    name: 'LIST rv=0 JSON metadata-only',
    query: 'resourceVersion=0',
    accept: `${JSON_TYPE}${META_LIST}`,
    stream: false,
  },
  {
    name: 'LIST rv=0 protobuf metadata-only',
    query: 'resourceVersion=0',
    accept: `${PROTOBUF}${META_LIST}`,
    stream: false,
  },
];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

let cp: ControlPlane | undefined;
try {
  const plane = (cp = await startControlPlane({
    startTimeoutMs: 180_000,
    ...(process.env['DATA_DIR'] ? { dataDir: process.env['DATA_DIR'] } : {}),
  }));
  const raw = await rawClient(plane);
  await raw.call('POST', '/api/v1/namespaces', { metadata: { name: namespace } });
  const page = await raw.json<{ items: unknown[]; metadata: { remainingItemCount?: number } }>(
    'GET',
    `/api/v1/namespaces/${namespace}/configmaps?limit=1`,
  );
  if (page.items.length + (page.metadata.remainingItemCount ?? 0) < count) {
    const data = 'x'.repeat(size);
    const t = performance.now();
    await pool(count, 64, async (i) => {
      const r = await raw.call('POST', `/api/v1/namespaces/${namespace}/configmaps`, {
        metadata: { name: `cm-${i}`, namespace, labels: { app: 'scale', index: String(i) } },
        data: { payload: data },
      });
      if (r.status !== 201 && r.status !== 409) throw new Error(`creating ConfigMap ${i}: ${r.status} ${r.body}`);
    });
    console.log(`${count} ConfigMaps made in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  raw.close();
  const tls: { ca?: string | Buffer; cert?: string | Buffer; key?: string | Buffer } = {};
  await plane.kubeConfig.applyToHTTPSOptions(tls as Parameters<typeof plane.kubeConfig.applyToHTTPSOptions>[0]);
  const url = new URL(plane.server);
  const serverCpu = (): number => childCpuSeconds(['kube-apiserver']);

  /** Reads one variant's answer to nowhere: seconds, bytes, the API server's CPU seconds. */
  const read = (v: Variant): Promise<{ seconds: number; bytes: number; cpu: number }> =>
    new Promise((resolve, reject) => {
      const agent = new Agent({ ca: tls.ca, cert: tls.cert, key: tls.key });
      const cpu0 = serverCpu();
      const t = performance.now();
      let bytes = 0;
      let tail: Buffer = Buffer.alloc(0);
      const done = (): void => {
        const seconds = (performance.now() - t) / 1000;
        req.destroy();
        agent.destroy();
        resolve({ seconds, bytes, cpu: serverCpu() - cpu0 });
      };
      const req = request(
        {
          hostname: url.hostname,
          port: url.port,
          agent,
          path: `/api/v1/namespaces/${namespace}/configmaps?${v.query}`,
          headers: { accept: v.accept },
        },
        (res) => {
          if (res.statusCode !== 200) reject(new Error(`${v.name}: ${res.statusCode}`));
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (!v.stream) return;
            // The end bookmark's annotation, possibly split across two chunks.
            const window = tail.length ? Buffer.concat([tail, chunk.subarray(0, END_MARK.length)]) : chunk;
            if (window.indexOf(END_MARK) >= 0 || chunk.indexOf(END_MARK) >= 0) done();
            tail = chunk.subarray(Math.max(0, chunk.length - END_MARK.length));
          });
          res.on('end', () => (v.stream ? reject(new Error(`${v.name}: ended before the bookmark`)) : done()));
          res.on('error', () => undefined);
        },
      );
      req.on('error', (err) => reject(err));
      req.end();
    });

  // A first read of each warms the watch cache's paths and the connection code.
  for (const v of variants) await read(v);
  const results = new Map<string, { seconds: number; bytes: number; cpu: number }[]>(variants.map((v) => [v.name, []]));
  for (let r = 0; r < runs; r++) for (const v of variants) results.get(v.name)!.push(await read(v));
  for (const v of variants) {
    const rs = results.get(v.name)!;
    console.log(
      `${v.name.padEnd(36)} ${median(rs.map((x) => x.seconds)).toFixed(2)} s, ` +
        `${(median(rs.map((x) => x.bytes)) / 1024 / 1024).toFixed(0)} MiB, ` +
        `API server CPU ${median(rs.map((x) => x.cpu)).toFixed(2)} s (load ${loadavg()[0]!.toFixed(1)})`,
    );
  }
} finally {
  await cp?.stop();
}
