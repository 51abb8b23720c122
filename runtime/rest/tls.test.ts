import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate, newKeyPair, type IssuedCertificate } from '../certs/index.js';
import { ApiConnection, TransportError } from './index.js';

// A loopback HTTPS server with its own CA, a serving certificate that names only `api.internal`
// (not 127.0.0.1), and client certificates requested: what the kubeconfig's TLS settings
// (certificate-authority, client certificate and key, tls-server-name, insecure-skip-tls-verify)
// must do on every request of the connection.
let server: https.Server;
let port: number;
let ca: IssuedCertificate;
let client: IssuedCertificate;
let otherCa: IssuedCertificate;

function authority(name: string): {
  cert: IssuedCertificate;
  issuer: { subject: { commonName: string }; privateKey: ReturnType<typeof newKeyPair>['privateKey'] };
} {
  const keys = newKeyPair();
  const subject = { commonName: name };
  const issuer = { subject, privateKey: keys.privateKey };
  return { cert: issueCertificate({ subject, keys, issuer, isCA: true }), issuer };
}

beforeAll(async () => {
  const root = authority('tls-test-ca');
  ca = root.cert;
  otherCa = authority('another-ca').cert;
  const serving = issueCertificate({
    subject: { commonName: 'api' },
    keys: newKeyPair(),
    issuer: root.issuer,
    usage: 'server',
    dnsNames: ['api.internal'],
  });
  client = issueCertificate({
    subject: { commonName: 'tls-test-user' },
    keys: newKeyPair(),
    issuer: root.issuer,
    usage: 'client',
  });
  server = https.createServer(
    { cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ user: peer?.subject?.CN ?? null, authorized: (req.socket as TLSSocket).authorized }));
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

interface ClusterTls {
  caData?: string;
  skipTLSVerify?: boolean;
  tlsServerName?: string;
}

function connection(cluster: ClusterTls, withClientCert = true): ApiConnection {
  const b64 = (pem: string): string => Buffer.from(pem).toString('base64');
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: 'c',
        server: `https://127.0.0.1:${port}`,
        skipTLSVerify: cluster.skipTLSVerify ?? false,
        caData: cluster.caData,
        tlsServerName: cluster.tlsServerName,
      },
    ],
    users: [withClientCert ? { name: 'u', certData: b64(client.certPem), keyData: b64(client.keyPem) } : { name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return new ApiConnection(kc);
}

async function whoAmI(conn: ApiConnection): Promise<{ user: string | null; authorized: boolean }> {
  try {
    const answer = await conn.request({ path: '/whoami' });
    return JSON.parse(answer.body) as { user: string | null; authorized: boolean };
  } finally {
    conn.close();
  }
}

describe('TLS settings of the kubeconfig', () => {
  it('trusts the given CA, checks the server against tls-server-name and presents the client certificate, on every request', async () => {
    const conn = connection({ caData: Buffer.from(ca.certPem).toString('base64'), tlsServerName: 'api.internal' });
    try {
      for (let i = 0; i < 3; i++)
        expect(JSON.parse((await conn.request({ path: `/whoami/${i}` })).body)).toEqual({
          user: 'tls-test-user',
          authorized: true,
        });
    } finally {
      conn.close();
    }
  });

  it('refuses a server whose certificate does not name the address when no tls-server-name is set', async () => {
    await expect(whoAmI(connection({ caData: Buffer.from(ca.certPem).toString('base64') }))).rejects.toThrow(
      TransportError,
    );
    await expect(whoAmI(connection({ caData: Buffer.from(ca.certPem).toString('base64') }))).rejects.toThrow(
      /127\.0\.0\.1|altnames|IP/,
    );
  });

  it('refuses a server signed by another CA', async () => {
    await expect(
      whoAmI(connection({ caData: Buffer.from(otherCa.certPem).toString('base64'), tlsServerName: 'api.internal' })),
    ).rejects.toThrow(/certificate/);
  });

  it('skips verification with insecure-skip-tls-verify, still presenting the client certificate', async () => {
    expect(await whoAmI(connection({ skipTLSVerify: true }))).toEqual({ user: 'tls-test-user', authorized: true });
  });

  it('presents no certificate when the user has none', async () => {
    expect(
      await whoAmI(
        connection({ caData: Buffer.from(ca.certPem).toString('base64'), tlsServerName: 'api.internal' }, false),
      ),
    ).toEqual({ user: null, authorized: false });
  });
});
