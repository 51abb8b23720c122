/**
 * A connection reset after the API server has acted, against the real server: a loopback proxy
 * forwards a request on a kept-alive connection, lets the server answer, and resets the client's
 * side instead of passing the answer on. A create is not sent again (a resend would fail with
 * AlreadyExists): the caller gets the TransportError and exactly one object exists.
 * A GET in the same spot is resent on a new connection and succeeds.
 */
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { TransportError } from '../rest/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { ensureNamespace } from '../test-fixtures/helpers.js';
import { createClient } from './index.js';

/** Pipes to `target`; once armed, the next exchange on a used connection loses its answer to a reset. */
class ResettingProxy {
  accepted = 0;
  private armed = false;
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;

  constructor(target: number) {
    this.server = net.createServer((client) => {
      this.accepted++;
      const upstream = net.connect(target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      let exchanges = 0;
      let doomed = false;
      client.on('data', (d: Buffer) => {
        if (this.armed && exchanges > 0 && !doomed) {
          this.armed = false;
          doomed = true; // this request reaches the server; its answer never comes back
        }
        upstream.write(d);
      });
      upstream.on('data', (d: Buffer) => {
        if (doomed) {
          client.resetAndDestroy();
          upstream.destroy();
          return;
        }
        exchanges++;
        client.write(d);
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  arm(): void {
    this.armed = true;
  }

  async listen(): Promise<number> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
}

const CM = { apiVersion: 'v1', kind: 'ConfigMap' };

describeWithControlPlane('client: connection reset after the server acted', { shared: true }, (env) => {
  let proxy: ResettingProxy;
  let kc: KubeConfig;
  beforeAll(async () => {
    proxy = new ResettingProxy(Number(new URL(env.cp.server).port));
    const port = await proxy.listen();
    kc = new KubeConfig();
    kc.loadFromString(env.cp.kubeConfig.exportConfig());
    const name = kc.getCurrentCluster()!.name;
    kc.clusters = kc.clusters.map((c) => (c.name === name ? { ...c, server: `https://127.0.0.1:${port}` } : c));
    await ensureNamespace(createClient(env.cp.kubeConfig), 'reset');
  });
  afterAll(async () => {
    await proxy.close();
  });

  it('does not send a create again, so it happens once', async () => {
    const client = createClient(kc);
    const direct = client.apiReader();
    try {
      await direct.list(CM, { namespace: 'reset' }); // the connection is now kept alive and reused
      proxy.arm();
      const err = await client
        .create<KubeObject>({ ...CM, metadata: { name: 'once', namespace: 'reset', labels: { test: 'reset' } } })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TransportError);
      expect((err as Error).message).toMatch(/^POST \/api\/v1\/namespaces\/reset\/configmaps: /);
      const made = await createClient(env.cp.kubeConfig).list<KubeObject>(CM, {
        namespace: 'reset',
        labelSelector: 'test=reset',
      });
      expect(made.items).toHaveLength(1);
    } finally {
      client.close();
    }
  });

  it('sends a GET again on a new connection', async () => {
    const client = createClient(kc);
    const direct = client.apiReader();
    try {
      await direct.list(CM, { namespace: 'reset' });
      const before = proxy.accepted;
      proxy.arm();
      const listed = await direct.list<KubeObject>(CM, { namespace: 'reset', labelSelector: 'test=reset' });
      expect(listed.items).toHaveLength(1);
      expect(proxy.accepted).toBe(before + 1);
    } finally {
      client.close();
    }
  });
});
