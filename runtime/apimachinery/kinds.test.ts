import type { V1Deployment, V1Pod } from '@kubernetes/client-node';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { controllerFor } from '../builder/index.js';
import type { Client, ObjectList } from '../client/index.js';
import type { ObjectMeta } from '../markers/index.js';
import { apiVersionOf, deploymentKind, jobKind, kindFor, podKind, type KubeObject } from './index.js';

/** A class shaped like a scaffolded API type: no index signature, so it is not a KubeObject. */
class Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: { size?: number };
}
const widgetKind = kindFor<Widget>({ group: 'demo.tsop.dev', version: 'v1', kind: 'Widget' });

describe('typed kinds', () => {
  it('are plain GVKs at run time', () => {
    expect(podKind).toEqual({ group: '', version: 'v1', kind: 'Pod' });
    expect(apiVersionOf(deploymentKind)).toBe('apps/v1');
    expect(apiVersionOf(jobKind)).toBe('batch/v1');
    expect(Object.keys(widgetKind)).toEqual(['group', 'version', 'kind']);
  });

  it('type what the client reads, with no type argument or intersection', () => {
    // Only type-checked: the function is never called.
    const reads = (client: Client) => ({
      widget: client.get(widgetKind, { namespace: 'ns', name: 'w' }),
      pod: client.get(podKind, { namespace: 'ns', name: 'p' }),
      deployments: client.list(deploymentKind),
      loose: client.get({ apiVersion: 'v1', kind: 'ConfigMap' }, { name: 'c' }),
    });
    type Reads = ReturnType<typeof reads>;
    expectTypeOf<Reads['widget']>().toEqualTypeOf<Promise<Widget>>();
    expectTypeOf<Reads['pod']>().toEqualTypeOf<Promise<V1Pod>>();
    expectTypeOf<Reads['deployments']>().toEqualTypeOf<Promise<ObjectList<V1Deployment>>>();
    expectTypeOf<Reads['loose']>().toEqualTypeOf<Promise<KubeObject>>();
    // Code written before typed kinds, with an explicit type argument, keeps compiling.
    type Legacy = Widget & { legacy?: true };
    const legacy = (client: Client) => client.get<Legacy>(widgetKind, { name: 'w' });
    expectTypeOf<ReturnType<typeof legacy>>().toEqualTypeOf<Promise<Legacy>>();
  });

  it('stand wherever a kind reference does (For, Owns)', () => {
    expectTypeOf(widgetKind).toExtend<Parameters<typeof controllerFor>[1]>();
    expectTypeOf(podKind).toExtend<Parameters<typeof controllerFor>[1]>();
  });
});
