import { describe, expect, it } from 'vitest';
import { rewriteClientConfig } from './webhooks.js';

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
