import { describe, expect, it } from 'vitest';
import { rewriteClientConfig, withConversionWebhooks, type WebhookServing } from './webhooks.js';

describe('rewriteClientConfig', () => {
  it('points each webhook at the local server, keeping its path, with the CA as caBundle', () => {
    const config = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'validating-webhook-configuration', namespace: 'system', resourceVersion: '7' },
      webhooks: [
        {
          name: 'va.kb.io',
          clientConfig: { service: { name: 'webhook-service', namespace: 'system', path: '/validate-a' } },
          sideEffects: 'None',
        },
        { name: 'vb.kb.io', clientConfig: { url: 'https://elsewhere:443/validate-b?x=1' } },
      ],
    };
    const out = rewriteClientConfig(config, 'https://127.0.0.1:9443', 'Q0E=');
    expect(out['metadata']).toEqual({ name: 'validating-webhook-configuration' });
    expect(out['webhooks']).toEqual([
      {
        name: 'va.kb.io',
        clientConfig: { url: 'https://127.0.0.1:9443/validate-a', caBundle: 'Q0E=' },
        sideEffects: 'None',
      },
      { name: 'vb.kb.io', clientConfig: { url: 'https://127.0.0.1:9443/validate-b', caBundle: 'Q0E=' } },
    ]);
    // The input is left as it was.
    expect(config.webhooks[0]?.clientConfig).toHaveProperty('service');
  });
});

describe('withConversionWebhooks', () => {
  const serving: WebhookServing = {
    host: '127.0.0.1',
    port: 9443,
    certDir: '/tmp/x',
    caPem: '',
    base: 'https://127.0.0.1:9443',
    caBundle: 'Q0E=',
  };
  const crd = (name: string, conversion?: object) => ({
    metadata: { name },
    spec: { group: 'g', ...(conversion ? { conversion } : {}) },
  });

  it('writes the conversion webhook into the named CRDs before they are created, and leaves the others', () => {
    const service = { strategy: 'Webhook', webhook: { clientConfig: { service: { name: 's', namespace: 'n' } } } };
    const crds = [crd('a.g', service), crd('b.g')];
    const out = withConversionWebhooks(crds, { conversionCRDs: ['a.g'] }, serving);
    expect(out[0]?.spec).toEqual({
      group: 'g',
      conversion: {
        strategy: 'Webhook',
        webhook: {
          conversionReviewVersions: ['v1'],
          clientConfig: { url: 'https://127.0.0.1:9443/convert', caBundle: 'Q0E=' },
        },
      },
    });
    expect(out[1]).toBe(crds[1]);
    // The CRDs read from disk are left as they were.
    expect(crds[0]?.spec).toEqual({ group: 'g', conversion: service });
  });
});
