import { X509Certificate, createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { selfSignedServingCertificate } from './index.js';

describe('selfSignedServingCertificate', () => {
  it('signs itself, serves the loopback names, and lasts a year by default', () => {
    const c = selfSignedServingCertificate();
    const x = new X509Certificate(c.certPem);
    expect(x.subject).toBe('CN=localhost');
    expect(x.issuer).toBe('CN=localhost');
    expect(x.verify(x.publicKey)).toBe(true);
    expect(x.ca).toBe(false);
    expect(x.checkHost('localhost')).toBe('localhost');
    expect(x.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(x.checkIP('::1')).toBe('::1');
    expect(x.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(x.checkPrivateKey(createPrivateKey(c.keyPem))).toBe(true);
    const days = (new Date(x.validTo).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(366);
  });

  it('takes other names and lifetimes', () => {
    const x = new X509Certificate(
      selfSignedServingCertificate({
        commonName: 'svc',
        dnsNames: ['svc.ns.svc'],
        ipAddresses: ['10.0.0.7'],
        validForMs: 3_600_000,
      }).certPem,
    );
    expect(x.subject).toBe('CN=svc');
    expect(x.checkHost('svc.ns.svc')).toBe('svc.ns.svc');
    expect(x.checkHost('localhost')).toBeUndefined();
    expect(x.checkIP('10.0.0.7')).toBe('10.0.0.7');
    expect(new Date(x.validTo).getTime()).toBeLessThan(Date.now() + 2 * 3_600_000);
  });

  it('makes a new key every time', () => {
    expect(selfSignedServingCertificate().keyPem).not.toBe(selfSignedServingCertificate().keyPem);
  });
});
