import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { createLogger } from '../log/index.js';
import { createManager } from '../manager/index.js';
import { deploymentKind, kindFor, KindRegistry, podKind, UnknownKindError } from './index.js';

const widgetV1 = kindFor<{ spec?: { size?: number } }>({ group: 'demo.tsop.dev', version: 'v1', kind: 'Widget' });
const widgetV2 = { group: 'demo.tsop.dev', version: 'v2', kind: 'Widget' };

describe('KindRegistry', () => {
  it('knows the built-in kinds from the start, and nothing else', () => {
    const kinds = new KindRegistry();
    expect(kinds.has(podKind)).toBe(true);
    expect(kinds.forApiVersion('apps/v1', 'Deployment')).toEqual(deploymentKind);
    expect(kinds.has(widgetV1)).toBe(false);
    expect(kinds.get(widgetV1)).toBeUndefined();
    expect(new KindRegistry([]).all()).toEqual([]);
  });

  it('adds a kind once and returns it, and lists kinds sorted', () => {
    const kinds = new KindRegistry([]);
    expect(kinds.add(widgetV1)).toBe(widgetV1);
    kinds.add({ ...widgetV1 });
    kinds.add(widgetV2);
    kinds.add(podKind);
    expect(kinds.all()).toEqual([widgetV1, widgetV2, podKind]);
    expect(kinds.versionsOf({ group: 'demo.tsop.dev', kind: 'Widget' })).toEqual(['v1', 'v2']);
  });

  it('finds the kind of an owner reference or an object', () => {
    const kinds = new KindRegistry();
    kinds.add(widgetV1);
    const ref = { apiVersion: 'demo.tsop.dev/v1', kind: 'Widget', name: 'w', uid: '1' };
    expect(kinds.forApiVersion(ref.apiVersion, ref.kind)).toEqual(widgetV1);
    expect(kinds.of({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } })).toEqual(podKind);
  });

  it('says what to do about a kind it does not know', () => {
    const kinds = new KindRegistry();
    expect(() => kinds.forApiVersion('demo.tsop.dev/v2', 'Widget')).toThrow(UnknownKindError);
    expect(() => kinds.of({ apiVersion: 'demo.tsop.dev/v2', kind: 'Widget' })).toThrow(
      /^kind Widget \(demo\.tsop\.dev\/v2\) is not registered with this manager: .*mgr\.kinds\.add/,
    );
    expect(() => kinds.add({ group: 'x', version: '', kind: 'Y' })).toThrow(/kind and version are required/);
  });

  it('hands out copies, so a caller cannot change what it knows', () => {
    const kinds = new KindRegistry([widgetV1]);
    const got = kinds.get(widgetV1)!;
    got.version = 'v9';
    expect(kinds.has({ ...widgetV1, version: 'v9' })).toBe(false);
    expect(kinds.has(widgetV1)).toBe(true);
  });
});

describe('mgr.kinds', () => {
  it('learns the kinds a controller reconciles, owns and watches when it is built', () => {
    // Built without contacting a server: complete() only registers.
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const mgr = createManager({
      kubeConfig: kc,
      metricsBindAddress: '0',
      registry: new Registry(),
      logger: createLogger({ level: 'silent' }),
    });
    const gadget = { group: 'demo.tsop.dev', version: 'v1', kind: 'Gadget' };
    expect(mgr.kinds.has(widgetV1)).toBe(false);
    controllerFor(mgr, widgetV1)
      .owns(gadget)
      .watches({ apiVersion: 'v1', kind: 'ConfigMap' }, () => [])
      .complete({ reconcile: async () => undefined });
    expect(mgr.kinds.has(widgetV1)).toBe(true);
    expect(mgr.kinds.forApiVersion('demo.tsop.dev/v1', 'Gadget')).toEqual(gadget);
    expect(mgr.kinds.has(podKind)).toBe(true);
  });
});
