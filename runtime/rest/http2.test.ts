import * as http2 from 'node:http2';
import * as https from 'node:https';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate, newKeyPair, type IssuedCertificate } from '../certs/index.js';
import { StallingProxy } from '../test-fixtures/stalling-proxy.js';
import { ApiConnection, type ConnectionOptions, DeadConnectionError, openRequestCount, readBody } from './index.js';

// Two loopback TLS servers with one CA and client certificates requested: one offering HTTP/2
// (and HTTP/1.1), as kube-apiserver does, and one offering HTTP/1.1 only, as some proxies do.
// Each answers /who with the client certificate's name, the Authorization header and the
// protocol, and /stream with one line and then nothing, as a quiet watch.
let ca: IssuedCertificate;
let client: IssuedCertificate;
let h2Server: http2.Http2SecureServer;
let h1Server: https.Server;
const ports = { h2: 0, h1: 0 };

type Handler = (
  req: { url?: string; socket: unknown; headers: Record<string, unknown>; httpVersion: string },
  res: {
    writeHead(code: number, headers: Record<string, string>): void;
    write(s: string): boolean;
    end(s?: string): void;
  },
) => void;

const handler: Handler = (req, res) => {
  const peer = (req.socket as TLSSocket).getPeerCertificate();
  const who = { user: peer?.subject?.CN ?? null, auth: req.headers['authorization'] ?? null, version: req.httpVersion };
  res.writeHead(200, { 'Content-Type': 'application/json' });
  if (req.url?.startsWith('/stream')) {
    res.write(`${JSON.stringify(who)}\n`);
    return;
  }
  res.end(JSON.stringify(who));
};

beforeAll(async () => {
  const keys = newKeyPair();
  const subject = { commonName: 'http2-test-ca' };
  ca = issueCertificate({ subject, keys, issuer: { subject, privateKey: keys.privateKey }, isCA: true });
  const issuer = { subject, privateKey: keys.privateKey };
  const serving = issueCertificate({
    subject: { commonName: 'api' },
    keys: newKeyPair(),
    issuer,
    usage: 'server',
    dnsNames: ['api.internal'],
  });
  client = issueCertificate({
    subject: { commonName: 'http2-test-user' },
    keys: newKeyPair(),
    issuer,
    usage: 'client',
  });
  const tls = {
    cert: serving.certPem,
    key: serving.keyPem,
    ca: ca.certPem,
    requestCert: true,
    rejectUnauthorized: false,
  };
  h2Server = http2.createSecureServer({ ...tls, allowHTTP1: true }, handler as never);
  h1Server = https.createServer(tls, handler as never);
  for (const [name, server] of [
    ['h2', h2Server],
    ['h1', h1Server],
  ] as const) {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    ports[name] = (server.address() as AddressInfo).port;
  }
});

afterAll(async () => {
  h1Server.closeAllConnections();
  await new Promise((r) => h1Server.close(r));
  await new Promise((r) => h2Server.close(r));
});

function connection(port: number, opts: ConnectionOptions = {}): ApiConnection {
  const b64 = (pem: string): string => Buffer.from(pem).toString('base64');
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: 'c',
        server: `https://127.0.0.1:${port}`,
        caData: b64(ca.certPem),
        tlsServerName: 'api.internal',
        skipTLSVerify: false,
      },
    ],
    users: [{ name: 'u', certData: b64(client.certPem), keyData: b64(client.keyPem), token: 'the-token' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return new ApiConnection(kc, opts);
}

const until = async (what: string, cond: () => boolean, ms = 2_000): Promise<void> => {
  for (const end = performance.now() + ms; !cond(); await new Promise((r) => setTimeout(r, 10)))
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
};

const firstLine = (body: NodeJS.ReadableStream): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = '';
    body.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')));
    });
    body.on('error', reject);
  });

describe('streams over HTTP/2', () => {
  it('go over HTTP/2 where the server offers it, with the client certificate and the token, several on one connection', async () => {
    const conn = connection(ports.h2);
    try {
      const a = await conn.openStream({ path: '/stream/a' });
      const b = await conn.openStream({ path: '/stream/b' });
      expect([a.protocol, b.protocol, conn.streamProtocol]).toEqual(['h2', 'h2', 'h2']);
      expect(a.status).toBe(200);
      for (const s of [a, b])
        expect(JSON.parse(await firstLine(s.body))).toEqual({
          user: 'http2-test-user',
          auth: 'Bearer the-token',
          version: '2.0',
        });
      // A stream read to its end works too, and requests stay on HTTP/1.1.
      const once = await conn.openStream({ path: '/who' });
      expect(JSON.parse(await readBody(once.body))).toMatchObject({ version: '2.0' });
      expect(JSON.parse((await conn.request({ path: '/who' })).body)).toMatchObject({
        version: '1.1',
        user: 'http2-test-user',
      });
      a.body.destroy();
      b.body.destroy();
    } finally {
      conn.close();
    }
    await until('every stream closed', () => openRequestCount() === 0);
  });

  it('fall back to HTTP/1.1 when the server offers only that, or when HTTP/2 is turned off', async () => {
    for (const conn of [connection(ports.h1), connection(ports.h2, { http2: false })]) {
      try {
        const s = await conn.openStream({ path: '/stream' });
        expect(s.protocol).toBe('http/1.1');
        expect(conn.streamProtocol).toBe('http/1.1');
        expect(JSON.parse(await firstLine(s.body))).toEqual({
          user: 'http2-test-user',
          auth: 'Bearer the-token',
          version: '1.1',
        });
        s.body.destroy();
      } finally {
        conn.close();
      }
    }
    await until('every stream closed', () => openRequestCount() === 0);
  });

  it('a quiet healthy stream is pinged and kept; one whose connection is dropped silently fails with DeadConnectionError', async () => {
    const proxy = new StallingProxy(ports.h2);
    const port = await proxy.listen();
    const conn = connection(port, { http2Health: { readIdleMs: 100, pingTimeoutMs: 200 } });
    try {
      const s = await conn.openStream({ path: '/stream' });
      const failed = new Promise<unknown>((resolve) => s.body.on('error', resolve));
      await firstLine(s.body);
      await until('three PINGs answered', () => conn.http2PingsAnswered >= 3);
      expect(s.body.destroyed).toBe(false);

      const droppedAt = performance.now();
      proxy.blackhole();
      const err = await failed;
      expect(err).toBeInstanceOf(DeadConnectionError);
      expect(String((err as Error).message)).toMatch(/did not answer a PING within 200 ms/);
      // read idle + PING timeout, with room for a busy machine
      expect(performance.now() - droppedAt).toBeLessThan(1_500);
      // A new stream gets a new connection, which works.
      const again = await conn.openStream({ path: '/stream' });
      expect(JSON.parse(await firstLine(again.body))).toMatchObject({ version: '2.0' });
      again.body.destroy();
    } finally {
      conn.close();
      await proxy.close();
    }
    await until('every stream closed', () => openRequestCount() === 0);
  });

  it('a stream waiting for a TLS handshake the server never answers is cancelled by its signal', async () => {
    // Reads what comes (so it sees the client close) and answers nothing.
    const mute = net.createServer((socket) => socket.resume());
    await new Promise<void>((r) => mute.listen(0, '127.0.0.1', r));
    const conn = connection((mute.address() as AddressInfo).port);
    try {
      const ac = new AbortController();
      const pending = conn.openStream({ path: '/stream', signal: ac.signal }).catch((e: unknown) => e);
      setTimeout(() => ac.abort(new Error('given up')), 100);
      const started = performance.now();
      expect(String(await pending)).toMatch(/cancelled: given up/);
      expect(performance.now() - started).toBeLessThan(1_000);
    } finally {
      conn.close();
      await new Promise((r) => mute.close(r));
    }
  });
});
