/**
 * The webhook server on its own (no API server needed): certificates from a directory and
 * reloaded when they change, routing, and the answers to requests that are not reviews.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tls from 'node:tls';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { issueCertificate, newKeyPair } from '../certs/index.js';
import { rootLogger, silenceLogs } from '../log/index.js';
import { waitFor } from '../test-fixtures/helpers.js';
import { DuplicateWebhookPathError, WebhookServer } from './server.js';

silenceLogs();

function makeCA() {
  const keys = newKeyPair();
  const subject = { commonName: 'test-ca' };
  const ca = issueCertificate({ subject, keys, issuer: { subject, privateKey: keys.privateKey }, isCA: true });
  const leaf = () =>
    issueCertificate({
      subject: { commonName: 'localhost' },
      keys: newKeyPair(),
      issuer: { subject, privateKey: keys.privateKey },
      usage: 'server',
      ipAddresses: ['127.0.0.1'],
    });
  return { pem: ca.certPem, leaf };
}

function served(port: number, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = tls.connect({ host: '127.0.0.1', port, ca }, () => {
      resolve(createHash('sha256').update(s.getPeerCertificate().raw).digest('hex'));
      s.end();
    });
    s.on('error', reject);
  });
}

function post(
  port: number,
  ca: string,
  path: string,
  body: string,
  method = 'POST',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port, path, method, ca, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('WebhookServer', () => {
  let dir: string;
  let server: WebhookServer | undefined;
  const ca = makeCA();
  const write = (): void => {
    const l = ca.leaf();
    writeFileSync(join(dir, 'tls.crt'), l.certPem);
    writeFileSync(join(dir, 'tls.key'), l.keyPem);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tsop-webhook-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the certificate from certDir and picks up a replaced one', async () => {
    write();
    server = new WebhookServer(
      { host: '127.0.0.1', port: 0, certDir: dir },
      { logger: rootLogger(), registry: new Registry() },
    );
    server.register('/ok', async () => ({ status: 200, body: { ok: true } }));
    await server.listen();
    const port = server.port ?? 0;
    const first = await served(port, ca.pem);
    write();
    await waitFor('the new certificate to be served', async () => (await served(port, ca.pem)) !== first, 15_000, 100);
    expect((await post(port, ca.pem, '/ok', '{}')).body).toBe('{"ok":true}');
  });

  it('fails to start with one line naming the missing file', async () => {
    server = new WebhookServer({ port: 0, certDir: dir }, { logger: rootLogger(), registry: new Registry() });
    await expect(server.listen()).rejects.toThrow(`cannot read ${join(dir, 'tls.crt')}: ENOENT`);
  });

  it('answers 404 for unknown paths, 400 for GET, empty and non-JSON bodies, and refuses a path twice', async () => {
    write();
    server = new WebhookServer(
      { host: '127.0.0.1', port: 0, certDir: dir },
      { logger: rootLogger(), registry: new Registry() },
    );
    server.register('/validate-x', async () => ({ status: 200, body: {} }));
    expect(() => server?.register('/validate-x', async () => ({ status: 200, body: {} }))).toThrow(
      DuplicateWebhookPathError,
    );
    await server.listen();
    const port = server.port ?? 0;
    expect((await post(port, ca.pem, '/nope', '{}')).status).toBe(404);
    expect((await post(port, ca.pem, '/validate-x', '', 'GET')).status).toBe(400);
    expect(await post(port, ca.pem, '/validate-x', '')).toMatchObject({
      status: 400,
      body: expect.stringContaining('request body is empty'),
    });
    expect(await post(port, ca.pem, '/validate-x', 'not json')).toMatchObject({
      status: 400,
      body: expect.stringContaining('request body is not JSON'),
    });
    expect(server.startedChecker()).not.toThrow();
  });
});
