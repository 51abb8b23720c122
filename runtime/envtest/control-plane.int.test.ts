import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request, type RequestOptions } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiException, CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { describeWithControlPlane, skipReason } from '../testing/control-plane.js';
import { startControlPlane, type ControlPlane } from './index.js';

const testdata = fileURLToPath(new URL('./testdata/', import.meta.url));
const widget = (name: string, size: number): object => ({
  apiVersion: 'test.tsop.dev/v1',
  kind: 'Widget',
  metadata: { name },
  spec: { size },
});

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids of etcd/kube-apiserver processes whose command line mentions `dir`. */
function processesUsing(dir: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes(dir) && /etcd|kube-apiserver/.test(line))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

async function createConfigMap(cp: ControlPlane, name: string, data: Record<string, string>): Promise<void> {
  const core = cp.kubeConfig.makeApiClient(CoreV1Api);
  await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name }, data } });
}

describeWithControlPlane('control plane', { crdDirectoryPaths: [testdata] }, (env) => {
  it('serves core resources: a ConfigMap is created and read back', async () => {
    await createConfigMap(env.cp, 'greeting', { hello: 'world' });
    const core = env.cp.kubeConfig.makeApiClient(CoreV1Api);
    const read = await core.readNamespacedConfigMap({ namespace: 'default', name: 'greeting' });
    expect(read.data).toEqual({ hello: 'world' });
    expect(read.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('installs CRDs from a directory and serves custom resources', async () => {
    const custom = env.cp.kubeConfig.makeApiClient(CustomObjectsApi);
    await custom.createNamespacedCustomObject({
      group: 'test.tsop.dev',
      version: 'v1',
      namespace: 'default',
      plural: 'widgets',
      body: widget('small', 3),
    });
    const got = (await custom.getNamespacedCustomObject({
      group: 'test.tsop.dev',
      version: 'v1',
      namespace: 'default',
      plural: 'widgets',
      name: 'small',
    })) as { spec: { size: number } };
    expect(got.spec.size).toBe(3);
  });

  it('rejects a schema-invalid custom resource with the validation message', async () => {
    const custom = env.cp.kubeConfig.makeApiClient(CustomObjectsApi);
    const attempt = custom.createNamespacedCustomObject({
      group: 'test.tsop.dev',
      version: 'v1',
      namespace: 'default',
      plural: 'widgets',
      body: widget('huge', 11),
    });
    const error = await attempt.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiException);
    const api = error as ApiException<unknown>;
    expect(api.code).toBe(422);
    expect(String(api.body)).toContain(
      'spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10',
    );
  });

  it('keeps data across an API server restart on the same etcd', async () => {
    await createConfigMap(env.cp, 'survivor', { kept: 'yes' });
    await env.cp.stopApiServer();
    const core = env.cp.kubeConfig.makeApiClient(CoreV1Api);
    await expect(core.readNamespacedConfigMap({ namespace: 'default', name: 'survivor' })).rejects.toThrow();
    await env.cp.startApiServer();
    const read = await core.readNamespacedConfigMap({ namespace: 'default', name: 'survivor' });
    expect(read.data).toEqual({ kept: 'yes' });
  });

  it("serves the CRDs' paths as soon as startApiServer() resolves (no 503 while handlers install)", async () => {
    await env.cp.stopApiServer();
    await env.cp.startApiServer();
    const first = await get(env.cp, '/apis/test.tsop.dev/v1/widgets?limit=1');
    expect(first.status).toBe(200);
  });

  it('stops in about the watch termination grace (2 s) while a watch is open, not the 10 s stop grace', async () => {
    const watch = await openWatch(env.cp, '/api/v1/namespaces/default/configmaps?watch=1');
    const started = Date.now();
    await env.cp.stopApiServer();
    const took = Date.now() - started;
    await watch.closed; // the server ended the watch rather than being killed under it
    await env.cp.startApiServer();
    expect(took).toBeLessThan(6_000);
  });

  it('freezes the API server: a request hangs while frozen and is answered after the thaw', async () => {
    env.cp.freezeApiServer();
    let answered = false;
    const pending = get(env.cp, '/api/v1/namespaces/default/configmaps', 30_000).then((res) => {
      answered = true;
      return res;
    });
    try {
      await new Promise((r) => setTimeout(r, 1500));
      expect(answered).toBe(false);
      await expect(get(env.cp, '/version', 500)).rejects.toThrow(/timed out/);
    } finally {
      env.cp.thawApiServer();
    }
    expect((await pending).status).toBe(200);
    expect((await get(env.cp, '/version')).status).toBe(200);
  });

  it('restarts into a fresh watch cache after compaction: a watch from before it gets 410 Gone', async () => {
    await createConfigMap(env.cp, 'old', { v: '1' });
    const oldVersion = await listVersion(env.cp);
    for (let i = 0; i < 3; i++) await createConfigMap(env.cp, `newer-${i}`, { v: String(i) });
    expect(await env.cp.compactEtcd()).toBeGreaterThan(Number(oldVersion));
    await env.cp.stopApiServer();
    await env.cp.startApiServer();
    expect(await firstWatchEvent(env.cp, oldVersion)).toMatchObject({
      type: 'ERROR',
      object: { code: 410, reason: 'Expired' },
    });
  });
});

describeWithControlPlane('control plane without watch cache', { apiServerFlags: ['--watch-cache=false'] }, (env) => {
  it('compacts etcd: a watch from a resourceVersion before the compaction gets 410 Gone', async () => {
    const oldVersion = await listVersion(env.cp);
    await createConfigMap(env.cp, 'added-after', { v: '1' });
    expect(await firstWatchEvent(env.cp, oldVersion)).toMatchObject({
      type: 'ADDED',
      object: { metadata: { name: 'added-after' } },
    });
    // A watch from R replays from R+1, so history must be compacted past R+1.
    await createConfigMap(env.cp, 'added-later', { v: '2' });
    await env.cp.compactEtcd();
    expect(await firstWatchEvent(env.cp, oldVersion)).toMatchObject({ type: 'ERROR', object: { code: 410 } });
  });
});

async function httpsOptions(cp: ControlPlane, path: string, timeoutMs: number): Promise<RequestOptions> {
  const url = new URL(path, cp.server);
  const options: RequestOptions = {
    hostname: url.hostname,
    port: url.port,
    path: url.pathname + url.search,
    timeout: timeoutMs,
    agent: false,
  };
  await cp.kubeConfig.applyToHTTPSOptions(options);
  return options;
}

/** A GET with the admin identity; rejects with "timed out" when no answer comes in time. */
async function get(cp: ControlPlane, path: string, timeoutMs = 10_000): Promise<{ status: number; body: string }> {
  const options = await httpsOptions(cp, path, timeoutMs);
  return new Promise((resolve, reject) => {
    const req = request(options, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** Opens a watch and resolves once its response headers arrived; `closed` settles when the stream ends. */
async function openWatch(cp: ControlPlane, path: string): Promise<{ closed: Promise<void> }> {
  const options = await httpsOptions(cp, path, 0);
  return new Promise((resolve, reject) => {
    const req = request(options, (res) => {
      const closed = new Promise<void>((done) => {
        res.on('close', () => done());
        res.on('error', () => done());
      });
      res.resume();
      resolve({ closed });
    });
    req.on('error', reject);
    req.end();
  });
}

async function listVersion(cp: ControlPlane): Promise<string> {
  const list = await cp.kubeConfig.makeApiClient(CoreV1Api).listNamespacedConfigMap({ namespace: 'default' });
  return list.metadata?.resourceVersion ?? '';
}

/** The first event of a ConfigMap watch from `resourceVersion`, read with the admin identity. */
async function firstWatchEvent(cp: ControlPlane, resourceVersion: string): Promise<unknown> {
  const out = execFileSync(
    cp.assets.kubectl ?? 'kubectl',
    [
      '--kubeconfig',
      cp.kubeconfigPath,
      'get',
      '--raw',
      `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${resourceVersion}&timeoutSeconds=1`,
    ],
    { encoding: 'utf8' },
  );
  return JSON.parse(out.split('\n')[0] ?? 'null');
}

// Same rule as describeWithControlPlane: skipped only on a machine with neither binaries nor Go.
describe.skipIf(skipReason() !== undefined)('control plane lifecycle', () => {
  it('runs two control planes at once and stops each without leftovers', async () => {
    const [a, b] = await Promise.all([startControlPlane(), startControlPlane()]);
    expect(a.server).not.toBe(b.server);
    const dirs = [a, b].map((cp) => cp.kubeconfigPath.replace(/\/kubeconfig$/, ''));
    const pids = dirs.flatMap(processesUsing);
    expect(pids.length).toBe(4);
    await Promise.all([a.stop(), b.stop()]);
    expect(pids.filter(alive)).toEqual([]);
    for (const dir of dirs) expect(existsSync(dir)).toBe(false);
    for (const cp of [a, b]) {
      for (const url of [cp.server, cp.etcdUrl]) expect(await portIsFree(Number(new URL(url).port))).toBe(true);
    }
  });

  it('cleans up when the test process is terminated (SIGTERM) or killed (SIGKILL)', async () => {
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      const script = join(fileURLToPath(new URL('.', import.meta.url)), 'testdata', 'start-and-wait.ts');
      const child = spawn(
        process.execPath,
        ['--import', fileURLToPath(new URL('../testing/register.mjs', import.meta.url)), script],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const dir = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          const match = /READY (\S+)/.exec(chunk.toString());
          if (match?.[1]) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
      });
      const pids = processesUsing(dir);
      expect(pids.length).toBe(2);
      child.kill(signal);
      // SIGKILL leaves the work to the watchdog, which polls once a second.
      const deadline = Date.now() + 10_000;
      while ((pids.some(alive) || existsSync(dir)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 200));
      expect({ signal, alive: pids.filter(alive), dirExists: existsSync(dir) }).toEqual({
        signal,
        alive: [],
        dirExists: false,
      });
    }
  });

  it('says how to get the binaries when a named directory lacks them (and downloads nothing into it)', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'tsop-no-assets-'));
    try {
      await expect(startControlPlane({ binaryAssetsDirectory: empty })).rejects.toThrow(
        `etcd and kube-apiserver not found in ${empty}; pass a directory with both ('npx tsop envtest use -p path' downloads them and prints one)`,
      );
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
