import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import type { Request } from '../reconcile/index.js';
import { enqueueForObject, enqueueForOwner, enqueueFromMapFunc, handlerFuncs, type RequestSink } from './index.js';

function sink(): RequestSink & { reqs: Request[] } {
  const reqs: Request[] = [];
  return { reqs, add: (r) => reqs.push(r) };
}

const owned = (refs: Array<Record<string, unknown>>, namespace = 'ns'): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'child', namespace, ownerReferences: refs as never },
});
const ref = (o: Record<string, unknown>) => ({ apiVersion: 'demo.tsop.dev/v1', kind: 'Widget', uid: 'u', ...o });

describe('enqueueForObject', () => {
  it('requests the object itself, namespaced or not', () => {
    const q = sink();
    const h = enqueueForObject();
    h.create({ object: { metadata: { name: 'a', namespace: 'n' } } }, q);
    h.update({ objectOld: { metadata: { name: 'b' } }, objectNew: { metadata: { name: 'b' } } }, q);
    h.delete({ object: { metadata: { name: 'c', namespace: 'n' } } }, q);
    h.generic({ object: {} }, q); // no name: nothing to request
    expect(q.reqs).toEqual([{ namespace: 'n', name: 'a' }, { name: 'b' }, { namespace: 'n', name: 'c' }]);
  });
});

describe('enqueueForOwner', () => {
  const owner = { apiVersion: 'demo.tsop.dev/v1', kind: 'Widget' };

  it('maps to the controller owner of the given group and kind, ignoring version', () => {
    const q = sink();
    enqueueForOwner(owner).create(
      {
        object: owned([
          ref({ name: 'w1', apiVersion: 'demo.tsop.dev/v2', controller: true }),
          ref({ name: 'not-controller' }),
          ref({ name: 'other-group', apiVersion: 'other.dev/v1', controller: true }),
          ref({ name: 'other-kind', kind: 'Gadget', controller: true }),
        ]),
      },
      q,
    );
    expect(q.reqs).toEqual([{ namespace: 'ns', name: 'w1' }]);
  });

  it('follows every matching owner when onlyControllerOwner is false', () => {
    const q = sink();
    enqueueForOwner(owner, { onlyControllerOwner: false }).delete(
      { object: owned([ref({ name: 'a', controller: true }), ref({ name: 'b' })]) },
      q,
    );
    expect(q.reqs.map((r) => r.name)).toEqual(['a', 'b']);
  });

  it('maps both sides of an update, so a moved owner reference reaches the old owner too', () => {
    const q = sink();
    enqueueForOwner(owner).update(
      {
        objectOld: owned([ref({ name: 'old', controller: true })]),
        objectNew: owned([ref({ name: 'new', controller: true })]),
      },
      q,
    );
    expect(q.reqs.map((r) => r.name)).toEqual(['old', 'new']);
  });

  it('gives cluster-scoped owners no namespace', () => {
    const q = sink();
    enqueueForOwner(owner, { ownerNamespaced: false }).create(
      { object: owned([ref({ name: 'c', controller: true })]) },
      q,
    );
    expect(q.reqs).toEqual([{ name: 'c' }]);
  });

  it('matches core-group owners by an empty group', () => {
    const q = sink();
    enqueueForOwner({ apiVersion: 'v1', kind: 'ConfigMap' }).create(
      { object: owned([{ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'x', controller: true }]) },
      q,
    );
    expect(q.reqs).toEqual([{ namespace: 'ns', name: 'cm' }]);
  });
});

describe('enqueueFromMapFunc', () => {
  it('maps old and new objects on update and every object on other events', () => {
    const q = sink();
    const h = enqueueFromMapFunc((o) => [{ namespace: 'x', name: `for-${o.metadata?.name}` }]);
    h.create({ object: { metadata: { name: 'a' } } }, q);
    h.update({ objectOld: { metadata: { name: 'b' } }, objectNew: { metadata: { name: 'c' } } }, q);
    h.generic({ object: { metadata: { name: 'd' } } }, q);
    expect(q.reqs.map((r) => r.name)).toEqual(['for-a', 'for-b', 'for-c', 'for-d']);
  });
});

describe('handlerFuncs', () => {
  it('calls only the functions given', () => {
    const q = sink();
    const h = handlerFuncs({ delete: (e, s) => s.add({ name: `gone-${e.object.metadata?.name}` }) });
    h.create({ object: { metadata: { name: 'a' } } }, q);
    h.delete({ object: { metadata: { name: 'a' } } }, q);
    expect(q.reqs).toEqual([{ name: 'gone-a' }]);
  });
});
