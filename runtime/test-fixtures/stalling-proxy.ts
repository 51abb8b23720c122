/**
 * A loopback TCP proxy in front of the API server that forwards bytes both ways until told
 * otherwise, and records when the client sent bytes. `stall()` swallows them from then on, on
 * every connection, as a network partition that hangs without closing; `blackhole()` does so
 * only on the connections open at that moment, while new ones work — a connection dropped by a
 * NAT or a load balancer without FIN or RST, in front of a healthy server. Tests of lease loss
 * and of dead watches put a manager behind it.
 */
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';

/** The admin kubeconfig pointed at another port of the same host (the proxy's). */
export function viaPort(admin: KubeConfig, port: number): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(admin.exportConfig());
  const cluster = kc.getCurrentCluster()!;
  const server = new URL(cluster.server);
  server.port = String(port);
  kc.clusters = kc.clusters.map((c) => (c.name === cluster.name ? { ...c, server: server.href.replace(/\/$/, '') } : c));
  return kc;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  /** bytes are swallowed both ways */
  dropped: boolean;
}

export class StallingProxy {
  /** performance.now() of every chunk received from the client, forwarded or not */
  readonly fromClientAt: number[] = [];
  /** performance.now() of every connection accepted */
  readonly connectedAt: number[] = [];
  private stalled = false;
  private readonly pairs = new Set<Pair>();
  private readonly server: net.Server;

  constructor(private readonly target: number) {
    this.server = net.createServer((client) => {
      this.connectedAt.push(performance.now());
      const pair: Pair = { client, upstream: net.connect(this.target, '127.0.0.1'), dropped: false };
      const { upstream } = pair;
      this.pairs.add(pair);
      for (const s of [client, upstream]) {
        s.on('close', () => this.pairs.delete(pair));
        s.on('error', () => undefined);
      }
      const forwarding = (): boolean => !this.stalled && !pair.dropped;
      client.on('data', (d) => {
        this.fromClientAt.push(performance.now());
        if (forwarding()) upstream.write(d);
      });
      upstream.on('data', (d) => {
        if (forwarding()) client.write(d);
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return (this.server.address() as AddressInfo).port;
  }

  /** Every connection, open or new, swallows its bytes from now on. */
  stall(): number {
    this.stalled = true;
    return performance.now();
  }

  /** The connections open now swallow their bytes from now on, without closing; new ones work. */
  blackhole(): number {
    for (const p of this.pairs) p.dropped = true;
    return performance.now();
  }

  async close(): Promise<void> {
    for (const p of this.pairs) {
      p.client.destroy();
      p.upstream.destroy();
    }
    await new Promise((r) => this.server.close(r));
  }
}
