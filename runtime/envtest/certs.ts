/**
 * Certificates and keys for a throwaway control plane: a CA, a serving certificate for
 * 127.0.0.1/localhost, an admin client certificate in `system:masters`, and the service-account
 * signing key. ECDSA P-256 keeps generation instant.
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { bitString, boolean, explicit, implicit, integer, octetString, oid, sequence, set, time, utf8String } from './der.js';

export interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
}

export interface ControlPlaneCertificates {
  ca: IssuedCertificate;
  serving: IssuedCertificate;
  admin: IssuedCertificate;
  /** PEM private key (PKCS#8) that signs service-account tokens; its public half verifies them. */
  serviceAccountKeyPem: string;
  serviceAccountPublicKeyPem: string;
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

interface Subject {
  commonName: string;
  organizations?: string[];
}

interface CertificateRequest {
  subject: Subject;
  keys: KeyPair;
  issuer: { subject: Subject; privateKey: KeyObject };
  isCA?: boolean;
  usage?: 'server' | 'client';
  dnsNames?: string[];
  ipAddresses?: string[];
}

function newKeyPair(): KeyPair {
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
  exts.push(extension(OID.keyUsage, true, req.isCA ? Buffer.from([0x03, 0x02, 0x01, 0x84]) : Buffer.from([0x03, 0x02, 0x07, 0x80])));
  if (req.usage) {
    exts.push(extension(OID.extKeyUsage, false, sequence(oid(req.usage === 'server' ? OID.serverAuth : OID.clientAuth))));
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

function issue(req: CertificateRequest): IssuedCertificate {
  const now = Date.now();
  const algorithm = sequence(oid(OID.ecdsaWithSha256));
  const spki = req.keys.publicKey.export({ type: 'spki', format: 'der' });
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))), // X.509 v3
    integer(randomBytes(16)),
    algorithm,
    name(req.issuer.subject),
    sequence(time(new Date(now - 60 * 60 * 1000)), time(new Date(now + 7 * 24 * 60 * 60 * 1000))),
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

export function generateCertificates(): ControlPlaneCertificates {
  const caKeys = newKeyPair();
  const caSubject = { commonName: 'tsop-envtest-ca' };
  const issuer = { subject: caSubject, privateKey: caKeys.privateKey };
  const ca = issue({ subject: caSubject, keys: caKeys, issuer, isCA: true });
  const serving = issue({
    subject: { commonName: 'kube-apiserver' },
    keys: newKeyPair(),
    issuer,
    usage: 'server',
    dnsNames: ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'],
    ipAddresses: ['127.0.0.1', '::1', '10.0.0.1'],
  });
  const admin = issue({
    subject: { commonName: 'tsop-admin', organizations: ['system:masters'] },
    keys: newKeyPair(),
    issuer,
    usage: 'client',
  });
  const sa = newKeyPair();
  return {
    ca,
    serving,
    admin,
    serviceAccountKeyPem: sa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    serviceAccountPublicKeyPem: sa.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** For tests: parses a PEM key back, proving it is well-formed. */
export const parsePrivateKey = (pem: string): KeyObject => createPrivateKey(pem);
