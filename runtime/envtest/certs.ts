/**
 * Certificates and keys for a throwaway control plane: a CA, a serving certificate for
 * 127.0.0.1/localhost, an admin client certificate in `system:masters`, and the service-account
 * signing key. The X.509 encoding lives in the runtime's certs/ module.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { issueCertificate, newKeyPair, type IssuedCertificate } from '../certs/index.js';

export type { IssuedCertificate, KeyPair } from '../certs/index.js';

export interface ControlPlaneCertificates {
  ca: IssuedCertificate;
  serving: IssuedCertificate;
  admin: IssuedCertificate;
  /** PEM private key (PKCS#8) that signs service-account tokens; its public half verifies them. */
  serviceAccountKeyPem: string;
  serviceAccountPublicKeyPem: string;
}

export function generateCertificates(): ControlPlaneCertificates {
  const caKeys = newKeyPair();
  const caSubject = { commonName: 'tsop-envtest-ca' };
  const issuer = { subject: caSubject, privateKey: caKeys.privateKey };
  const ca = issueCertificate({ subject: caSubject, keys: caKeys, issuer, isCA: true });
  const serving = issueCertificate({
    subject: { commonName: 'kube-apiserver' },
    keys: newKeyPair(),
    issuer,
    usage: 'server',
    dnsNames: ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'],
    ipAddresses: ['127.0.0.1', '::1', '10.0.0.1'],
  });
  const admin = issueCertificate({
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
