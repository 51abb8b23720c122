import { Registry } from 'prom-client';
import { expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { createClient } from '../client/index.js';
import { createLogger } from '../log/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { waitFor } from '../test-fixtures/helpers.js';
import { createManager } from './index.js';

const CONFIGMAP = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
const SECRET = { apiVersion: 'v1', kind: 'Secret' } as const;

describeWithControlPlane('manager: cache limited by label', { shared: true }, (env) => {
  it("watches, reconciles and reads only the objects the kind's selector admits", async () => {
    const mgr = createManager({
      kubeConfig: env.cp.kubeConfig,
      metricsBindAddress: '0',
      registry: new Registry(),
      logger: createLogger({ level: 'silent' }),
      cache: { byObject: [{ gvk: { group: '', version: 'v1', kind: 'ConfigMap' }, labelSelector: 'app=mine' }] },
    });
    const reconciled = new Set<string>();
    controllerFor(mgr, CONFIGMAP).complete({ reconcile: async (req) => void reconciled.add(req.name) });
    // A second kind without a byObject entry keeps the default scope: everything.
    controllerFor(mgr, SECRET)
      .named('secrets')
      .complete({ reconcile: async () => {} });

    const client = createClient(env.cp.kubeConfig);
    const ac = new AbortController();
    const run = mgr.start(ac.signal);
    try {
      await client.create({
        ...CONFIGMAP,
        metadata: { name: 'mine', namespace: env.namespace, labels: { app: 'mine' } },
      });
      await client.create({
        ...CONFIGMAP,
        metadata: { name: 'theirs', namespace: env.namespace, labels: { app: 'theirs' } },
      });
      await client.create({ ...SECRET, metadata: { name: 'any-secret', namespace: env.namespace } });
      await waitFor('the labelled ConfigMap to be reconciled', () => reconciled.has('mine'));
      // The informer's watch carried the selector, so the other object never reached the cache.
      await waitFor(
        'the Secret to reach the cache',
        async () => (await mgr.client.list(SECRET, { namespace: env.namespace })).items.length === 1,
      );
      const cached = (await mgr.client.list(CONFIGMAP, { namespace: env.namespace })).items;
      expect(cached.map((o) => o.metadata?.name)).toEqual(['mine']);
      expect(reconciled.has('theirs')).toBe(false);
      expect(
        (await client.list(CONFIGMAP, { namespace: env.namespace })).items.map((o) => o.metadata?.name).sort(),
      ).toEqual(['mine', 'theirs']);
    } finally {
      ac.abort();
      await run;
    }
  });
});
