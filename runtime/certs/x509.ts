/**
 * X.509 certificates from node:crypto keys and the DER encoders in der.ts: ECDSA P-256 keys
 * (generation is instant) and SHA-256 signatures. Enough for a test control plane's CA and
 * leaves, and for a server's self-signed serving certificate, without openssl.
 */
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import {
  bitString,
  boolean,
  explicit,
  implicit,
  integer,
  octetString,
  oid,
  sequence,
  set,
  time,
  utf8String,
} from './der.js';

export interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** A certificate and its private key, both PEM (the key as PKCS#8). */
export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
}

export interface Subject {
  commonName: string;
  organizations?: string[];
}

export interface CertificateRequest {
  subject: Subject;
  keys: KeyPair;
  /** Who signs: the subject itself (self-signed) or a CA. */
  issuer: { subject: Subject; privateKey: KeyObject };
  isCA?: boolean;
  usage?: 'server' | 'client';
  dnsNames?: string[];
  ipAddresses?: string[];
  /** How long from now the certificate is valid (default 7 days); it is valid from an hour ago. */
  validForMs?: number;
}

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

export function newKeyPair(): KeyPair {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' });
}

function name(subject: Subject): Buffer {
  const rdns = (subject.organizations ?? []).map((o) => set(sequence(oid(OID.organization), utf8String(o))));
  rdns.push(set(sequence(oid(OID.commonName), utf8String(subject.commonName))));
  return sequence(...rdns);
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return sequence(oid(id), ...(critical ? [boolean(true)] : []), octetString(value));
}

function ipBytes(ip: string): Buffer {
  if (ip.includes(':')) {
    const [head = '', tail = ''] = ip.split('::');
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    const groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
    return Buffer.from(groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]));
  }
  return Buffer.from(ip.split('.').map(Number));
}

function extensions(req: CertificateRequest): Buffer {
  const exts: Buffer[] = [extension(OID.basicConstraints, true, sequence(...(req.isCA ? [boolean(true)] : [])))];
  // keyUsage bits: digitalSignature (0) for leaves; keyCertSign (5) + digitalSignature for a CA.
  exts.push(
    extension(
      OID.keyUsage,
      true,
      req.isCA ? Buffer.from([0x03, 0x02, 0x01, 0x84]) : Buffer.from([0x03, 0x02, 0x07, 0x80]),
    ),
  );
  if (req.usage) {
    exts.push(
      extension(OID.extKeyUsage, false, sequence(oid(req.usage === 'server' ? OID.serverAuth : OID.clientAuth))),
    );
  }
  const altNames = [
    ...(req.dnsNames ?? []).map((d) => implicit(2, Buffer.from(d, 'ascii'))),
    ...(req.ipAddresses ?? []).map((ip) => implicit(7, ipBytes(ip))),
  ];
  if (altNames.length > 0) exts.push(extension(OID.subjectAltName, false, sequence(...altNames)));
  return explicit(3, sequence(...exts));
}

function toPem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** Builds and signs one certificate. */
export function issueCertificate(req: CertificateRequest): IssuedCertificate {
  const now = Date.now();
  const algorithm = sequence(oid(OID.ecdsaWithSha256));
  const spki = req.keys.publicKey.export({ type: 'spki', format: 'der' });
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))), // X.509 v3
    integer(randomBytes(16)),
    algorithm,
    name(req.issuer.subject),
    // An hour of slack before now tolerates clocks a little behind ours.
    sequence(time(new Date(now - 60 * 60 * 1000)), time(new Date(now + (req.validForMs ?? 7 * DAY_MS)))),
    name(req.subject),
    spki,
    extensions(req),
  );
  const signature = sign('sha256', tbs, req.issuer.privateKey);
  const der = sequence(tbs, algorithm, bitString(signature));
  return {
    certPem: toPem('CERTIFICATE', der),
    keyPem: req.keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

export interface SelfSignedOptions {
  /** Default 'localhost'. */
  commonName?: string;
  /** Default ['localhost']. */
  dnsNames?: string[];
  /** Default ['127.0.0.1', '::1']. */
  ipAddresses?: string[];
  /** Default one year, as client-go's self-signed serving certificates. */
  validForMs?: number;
}

/**
 * A self-signed serving certificate, for servers that must speak TLS before anyone has issued
 * them a certificate (controller-runtime's metrics server without a cert dir). Clients cannot
 * verify it against a CA; they pin it or skip verification.
 */
export function selfSignedServingCertificate(opts: SelfSignedOptions = {}): IssuedCertificate {
  const keys = newKeyPair();
  const subject = { commonName: opts.commonName ?? 'localhost' };
  return issueCertificate({
    subject,
    keys,
    issuer: { subject, privateKey: keys.privateKey },
    usage: 'server',
    dnsNames: opts.dnsNames ?? ['localhost'],
    ipAddresses: opts.ipAddresses ?? ['127.0.0.1', '::1'],
    validForMs: opts.validForMs ?? 365 * DAY_MS,
  });
}
