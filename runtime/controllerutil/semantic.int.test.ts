/**
 * createOrUpdate / createOrPatch against a real API server, which stores quantities
 * canonically: a mutate that sets '1000m' CPU and '1024Mi' memory reads back as '1' and '1Gi',
 * and the next reconcile must find nothing to write.
 */
import type { V1Deployment } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { createOrPatch, createOrUpdate } from './index.js';

describeWithControlPlane('controllerutil: quantities compared by value', { shared: true }, (env) => {
  const resources = { limits: { cpu: '1000m', memory: '1024Mi' }, requests: { cpu: '500m', memory: '0.5Gi' } };
  // As a reconciler writes it: set the fields it owns, keep what the server defaulted.
  const desired = (d: V1Deployment): void => {
    const live = d.spec?.template.spec?.containers[0];
    if (live) {
      live.resources = structuredClone(resources);
      return;
    }
    d.spec = {
      selector: { matchLabels: { app: 'q' } },
      template: {
        metadata: { labels: { app: 'q' } },
        spec: { containers: [{ name: 'app', image: 'busybox', resources: structuredClone(resources) }] },
      },
    };
  };
  const fresh = (name: string): V1Deployment => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: env.namespace },
  });

  it('createOrUpdate and createOrPatch leave an object unchanged when only the quantity notation differs', async () => {
    const c = createClient(env.cp.kubeConfig, { fieldOwner: 'tsop-test' });
    expect(await createOrUpdate(c, fresh('quantities'), desired)).toBe('created');
    const stored = await c.get<V1Deployment>(
      { apiVersion: 'apps/v1', kind: 'Deployment' },
      { namespace: env.namespace, name: 'quantities' },
    );
    // The server canonicalised what was sent…
    expect(stored.spec?.template.spec?.containers[0]?.resources?.limits).toEqual({ cpu: '1', memory: '1Gi' });
    // …so only a semantic comparison sees that nothing needs writing.
    expect(await createOrUpdate(c, fresh('quantities'), desired)).toBe('unchanged');
    expect(await createOrPatch(c, fresh('quantities'), desired)).toBe('unchanged');
    const after = await c.get<V1Deployment>(
      { apiVersion: 'apps/v1', kind: 'Deployment' },
      { namespace: env.namespace, name: 'quantities' },
    );
    expect(after.metadata?.resourceVersion).toBe(stored.metadata?.resourceVersion);
    // A real change is still written.
    const bigger = (d: V1Deployment): void => {
      desired(d);
      d.spec!.template.spec!.containers[0]!.resources!.limits!['cpu'] = '2';
    };
    expect(await createOrUpdate(c, fresh('quantities'), bigger)).toBe('updated');
  });
});
