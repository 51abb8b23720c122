/**
 * Small helpers shared by the runtime's integration tests: polling for a condition, bulk
 * creation of Gizmos, plain HTTP GETs against the manager's servers, and direct etcd writes
 * (to change the cluster while the API server is down), and what importing the runtime loads.
 */

import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import { fileURLToPath } from 'node:url';
import { isAlreadyExists, type Client } from '../client/index.js';
import { waitFor as pollUntil } from '../envtest/http.js';
import { GIZMO, type Gizmo } from './gizmo-reconciler.js';

export const CRD_DIR = fileURLToPath(new URL('./crds', import.meta.url));

/**
 * Polls `cond` every `everyMs` until it returns true; throws with `what` after `timeoutMs`.
 * A throwing condition counts as "not yet" (the API server may be restarting), and its last
 * error is part of the timeout message. The harness's poller, with the tests' argument order.
 */
export function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 30_000, everyMs = 100): Promise<void> {
  return pollUntil(what, timeoutMs, async () => cond(), everyMs);
}

export async function ensureNamespace(client: Client, name: string): Promise<void> {
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }).catch((err: unknown) => {
    if (!isAlreadyExists(err)) throw err;
  });
}

/** Creates `count` Gizmos named `${prefix}-${i}`, `parallel` requests at a time. */
export async function createGizmos(client: Client, namespace: string, prefix: string, count: number, parallel = 20): Promise<void> {
  for (let i = 0; i < count; i += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - i) }, (_, j) =>
      client.create<Gizmo>({ ...GIZMO, metadata: { name: `${prefix}-${i + j}`, namespace }, spec: { replicas: 1 } }),
    );
    await Promise.all(batch);
  }
}

/** True when the Gizmo's Ready condition is True for its current generation. */
export function isConverged(g: Gizmo): boolean {
  const gen = g.metadata?.generation;
  const ready = g.status?.conditions?.find((c) => c.type === 'Ready');
  return ready?.status === 'True' && ready.observedGeneration === gen && g.status?.observedGeneration === gen;
}

export async function httpGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/** The value of one series in Prometheus text output, or undefined when absent. */
export function metricValue(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const m = /^([^{ ]+)(?:\{(.*)\})? (.+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/** etcd's JSON gateway: base64 keys and values. */
async function etcd(url: string, path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`etcd ${path}: HTTP ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** The etcd key the API server stores a namespaced custom resource under (default prefix). */
export function gizmoEtcdKey(namespace: string, name: string): string {
  return `/registry/fixtures.tsop.dev/gizmos/${namespace}/${name}`;
}

/** Reads a custom resource straight from etcd (custom resources are stored as JSON). */
export async function etcdGetJSON(url: string, key: string): Promise<Gizmo | undefined> {
  const res = await etcd(url, '/v3/kv/range', { key: b64(key) });
  const kvs = res['kvs'] as Array<{ value: string }> | undefined;
  return kvs?.[0] ? (JSON.parse(Buffer.from(kvs[0].value, 'base64').toString('utf8')) as Gizmo) : undefined;
}

/** Writes a custom resource straight into etcd, bypassing the (stopped) API server. */
export async function etcdPutJSON(url: string, key: string, obj: Gizmo): Promise<void> {
  await etcd(url, '/v3/kv/put', { key: b64(key), value: b64(JSON.stringify(obj)) });
}

export async function etcdDelete(url: string, key: string): Promise<void> {
  await etcd(url, '/v3/kv/deleterange', { key: b64(key) });
}

/** A Gizmo as the API server would have stored it on create. */
export function storedGizmo(namespace: string, name: string, replicas: number): Gizmo {
  return {
    ...GIZMO,
    metadata: {
      name,
      namespace,
      uid: randomUUID(),
      generation: 1,
      // metav1.Time on the wire is whole seconds; the type says Date, the JSON says string.
      creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') as unknown as Date,
    },
    spec: { replicas },
  };
}

/** What a fresh Node process loads to import the whole runtime (what every operator's start pays). */
export interface RuntimeImportLoads {
  /** Node's own modules, as `process.moduleLoadList` names them. */
  builtins: string[];
  /** Files loaded through CommonJS (the runtime's npm dependencies), absolute paths. */
  required: string[];
}

export function runtimeImportLoads(): RuntimeImportLoads {
  const register = fileURLToPath(new URL('../testing/register.mjs', import.meta.url));
  const runtime = new URL('../index.ts', import.meta.url).href;
  const script = [
    `import { createRequire } from 'node:module';`,
    `await import(${JSON.stringify(runtime)});`,
    `console.log(JSON.stringify({ builtins: process.moduleLoadList, required: Object.keys(createRequire(import.meta.url).cache) }));`,
  ].join('\n');
  const out = execFileSync(process.execPath, ['--import', register, '--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as RuntimeImportLoads;
}
