/**
 * How much of a write's cost is the HTTP client, on both sides: the same updates sent to a real
 * API server through three transports, alternating round by round on one control plane.
 *
 *   https   Node's https.request with a keep-alive Agent (what the runtime's connection and the
 *           runtime benchmark's minimal client use);
 *   http2   one node:http2 session, every request a stream on it (what client-go does);
 *   raw     one TLS socket per worker speaking HTTP/1.1 by hand: a request written as one string,
 *           the answer parsed by Content-Length or chunks. No pool, no streams, no events per
 *           header: the least a client can do, so its CPU is the floor for any HTTP/1.1 client.
 *
 * Each round updates a fresh set of ConfigMaps, COUNT objects × WRITES updates each (each
 * update sends the object the previous answer returned), CONCURRENCY at a time, and prints
 * wall time, this process's CPU and the API server + etcd CPU. Run on demand:
 *   node --import ./runtime/testing/register.mjs bench/http-transports.ts
 *   ROUNDS=3 COUNT=1000 WRITES=4 CONCURRENCY=8 (defaults)
 */
import { connect as http2Connect, constants } from 'node:http2';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { startControlPlane } from '../runtime/envtest/index.js';
import { pool, rawClient } from './kube-raw.js';
import { load, median } from './measure.js';
import { planeCpuSeconds } from './proc.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 3);
const COUNT = Number(process.env['COUNT'] ?? 1000);
const WRITES = Number(process.env['WRITES'] ?? 4);
const CONCURRENCY = Number(process.env['CONCURRENCY'] ?? 8);
const CM = '/api/v1/namespaces/default/configmaps';

type Send = (worker: number, method: string, path: string, body: string) => Promise<string>;
interface ConfigMap {
  metadata: { name: string };
  data?: Record<string, string>;
}

/** One TLS connection speaking HTTP/1.1 by hand, one request at a time. */
class RawConnection {
  private buf: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (body: string) => void; reject: (err: Error) => void } | undefined;

  constructor(
    private readonly socket: TLSSocket,
    private readonly host: string,
  ) {
    socket.on('data', (chunk: Buffer) => {
      this.buf = this.buf.length > 0 ? Buffer.concat([this.buf, chunk]) : chunk;
      this.answer();
    });
    socket.on('error', (err) => this.waiting?.reject(err));
  }

  request(method: string, path: string, body: string): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: ${this.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
  }

  close(): void {
    this.socket.destroy();
  }

  /** Resolves the waiting request once its whole answer is in the buffer. */
  private answer(): void {
    if (!this.waiting) return;
    const headEnd = this.buf.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = this.buf.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    let body: string;
    if (length) {
      const end = headEnd + 4 + Number(length[1]);
      if (this.buf.length < end) return;
      body = this.buf.toString('utf8', headEnd + 4, end);
      this.buf = this.buf.subarray(end);
    } else {
      const parts: Buffer[] = [];
      let at = headEnd + 4;
      for (;;) {
        const lineEnd = this.buf.indexOf('\r\n', at);
        if (lineEnd < 0) return;
        const size = parseInt(this.buf.toString('latin1', at, lineEnd), 16);
        if (this.buf.length < lineEnd + 2 + size + 2) return;
        if (size === 0) {
          this.buf = this.buf.subarray(lineEnd + 4);
          break;
        }
        parts.push(this.buf.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts).toString('utf8');
    }
    const done = this.waiting;
    this.waiting = undefined;
    done.resolve(body);
  }
}

const plane = await startControlPlane({ startTimeoutMs: 120_000 });
const raw = await rawClient(plane);
try {
  const tls: { ca?: string | Buffer; cert?: string | Buffer; key?: string | Buffer } = {};
  await plane.kubeConfig.applyToHTTPSOptions(tls as Parameters<typeof plane.kubeConfig.applyToHTTPSOptions>[0]);
  const url = new URL(plane.server);
  const session = http2Connect(plane.server, { ca: tls.ca, cert: tls.cert, key: tls.key });
  const sockets = await Promise.all(
    Array.from(
      { length: CONCURRENCY },
      () =>
        new Promise<RawConnection>((resolve, reject) => {
          const socket = tlsConnect(
            {
              host: url.hostname,
              port: Number(url.port),
              ca: tls.ca,
              cert: tls.cert,
              key: tls.key,
              ALPNProtocols: ['http/1.1'],
            },
            () => resolve(new RawConnection(socket, url.host)),
          );
          socket.once('error', reject);
        }),
    ),
  );
  const transports: Record<string, Send> = {
    https: async (_w, method, path, body) => (await raw.call(method, path, JSON.parse(body))).body,
    http2: (_w, method, path, body) =>
      new Promise((resolve, reject) => {
        const stream = session.request({
          [constants.HTTP2_HEADER_METHOD]: method,
          [constants.HTTP2_HEADER_PATH]: path,
          'content-type': 'application/json',
        });
        let text = '';
        stream.setEncoding('utf8');
        stream.on('data', (c: string) => (text += c));
        stream.on('end', () => resolve(text));
        stream.on('error', reject);
        stream.end(body);
      }),
    raw: (w, method, path, body) => sockets[w]!.request(method, path, body),
  };

  const results = new Map<string, { wall: number[]; cpu: number[]; server: number[] }>();
  console.log(
    `${COUNT} ConfigMaps × ${WRITES} updates, ${CONCURRENCY} in flight, ${ROUNDS} rounds, node ${process.version}, load ${load()}\n`,
  );
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which transport goes first, so a drift in the machine's load hits all alike.
    const order = Object.keys(transports);
    if (round % 2 === 1) order.reverse();
    for (const name of order) {
      const prefix = `${name}-${round}-`;
      const objs: ConfigMap[] = new Array<ConfigMap>(COUNT);
      await pool(COUNT, 32, async (i) => {
        objs[i] = await raw.json<ConfigMap>('POST', CM, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `${prefix}${i}` },
          data: { step: '0' },
        });
      });
      const send = transports[name]!;
      const server0 = planeCpuSeconds();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, worker) => {
          while (next < COUNT) {
            let obj = objs[next++]!;
            for (let step = 1; step <= WRITES; step++) {
              const answer = JSON.parse(
                await send(
                  worker,
                  'PUT',
                  `${CM}/${obj.metadata.name}`,
                  JSON.stringify({ ...obj, data: { step: String(step) } }),
                ),
              ) as ConfigMap & { code?: number; message?: string };
              if (answer.code !== undefined)
                throw new Error(`${name}: PUT ${obj.metadata.name}: ${answer.code} ${answer.message ?? ''}`);
              obj = answer;
            }
          }
        }),
      );
      const cpu = process.cpuUsage(cpu0);
      const r = results.get(name) ?? { wall: [], cpu: [], server: [] };
      r.wall.push((performance.now() - t0) / 1000);
      r.cpu.push((cpu.user + cpu.system) / 1e6);
      r.server.push(planeCpuSeconds() - server0);
      results.set(name, r);
      console.log(
        `round ${round + 1} ${name.padEnd(5)} wall ${r.wall.at(-1)!.toFixed(2)} s, client CPU ${r.cpu.at(-1)!.toFixed(2)} s, API server + etcd CPU ${r.server.at(-1)!.toFixed(2)} s`,
      );
    }
  }
  console.log(
    `\n| transport | wall | client CPU | client CPU per write | API server + etcd CPU |\n|---|---|---|---|---|`,
  );
  for (const [name, r] of results) {
    const perWrite = (median(r.cpu) / (COUNT * WRITES)) * 1e6;
    console.log(
      `| ${name} | ${median(r.wall).toFixed(2)} s | ${median(r.cpu).toFixed(2)} s | ${perWrite.toFixed(0)} µs | ${median(r.server).toFixed(2)} s |`,
    );
  }
  session.close();
  for (const s of sockets) s.close();
} finally {
  raw.close();
  await plane.stop();
}
