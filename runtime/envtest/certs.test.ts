import { X509Certificate, createPublicKey, createSign, createVerify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateCertificates, parsePrivateKey } from './certs.js';

describe('control-plane certificates', () => {
  const certs = generateCertificates();
  const ca = new X509Certificate(certs.ca.certPem);

  it('makes a self-signed CA', () => {
    expect(ca.ca).toBe(true);
    expect(ca.verify(ca.publicKey)).toBe(true);
  });

  it('makes a serving certificate for loopback names and addresses, signed by the CA', () => {
    const serving = new X509Certificate(certs.serving.certPem);
    expect(serving.ca).toBe(false);
    expect(serving.verify(ca.publicKey)).toBe(true);
    expect(serving.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(serving.checkHost('localhost')).toBe('localhost');
    expect(serving.subjectAltName).toContain('IP Address:0:0:0:0:0:0:0:1');
    expect(serving.keyUsage).toContain('1.3.6.1.5.5.7.3.1');
  });

  it('makes an admin client certificate in system:masters', () => {
    const admin = new X509Certificate(certs.admin.certPem);
    expect(admin.subject.split('\n')).toEqual(['O=system:masters', 'CN=tsop-admin']);
    expect(admin.verify(ca.publicKey)).toBe(true);
    expect(admin.keyUsage).toContain('1.3.6.1.5.5.7.3.2');
    expect(admin.checkPrivateKey(parsePrivateKey(certs.admin.keyPem))).toBe(true);
  });

  it('makes a service-account key pair whose halves match', () => {
    const signer = createSign('sha256').update('token');
    const signature = signer.sign(parsePrivateKey(certs.serviceAccountKeyPem));
    const verifier = createVerify('sha256').update('token');
    expect(verifier.verify(createPublicKey(certs.serviceAccountPublicKeyPem), signature)).toBe(true);
  });

  it('is valid from before now until at least a day from now', () => {
    const serving = new X509Certificate(certs.serving.certPem);
    expect(new Date(serving.validFrom).getTime()).toBeLessThan(Date.now());
    expect(new Date(serving.validTo).getTime()).toBeGreaterThan(Date.now() + 24 * 3600 * 1000);
  });
});
