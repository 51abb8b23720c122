import { describe, expect, it } from 'vitest';
import { decideMain, movePatch, planPass, type MainObject, type OwnedObject } from './plan.js';

const GIZMO = { group: 'fixtures.tsop.dev', version: 'v1', kind: 'Gizmo' };
const DEPLOYMENT = { group: 'apps', version: 'v1', kind: 'Deployment' };
const live = new Set(['a', 'b']);

function gizmo(name: string, shard?: string, drain?: string): MainObject {
  return { gvk: GIZMO, namespace: 'ns', name, uid: `uid-${name}`, resourceVersion: '7', shard, drain, hashKey: `ns/${name}` };
}

function deployment(name: string, owner: string, shard?: string): OwnedObject {
  return { gvk: DEPLOYMENT, namespace: 'ns', name, uid: `d-${name}`, resourceVersion: '9', shard, owner: { groupKind: 'fixtures.tsop.dev/Gizmo', uid: `uid-${owner}`, key: `ns/${owner}` } };
}

describe('decideMain', () => {
  it('assigns an object without a shard, and moves one whose shard is gone at once', () => {
    expect(decideMain({}, 'a', live)).toEqual({ mode: 'assign', to: 'a' });
    expect(decideMain({ shard: 'dead' }, 'a', live)).toEqual({ mode: 'reassign', from: 'dead', to: 'a' });
    // A drain toward a shard that is gone is dropped with the move.
    expect(decideMain({ shard: 'dead', drain: 'b' }, 'a', live)).toEqual({ mode: 'reassign', from: 'dead', to: 'a' });
  });

  it('never moves an object away from a live shard directly: it asks for a drain, once', () => {
    expect(decideMain({ shard: 'a' }, 'b', live)).toEqual({ mode: 'drain', from: 'a', to: 'b' });
    expect(decideMain({ shard: 'a', drain: 'b' }, 'b', live)).toBeUndefined();
    // The ring changed again while it drained: the drain is redirected.
    expect(decideMain({ shard: 'a', drain: 'c' }, 'b', live)).toEqual({ mode: 'drain', from: 'a', to: 'b' });
  });

  it('leaves a settled object alone, calls off a drain the ring no longer wants, and does nothing without a live shard', () => {
    expect(decideMain({ shard: 'a' }, 'a', live)).toBeUndefined();
    expect(decideMain({ shard: 'a', drain: 'b' }, 'a', live)).toEqual({ mode: 'undrain', shard: 'a' });
    expect(decideMain({}, undefined, new Set())).toBeUndefined();
  });
});

describe('planPass', () => {
  it('moves owned objects after their owner, before the owners themselves', () => {
    const plan = planPass({
      shardFor: (k) => (k === 'ns/g1' ? 'b' : 'a'),
      live,
      main: [gizmo('g1', 'dead'), gizmo('g2', 'a'), gizmo('g3')],
      owned: [deployment('g1', 'g1', 'dead'), deployment('g2', 'g2', 'b'), deployment('g3', 'g3'), deployment('orphan', 'gone', 'a')],
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
      main: [gizmo('g1', 'a'), gizmo('g2', 'a', 'b')],
      owned: [deployment('g1', 'g1', 'b'), deployment('g2', 'g2')],
    });
    expect(plan.main.map((p) => p.move)).toEqual([{ mode: 'drain', from: 'a', to: 'b' }]);
    expect(plan.owned).toEqual([]);
  });

  it('finds the owner by name when the owner reference carries no uid, and moves nothing without a live shard', () => {
    const d = deployment('x', 'g1', 'a');
    const noUid = { ...d, owner: { ...d.owner, uid: '' } };
    expect(planPass({ shardFor: () => 'b', live, main: [gizmo('g1', 'b')], owned: [noUid] }).owned.map((p) => p.move)).toEqual([{ mode: 'follow', from: 'a', to: 'b' }]);
    expect(planPass({ shardFor: () => undefined, live: new Set(), main: [gizmo('g1')], owned: [d] })).toEqual({ owned: [], main: [] });
  });
});

describe('movePatch', () => {
  it('writes the labels of each move, conditional on the version it was decided on', () => {
    const shard = 'shard.sharding.tsop.dev/r';
    const drain = 'drain.sharding.tsop.dev/r';
    expect(movePatch('r', { mode: 'assign', to: 'a' }, '5')).toEqual({ metadata: { resourceVersion: '5', labels: { [shard]: 'a', [drain]: null } } });
    expect(movePatch('r', { mode: 'drain', from: 'a', to: 'b' }, '5')).toEqual({ metadata: { resourceVersion: '5', labels: { [drain]: 'b' } } });
    expect(movePatch('r', { mode: 'undrain', shard: 'a' }, '5')).toEqual({ metadata: { resourceVersion: '5', labels: { [drain]: null } } });
    expect(movePatch('r', { mode: 'follow', to: 'b' }, undefined)).toEqual({ metadata: { labels: { [shard]: 'b' } } });
  });
});
