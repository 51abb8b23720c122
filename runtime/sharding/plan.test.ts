import { describe, expect, it } from 'vitest';
import { decideMain, goneShards, movePatch, planPass, type MainObject, type OwnedObject } from './plan.js';

const GIZMO = { group: 'fixtures.tsop.dev', version: 'v1', kind: 'Gizmo' };
const DEPLOYMENT = { group: 'apps', version: 'v1', kind: 'Deployment' };
const live = new Set(['a', 'b']);
const none = new Set<string>();
const reapedDead = new Set(['dead']);

function gizmo(name: string, shard?: string, drain?: string): MainObject {
  return {
    gvk: GIZMO,
    namespace: 'ns',
    name,
    uid: `uid-${name}`,
    resourceVersion: '7',
    shard,
    drain,
    hashKey: `ns/${name}`,
  };
}

function deployment(name: string, owner: string, shard?: string): OwnedObject {
  return {
    gvk: DEPLOYMENT,
    namespace: 'ns',
    name,
    uid: `d-${name}`,
    resourceVersion: '9',
    shard,
    owner: { groupKind: 'fixtures.tsop.dev/Gizmo', uid: `uid-${owner}`, key: `ns/${owner}` },
  };
}

describe('decideMain', () => {
  it('assigns an object without a shard, and moves one whose shard is gone once the assigner holds that shard’s Lease', () => {
    expect(decideMain({}, 'a', live, none)).toEqual({ mode: 'assign', to: 'a' });
    expect(decideMain({ shard: 'dead' }, 'a', live, reapedDead)).toEqual({ mode: 'reassign', from: 'dead', to: 'a' });
    // A drain toward a shard that is gone is dropped with the move.
    expect(decideMain({ shard: 'dead', drain: 'b' }, 'a', live, reapedDead)).toEqual({
      mode: 'reassign',
      from: 'dead',
      to: 'a',
    });
  });

  it('leaves the objects of a released or expired shard where they are while its Lease may still be taken (by a process of the same shard name)', () => {
    expect(decideMain({ shard: 'dead' }, 'a', live, none)).toBeUndefined();
    expect(decideMain({ shard: 'dead', drain: 'b' }, 'a', live, none)).toBeUndefined();
    // Holding some other gone shard's Lease moves nothing of this one.
    expect(decideMain({ shard: 'dead' }, 'a', live, new Set(['other']))).toBeUndefined();
  });

  it('never moves an object away from a live shard directly: it asks for a drain, once', () => {
    expect(decideMain({ shard: 'a' }, 'b', live, none)).toEqual({ mode: 'drain', from: 'a', to: 'b' });
    expect(decideMain({ shard: 'a', drain: 'b' }, 'b', live, none)).toBeUndefined();
    // The ring changed again while it drained: the drain is redirected.
    expect(decideMain({ shard: 'a', drain: 'c' }, 'b', live, none)).toEqual({ mode: 'drain', from: 'a', to: 'b' });
  });

  it('leaves a settled object alone, calls off a drain the ring no longer wants, and does nothing without a live shard', () => {
    expect(decideMain({ shard: 'a' }, 'a', live, none)).toBeUndefined();
    expect(decideMain({ shard: 'a', drain: 'b' }, 'a', live, none)).toEqual({ mode: 'undrain', shard: 'a' });
    expect(decideMain({}, undefined, new Set(), none)).toBeUndefined();
  });
});

describe('planPass', () => {
  it('moves owned objects after their owner, before the owners themselves', () => {
    const plan = planPass({
      shardFor: (k) => (k === 'ns/g1' ? 'b' : 'a'),
      live,
      reaped: reapedDead,
      main: [gizmo('g1', 'dead'), gizmo('g2', 'a'), gizmo('g3')],
      owned: [
        deployment('g1', 'g1', 'dead'),
        deployment('g2', 'g2', 'b'),
        deployment('g3', 'g3'),
        deployment('orphan', 'gone', 'a'),
      ],
    });
    expect(plan.main.map((p) => [p.obj.name, p.move])).toEqual([
      ['g1', { mode: 'reassign', from: 'dead', to: 'b' }],
      ['g3', { mode: 'assign', to: 'a' }],
    ]);
    expect(plan.owned.map((p) => [p.obj.name, p.move])).toEqual([
      ['g1', { mode: 'follow', from: 'dead', to: 'b' }],
      ['g2', { mode: 'follow', from: 'b', to: 'a' }],
      ['g3', { mode: 'follow', to: 'a' }],
    ]);
  });

  it('leaves what a draining owner owns to the shard that drains it', () => {
    const plan = planPass({
      shardFor: () => 'b',
      live,
      reaped: none,
      main: [gizmo('g1', 'a'), gizmo('g2', 'a', 'b')],
      owned: [deployment('g1', 'g1', 'b'), deployment('g2', 'g2')],
    });
    expect(plan.main.map((p) => p.move)).toEqual([{ mode: 'drain', from: 'a', to: 'b' }]);
    expect(plan.owned).toEqual([]);
  });

  it('keeps a gone shard’s objects, and what they own, in place until the assigner holds its Lease; names the gone shards to take', () => {
    const main = [gizmo('g1', 'dead'), gizmo('g2', 'a'), gizmo('g3', 'gone', 'b')];
    const owned = [deployment('g1', 'g1', 'dead'), deployment('g3', 'g3', 'gone')];
    const waiting = planPass({ shardFor: () => 'b', live, reaped: none, main, owned });
    expect(waiting.main.map((p) => [p.obj.name, p.move.mode])).toEqual([['g2', 'drain']]);
    expect(waiting.owned).toEqual([]);
    expect(goneShards(main, live)).toEqual(['dead', 'gone']);
    const taken = planPass({ shardFor: () => 'b', live, reaped: reapedDead, main, owned });
    expect(taken.main.map((p) => [p.obj.name, p.move])).toEqual([
      ['g1', { mode: 'reassign', from: 'dead', to: 'b' }],
      ['g2', { mode: 'drain', from: 'a', to: 'b' }],
    ]);
    expect(taken.owned.map((p) => [p.obj.name, p.move])).toEqual([['g1', { mode: 'follow', from: 'dead', to: 'b' }]]);
  });

  it('finds the owner by name when the owner reference carries no uid, and moves nothing without a live shard', () => {
    const d = deployment('x', 'g1', 'a');
    const noUid = { ...d, owner: { ...d.owner, uid: '' } };
    expect(
      planPass({ shardFor: () => 'b', live, reaped: none, main: [gizmo('g1', 'b')], owned: [noUid] }).owned.map(
        (p) => p.move,
      ),
    ).toEqual([{ mode: 'follow', from: 'a', to: 'b' }]);
    expect(
      planPass({ shardFor: () => undefined, live: new Set(), reaped: none, main: [gizmo('g1')], owned: [d] }),
    ).toEqual({ owned: [], main: [] });
  });
});

describe('movePatch', () => {
  it('writes the labels of each move, conditional on the version it was decided on', () => {
    const shard = 'shard.sharding.tsop.dev/r';
    const drain = 'drain.sharding.tsop.dev/r';
    expect(movePatch('r', { mode: 'assign', to: 'a' }, '5')).toEqual({
      metadata: { resourceVersion: '5', labels: { [shard]: 'a', [drain]: null } },
    });
    expect(movePatch('r', { mode: 'drain', from: 'a', to: 'b' }, '5')).toEqual({
      metadata: { resourceVersion: '5', labels: { [drain]: 'b' } },
    });
    expect(movePatch('r', { mode: 'undrain', shard: 'a' }, '5')).toEqual({
      metadata: { resourceVersion: '5', labels: { [drain]: null } },
    });
    expect(movePatch('r', { mode: 'follow', to: 'b' }, undefined)).toEqual({ metadata: { labels: { [shard]: 'b' } } });
  });
});
