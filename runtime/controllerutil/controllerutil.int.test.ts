import { fileURLToPath } from 'node:url';
import type { V1Deployment } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { createClient, ConflictError, type Client } from '../client/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import {
  addFinalizer,
  AlreadyOwnedError,
  createOrPatch,
  createOrUpdate,
  MutatedKeyError,
  removeFinalizer,
  setControllerReference,
} from './index.js';

const crds = fileURLToPath(new URL('../client/testdata/', import.meta.url));
const GADGET = { apiVersion: 'clienttest.tsop.dev/v1', kind: 'Gadget' } as const;
const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;

interface Gadget extends KubeObject {
  spec?: { size: number; color?: string };
  status?: { phase?: string; observedSize?: number };
}
interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

describeWithControlPlane(
  'controllerutil against the API server',
  { shared: true, crdDirectoryPaths: [crds] },
  (env) => {
    let seq = 0;
    const uniq = (p: string): string => `${p}-${++seq}`;
    const client = (): Client => createClient(env.cp.kubeConfig, { fieldOwner: 'tsop-test' });

    it('createOrUpdate: created, then unchanged, then updated; obj holds the server state', async () => {
      const c = client();
      const name = uniq('cm');
      const desired = (obj: ConfigMap): void => {
        obj.data = { ...obj.data, replicas: '3' };
      };
      const obj: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: env.namespace } };
      expect(await createOrUpdate(c, obj, desired)).toBe('created');
      expect(obj.metadata?.uid).toBeDefined();

      const again: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: env.namespace } };
      expect(await createOrUpdate(c, again, desired)).toBe('unchanged');
      expect(again.metadata?.resourceVersion).toBe(obj.metadata?.resourceVersion);

      // a closure over `third` works too, since it is filled in place before mutate runs
      const third: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: env.namespace } };
      expect(await createOrUpdate(c, third, () => void (third.data = { replicas: '4' }))).toBe('updated');
      expect(third.metadata?.resourceVersion).not.toBe(obj.metadata?.resourceVersion);
      expect((await c.get<ConfigMap>(CM, { namespace: env.namespace, name })).data).toEqual({ replicas: '4' });
    });

    it("client-node's typed models work as they are: a V1Deployment owned by a Gadget", async () => {
      const c = client();
      const owner = await c.create<Gadget>({
        ...GADGET,
        metadata: { name: uniq('owner'), namespace: env.namespace },
        spec: { size: 1 },
      });
      const name = uniq('dep');
      const desired =
        (replicas: number) =>
        (d: V1Deployment): void => {
          setControllerReference(owner, d);
          const labels = { app: name };
          // Set fields one by one: replacing spec wholesale would drop server defaults and never settle.
          d.spec ??= {
            selector: { matchLabels: labels },
            template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
          };
          d.spec.replicas = replicas;
        };
      const dep = (): V1Deployment => ({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name, namespace: env.namespace },
      });
      expect(await createOrUpdate(c, dep(), desired(2))).toBe('created');
      expect(await createOrUpdate(c, dep(), desired(2))).toBe('unchanged');
      const third = dep();
      expect(await createOrUpdate(c, third, desired(3))).toBe('updated');
      expect(third.spec?.replicas).toBe(3);
      expect(third.metadata?.ownerReferences?.[0]).toMatchObject({
        kind: 'Gadget',
        name: owner.metadata!.name,
        controller: true,
      });
    });

    it('createOrUpdate refuses a mutate that renames the object', async () => {
      const obj: ConfigMap = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: uniq('cm'), namespace: env.namespace },
      };
      await expect(createOrUpdate(client(), obj, (o) => void (o.metadata!.name = 'other'))).rejects.toBeInstanceOf(
        MutatedKeyError,
      );
    });

    it('createOrPatch reports created, updated, updatedStatus, updatedStatusOnly and unchanged', async () => {
      const c = client();
      const name = uniq('g');
      const fresh = (): Gadget => ({ ...GADGET, metadata: { name, namespace: env.namespace } });

      expect(await createOrPatch(c, fresh(), (g) => void (g.spec = { size: 1 }))).toBe('created');
      expect(await createOrPatch(c, fresh(), (g) => void (g.spec = { size: 1 }))).toBe('unchanged');
      expect(await createOrPatch(c, fresh(), (g) => void (g.spec = { size: 2 }))).toBe('updated');

      const both = fresh();
      const r = await createOrPatch(c, both, (g) => {
        g.spec = { size: 3, color: 'red' };
        g.status = { phase: 'Scaling', observedSize: 2 };
      });
      expect(r).toBe('updatedStatus');
      expect(both.spec).toEqual({ size: 3, color: 'red' });
      expect(both.status).toEqual({ phase: 'Scaling', observedSize: 2 });

      const statusOnly = fresh();
      expect(await createOrPatch(c, statusOnly, (g) => void (g.status = { ...g.status, observedSize: 3 }))).toBe(
        'updatedStatusOnly',
      );
      const live = await c.get<Gadget>(GADGET, { namespace: env.namespace, name });
      expect(live.spec).toEqual({ size: 3, color: 'red' });
      expect(live.status).toEqual({ phase: 'Scaling', observedSize: 3 });
      expect(live.metadata?.generation).toBe(3); // two spec changes after creation, status writes do not count
    });

    it('a status set by mutate on create is written through the status subresource too', async () => {
      const c = client();
      const name = uniq('g');
      const obj: Gadget = { ...GADGET, metadata: { name, namespace: env.namespace } };
      const r = await createOrPatch(c, obj, (g) => {
        g.spec = { size: 2 };
        g.status = { phase: 'Pending' };
      });
      expect(r).toBe('created');
      expect(obj.status).toEqual({ phase: 'Pending' });
      expect((await c.get<Gadget>(GADGET, { namespace: env.namespace, name })).status).toEqual({ phase: 'Pending' });
    });

    it('owner references set by setControllerReference are accepted by the server; a second controller is refused', async () => {
      const c = client();
      const owner = await c.create<Gadget>({
        ...GADGET,
        metadata: { name: uniq('owner'), namespace: env.namespace },
        spec: { size: 1 },
      });
      const other = await c.create<Gadget>({
        ...GADGET,
        metadata: { name: uniq('owner'), namespace: env.namespace },
        spec: { size: 1 },
      });
      const child: ConfigMap = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: uniq('child'), namespace: env.namespace },
      };
      setControllerReference(owner, child);
      const created = await c.create(child);
      expect(created.metadata?.ownerReferences).toEqual([
        {
          apiVersion: 'clienttest.tsop.dev/v1',
          kind: 'Gadget',
          name: owner.metadata!.name,
          uid: owner.metadata!.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      expect(() => setControllerReference(other, created)).toThrow(AlreadyOwnedError);
    });

    it('a finalizer keeps a deleted object until it is removed', async () => {
      const c = client();
      const obj: ConfigMap = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: uniq('fin'), namespace: env.namespace },
      };
      expect(addFinalizer(obj, 'tsop.dev/cleanup')).toBe(true);
      const created = await c.create(obj);
      await c.delete(created);
      const terminating = await c.get<ConfigMap>(CM, { namespace: env.namespace, name: obj.metadata!.name! });
      expect(terminating.metadata?.deletionTimestamp).toBeDefined();
      expect(removeFinalizer(terminating, 'tsop.dev/cleanup')).toBe(true);
      await c.update(terminating);
      await expect(c.get(CM, { namespace: env.namespace, name: obj.metadata!.name! })).rejects.toThrow(/not found/);
    });

    it('createOrUpdate over a stale cached read surfaces ConflictError for the reconciler to requeue', async () => {
      const c = client();
      const name = uniq('cm');
      const original = await c.create<ConfigMap>({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: env.namespace },
        data: { v: '1' },
      });
      await c.update({ ...original, data: { v: '2' } });
      // A reader that still serves the old version, as a lagging informer would.
      const lagging = createClient(env.cp.kubeConfig, {
        reader: {
          has: () => true,
          get<T extends KubeObject>(): T | undefined {
            return structuredClone(original) as unknown as T;
          },
          list: () => [],
        },
      });
      const err = await createOrUpdate(
        lagging,
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: env.namespace } },
        (o: ConfigMap) => {
          o.data = { v: '3' };
        },
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConflictError);
    });
  },
);
