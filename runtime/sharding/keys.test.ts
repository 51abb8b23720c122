import { describe, expect, it } from 'vitest';
import { controllerOwnerOf, followedOwner, ownKey } from './keys.js';

const main = new Map([
  ['fixtures.tsop.dev/Gizmo', { namespaced: true }],
  ['fixtures.tsop.dev/Cluster', { namespaced: false }],
]);
const ref = (kind: string, name: string, controller = true) => ({
  apiVersion: 'fixtures.tsop.dev/v1',
  kind,
  name,
  uid: `u-${name}`,
  controller,
});

describe('hash keys', () => {
  it('a reconciled object is hashed on its namespace/name, or its name when cluster-scoped', () => {
    expect(ownKey({ metadata: { namespace: 'ns', name: 'a' } })).toBe('ns/a');
    expect(ownKey({ metadata: { name: 'a' } })).toBe('a');
  });

  it('an owned object follows its controller owner when the owner is of a reconciled kind', () => {
    const dep = {
      metadata: { namespace: 'ns', name: 'a-web', ownerReferences: [ref('Gizmo', 'other', false), ref('Gizmo', 'a')] },
    };
    expect(followedOwner(dep, main)).toEqual({
      groupKind: 'fixtures.tsop.dev/Gizmo',
      name: 'a',
      uid: 'u-a',
      key: 'ns/a',
    });
    // A cluster-scoped owner is keyed by its name alone.
    expect(
      followedOwner({ metadata: { namespace: 'ns', name: 'x', ownerReferences: [ref('Cluster', 'c1')] } }, main)?.key,
    ).toBe('c1');
    // No controller owner, or one of a kind the ring does not reconcile: no shard.
    expect(
      followedOwner({ metadata: { namespace: 'ns', name: 'x', ownerReferences: [ref('Gizmo', 'a', false)] } }, main),
    ).toBeUndefined();
    expect(
      followedOwner({ metadata: { namespace: 'ns', name: 'x', ownerReferences: [ref('Widget', 'w')] } }, main),
    ).toBeUndefined();
    expect(
      controllerOwnerOf({
        metadata: { ownerReferences: [{ apiVersion: 'a/b/c', kind: 'K', name: 'n', uid: 'u', controller: true }] },
      }),
    ).toBeUndefined();
  });
});
