/**
 * Every @kubernetes/client-node model of an object (a class with apiVersion, kind and
 * metadata: V1Pod, V1Deployment, …) is accepted wherever the runtime takes an object — predicates,
 * handlers, the builder, the recorder, controllerutil, the cache, webhooks — with no cast and no
 * `& KubeObject`. The first test is the type checker's (npm test type-checks this file): it walks
 * every export of the package; the others run the same calls with a model type to show they work.
 */
import * as clientNode from '@kubernetes/client-node';
import type { V1Deployment, V1ObjectMeta, V1Pod, V1Secret } from '@kubernetes/client-node';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { controllerFor, type Builder } from '../builder/index.js';
import type { Cache } from '../cache/index.js';
import { createFakeClient } from '../client/fake/index.js';
import { addFinalizer, containsFinalizer, setControllerReference } from '../controllerutil/index.js';
import { ChannelSource } from '../controller/index.js';
import type { EventRecorder } from '../events/index.js';
import { enqueueFromMapFunc, handlerFuncs, requestFor, type RequestSink } from '../handler/index.js';
import { and, newPredicateFuncs, predicateFuncs, type Predicate } from '../predicate/index.js';
import type { Request } from '../reconcile/index.js';
import { ConversionRegistry, defaultingHandler, type CustomDefaulter, type Spoke } from '../webhook/index.js';
import { deploymentKind, gvkOf, KindRegistry, objectKey, podKind, type ClientObject } from './index.js';

type Exports = typeof clientNode;
/** The export names whose instances are objects: classes with a `metadata` of V1ObjectMeta. */
type ObjectModelNames = {
  [K in keyof Exports]: Exports[K] extends abstract new (
    ...args: never[]
  ) => infer I
    ? 'metadata' extends keyof I
      ? NonNullable<I['metadata' & keyof I]> extends V1ObjectMeta
        ? K
        : never
      : never
    : never;
}[keyof Exports];
type InstanceOf<K extends keyof Exports> = Exports[K] extends abstract new (...args: never[]) => infer I ? I : never;
/** The models the runtime would refuse; must be none. */
type Refused = { [K in ObjectModelNames]: InstanceOf<K> extends ClientObject ? never : K }[ObjectModelNames];

const pod: V1Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-0', namespace: 'shop', labels: { app: 'web' } },
  spec: { containers: [{ name: 'web', image: 'nginx' }] },
};
const deployment: V1Deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', uid: 'uid-1' },
};

describe('client-node models are runtime objects', () => {
  it('every object model of @kubernetes/client-node satisfies ClientObject (type-checked over the whole package)', () => {
    expectTypeOf<Refused>().toEqualTypeOf<never>();
    // The walk finds the models (it would prove nothing over an empty set).
    expectTypeOf<
      'V1Pod' | 'V1Deployment' | 'V1CustomResourceDefinition' | 'EventsV1Event'
    >().toExtend<ObjectModelNames>();
    // What the checker walked, counted at run time: every class whose attribute map has a V1ObjectMeta metadata.
    const models = Object.entries(clientNode).filter(([, v]) => {
      const attrs = (v as { attributeTypeMap?: Array<{ name: string; type: string }> }).attributeTypeMap;
      return Array.isArray(attrs) && attrs.some((a) => a.name === 'metadata' && a.type === 'V1ObjectMeta');
    });
    expect(models.length).toBeGreaterThan(50);
  });

  it('predicates, combined and alone, take a model type', () => {
    const running = predicateFuncs<V1Pod>({ update: (e) => e.objectNew.status?.phase === 'Running' });
    const labelled = newPredicateFuncs<V1Pod>((p) => p.metadata?.labels?.['app'] === 'web');
    const both: Predicate<V1Pod> = and(running, labelled);
    expect(both.create({ object: pod })).toBe(true);
    expect(both.update({ objectOld: pod, objectNew: { ...pod, status: { phase: 'Pending' } } })).toBe(false);
  });

  it('handlers and map functions take a model type; requestFor, objectKey and gvkOf take a model', () => {
    const seen: Request[] = [];
    const sink: RequestSink = { add: (r) => void seen.push(r) };
    handlerFuncs<V1Pod>({
      create: (e, q) =>
        q.add({ namespace: e.object.metadata?.namespace ?? '', name: e.object.spec?.containers[0]?.name ?? '' }),
    }).create({ object: pod }, sink);
    enqueueFromMapFunc<V1Pod>((p) => [{ name: p.metadata?.labels?.['app'] ?? '' }]).create({ object: pod }, sink);
    expect(seen).toEqual([{ namespace: 'shop', name: 'web' }, { name: 'web' }]);
    expect(requestFor(pod)).toEqual({ namespace: 'shop', name: 'web-0' });
    expect(objectKey(pod)).toEqual({ namespace: 'shop', name: 'web-0' });
    expect(gvkOf(deployment)).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
    expect(new KindRegistry().of(pod)).toEqual(podKind);
  });

  it('controllerutil, the channel source and the fake client take models', async () => {
    const owned: V1Pod = structuredClone(pod);
    setControllerReference(deployment, owned);
    expect(owned.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'Deployment',
      name: 'web',
      uid: 'uid-1',
      controller: true,
    });
    expect(addFinalizer(owned, 'example.com/cleanup')).toBe(true);
    expect(containsFinalizer(owned, 'example.com/cleanup')).toBe(true);
    new ChannelSource('pods').push(owned);
    const client = createFakeClient({ objects: [deployment] });
    const got: V1Deployment = await client.get(deploymentKind, { namespace: 'shop', name: 'web' });
    expect(got.metadata?.name).toBe('web');
  });

  it('the builder, recorder, cache and webhooks accept model types in their signatures', () => {
    // Checked by the type checker only: these need a manager, a cluster or a server to run.
    expectTypeOf<Parameters<EventRecorder['event']>[0]>().toEqualTypeOf<ClientObject>();
    expectTypeOf<V1Secret>().toExtend<Parameters<EventRecorder['event']>[0]>();
    expectTypeOf<Cache['get']>().toBeCallableWith<[typeof podKind, { namespace: string; name: string }]>(podKind, {
      namespace: 'shop',
      name: 'web-0',
    });
    expectTypeOf(controllerFor).toBeCallableWith(undefined as never, podKind, predicateFuncs<V1Pod>({}));
    expectTypeOf<Builder['withEventFilter']>().toBeCallableWith(newPredicateFuncs<V1Deployment>(() => true));
    class PodDefaulter implements CustomDefaulter<V1Pod> {
      default(p: V1Pod): void {
        p.metadata ??= {};
      }
    }
    expect(typeof defaultingHandler(new PodDefaulter())).toBe('function');
  });

  it('conversion takes converters typed with model types', () => {
    const spoke: Spoke<V1Deployment, V1Deployment> = {
      kind: { group: 'apps', version: 'v1beta1', kind: 'Deployment' },
      convertTo: (from, hub) => void (hub.spec = from.spec),
      convertFrom: (hub, to) => void (to.spec = hub.spec),
    };
    const registry = new ConversionRegistry();
    registry.add({ hub: deploymentKind, spokes: [spoke] });
    const converted = registry.convert({ ...deployment, apiVersion: 'apps/v1beta1', spec: { replicas: 2 } }, 'apps/v1');
    expect(converted).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 2 } });
  });
});
