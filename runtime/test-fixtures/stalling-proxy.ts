/**
 * A loopback TCP proxy in front of the API server that forwards bytes both ways until `stall()`;
 * from then on it swallows them, as a connection that hangs without closing. Tests of lease
 * loss put a manager behind it.
 */
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';

export class StallingProxy {
  readonly fromClientAt: number[] = [];
  private stalled = false;
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;

  constructor(private readonly target: number) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.on('data', (d) => {
        this.fromClientAt.push(performance.now());
        if (!this.stalled) upstream.write(d);
      });
      upstream.on('data', (d) => {
        if (!this.stalled) client.write(d);
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return (this.server.address() as AddressInfo).port;
  }

  stall(): number {
    this.stalled = true;
    return performance.now();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
}
