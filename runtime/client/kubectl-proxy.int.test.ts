/**
 * A plain `http://` server: a real `kubectl proxy` in front of the API server, and a kubeconfig
 * that names only its address (no credentials, no TLS, no insecure-skip-tls-verify — client-node
 * alone refuses that). The client's writes and reads and an informer's list and watch all go
 * through it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { Informer } from '../cache/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { waitFor } from '../test-fixtures/helpers.js';
import { createClient, mergePatch } from './index.js';

/** Starts `kubectl proxy` on a free loopback port; resolves with its URL once it serves. */
function kubectlProxy(kubectl: string, kubeconfigPath: string): Promise<{ url: string; proc: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(kubectl, ['--kubeconfig', kubeconfigPath, 'proxy', '--port=0', '--address=127.0.0.1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /Starting to serve on (127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ url: `http://${m[1]}`, proc });
    });
    proc.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
    proc.on('exit', (code) => reject(new Error(`kubectl proxy exited with ${code}: ${out.trim()}`)));
  });
}

describeWithControlPlane('client: http:// server (kubectl proxy)', { shared: true }, (env) => {
  let proc: ChildProcess | undefined;
  afterAll(async () => {
    if (!proc || proc.exitCode !== null) return;
    const gone = new Promise((r) => proc!.once('exit', r));
    proc.kill('SIGTERM');
    await gone;
  });

  it('creates, reads, patches and deletes, and an informer lists and watches, over plain HTTP', async () => {
    const kubectl = env.cp.assets.kubectl;
    expect(kubectl, 'kubectl beside the control-plane binaries').toBeDefined();
    const proxy = await kubectlProxy(kubectl!, env.cp.kubeconfigPath);
    proc = proxy.proc;
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'proxy', server: proxy.url, skipTLSVerify: false }],
      users: [{ name: 'nobody' }],
      contexts: [{ name: 'proxy', cluster: 'proxy', user: 'nobody' }],
      currentContext: 'proxy',
    });
    const client = createClient(kc);
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'via-proxy' } });
    const informer = new Informer({
      kubeConfig: kc,
      gvk: { group: '', version: 'v1', kind: 'ConfigMap' },
      namespace: 'via-proxy',
    });
    const seen: string[] = [];
    informer.addEventHandler({
      onAdd: (o) => seen.push(`add ${o.metadata!.name}`),
      onUpdate: (_, o) => seen.push(`update ${o.metadata!.name} ${JSON.stringify(o['data'])}`),
      onDelete: (o) => seen.push(`delete ${o.metadata!.name}`),
    });
    const ac = new AbortController();
    const running = informer.run(ac.signal);
    try {
      await client.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'before', namespace: 'via-proxy' },
      });
      expect(await informer.waitForSync(ac.signal)).toBe(true);
      const cm = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'plain', namespace: 'via-proxy' },
        data: { a: '1' },
      };
      await client.create(cm);
      const got = await client.apiReader().get<KubeObject>(cm, { namespace: 'via-proxy', name: 'plain' });
      expect(got['data']).toEqual({ a: '1' });
      await client.patch(cm, mergePatch({ data: { a: '2' } }));
      await client.delete(cm);
      await waitFor('the informer to see every change', () => seen.includes('delete plain'), 20_000, 20);
      expect(seen).toEqual(
        expect.arrayContaining(['add before', 'add plain', 'update plain {"a":"2"}', 'delete plain']),
      );
    } finally {
      ac.abort();
      await running;
      client.close();
    }
  });
});
