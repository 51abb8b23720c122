/**
 * The kubeconfig's proxy-url, against a real API server: the kubeconfig names a server address
 * nothing listens on, which only the loopback HTTP CONNECT proxy can reach (as a cluster behind
 * a corporate proxy); the client and an informer work only if they go through it.
 */
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { Informer } from '../cache/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { createClient } from './index.js';

/** A minimal CONNECT proxy: records each tunnel's target, routes `from` to port `to`, pipes bytes both ways. */
async function connectProxy(route: {
  from: number;
  to: number;
}): Promise<{ port: number; tunnels: string[]; close: () => Promise<void> }> {
  const tunnels: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    client.once('data', (head) => {
      const m = /^CONNECT ([^:\s]+):(\d+) HTTP\/1\.[01]\r\n/.exec(head.toString('latin1'));
      if (!m) return void client.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n');
      tunnels.push(`${m[1]}:${m[2]}`);
      const port = Number(m[2]) === route.from ? route.to : Number(m[2]);
      const upstream = net.connect(port, m[1], () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        client.pipe(upstream).pipe(client);
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    tunnels,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

describeWithControlPlane('client: kubeconfig proxy-url', { shared: true }, (env) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it("sends the client's and the informer's requests through the proxy", async () => {
    // Port 1 on loopback: nothing listens, so a direct connection is refused.
    const proxy = await connectProxy({ from: 1, to: Number(new URL(env.cp.server).port) });
    cleanups.push(proxy.close);
    const kc = new KubeConfig();
    kc.loadFromString(env.cp.kubeConfig.exportConfig());
    const name = kc.getCurrentCluster()!.name;
    kc.clusters = kc.clusters.map((c) =>
      c.name === name ? { ...c, server: 'https://127.0.0.1:1', proxyUrl: `http://127.0.0.1:${proxy.port}` } : c,
    );
    const apiHost = '127.0.0.1:1';

    const client = createClient(kc);
    const cm = await client.create<KubeObject>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'proxied', namespace: env.namespace },
    });
    expect(cm.metadata?.uid).toBeDefined();
    expect(proxy.tunnels).toContain(apiHost);
    const before = proxy.tunnels.length;

    const informer = new Informer({
      kubeConfig: kc,
      gvk: { group: '', version: 'v1', kind: 'ConfigMap' },
      namespace: env.namespace,
    });
    const ac = new AbortController();
    const running = informer.run(ac.signal);
    try {
      expect(await informer.waitForSync(ac.signal)).toBe(true);
      expect(informer.store.get(`${env.namespace}/proxied`)).toBeDefined();
      expect(proxy.tunnels.length).toBeGreaterThan(before);
    } finally {
      ac.abort();
      await running;
      client.close();
    }
  });
});
