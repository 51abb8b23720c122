import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../log/index.js';
import { createManager } from '../manager/index.js';
import { BuilderError, controllerFor } from './index.js';

// A manager is built without contacting any server; complete() only registers things.
function manager() {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return createManager({
    kubeConfig: kc,
    metricsBindAddress: '0',
    registry: new Registry(),
    logger: createLogger({ level: 'silent' }),
  });
}

const noop = { reconcile: async () => undefined };
const WIDGET = { apiVersion: 'demo.tsop.dev/v1', kind: 'Widget' };

describe('controllerFor(...).complete()', () => {
  it('names the controller after the kind and asks the cache for every watched kind', () => {
    const mgr = manager();
    const c = controllerFor(mgr, WIDGET)
      .owns({ apiVersion: 'apps/v1', kind: 'Deployment' })
      .watches({ apiVersion: 'v1', kind: 'ConfigMap' }, () => [])
      .withOptions({ maxConcurrentReconciles: 3 })
      .complete(noop);
    expect(c.name).toBe('widget');
    expect(c.maxConcurrentReconciles).toBe(3);
    expect(mgr.cache.has({ group: 'demo.tsop.dev', version: 'v1', kind: 'Widget' })).toBe(true);
    expect(mgr.cache.has({ group: 'apps', version: 'v1', kind: 'Deployment' })).toBe(true);
    expect(mgr.cache.has({ group: '', version: 'v1', kind: 'ConfigMap' })).toBe(true);
  });

  it('reports every problem at once, and only at complete()', () => {
    const mgr = manager();
    const b = controllerFor(mgr, { apiVersion: 'a/b/c', kind: 'Widget' })
      .named('has space')
      .owns({ apiVersion: '', kind: 'Deployment' })
      .withOptions({ maxConcurrentReconciles: 0 });
    let caught: unknown;
    try {
      b.complete(noop);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(BuilderError);
    const problems = (caught as BuilderError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/For: invalid apiVersion "a\/b\/c"/);
    expect(problems.join('\n')).toMatch(/owns\[0\]: invalid apiVersion ""/);
    expect(problems.join('\n')).toMatch(/name "has space"/);
    expect(problems.join('\n')).toMatch(/maxConcurrentReconciles must be a positive integer, got 0/);
    expect(mgr.cache.has({ group: 'apps', version: 'v1', kind: 'Deployment' })).toBe(false);
  });

  it('refuses a second controller with the same name on one manager, allows it on another', () => {
    const mgr = manager();
    controllerFor(mgr, WIDGET).complete(noop);
    expect(() => controllerFor(mgr, WIDGET).complete(noop)).toThrow(/a controller named "widget" already exists/);
    expect(controllerFor(mgr, WIDGET).named('widget-2').complete(noop).name).toBe('widget-2');
    expect(controllerFor(manager(), WIDGET).complete(noop).name).toBe('widget');
  });
});
