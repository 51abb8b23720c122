import { describe, expect, it } from 'vitest';
import { ShardedKinds } from './kinds.js';

const GIZMO = { group: 'fixtures.tsop.dev', version: 'v1', kind: 'Gizmo' };
const WIDGET = { group: 'fixtures.tsop.dev', version: 'v1', kind: 'Widget' };
const DEPLOYMENT = { group: 'apps', version: 'v1', kind: 'Deployment' };
const CONFIGMAP = { group: '', version: 'v1', kind: 'ConfigMap' };

describe('sharded kinds', () => {
  it('records each sharded controller’s For kind as reconciled and what it owns as owned; two controllers may share them', () => {
    const k = new ShardedKinds();
    expect(k.claim('gizmo', GIZMO, [DEPLOYMENT])).toEqual([]);
    expect(k.claim('gizmo-audit', GIZMO, [DEPLOYMENT])).toEqual([]);
    expect(k.reconciled().map((x) => x.gvk.kind)).toEqual(['Gizmo']);
    expect(k.owned().map((x) => [x.gvk.kind, x.controllers])).toEqual([['Deployment', ['gizmo', 'gizmo-audit']]]);
    expect(k.get({ group: 'apps', kind: 'Deployment' })?.role).toBe('owned');
  });

  it('refuses a kind both reconciled and owned, and an unsharded controller on a sharded kind (and the reverse)', () => {
    const k = new ShardedKinds();
    k.claim('gizmo', GIZMO, [DEPLOYMENT]);
    expect(k.claim('widget', WIDGET, [GIZMO])).toEqual([
      expect.stringMatching(/^fixtures.tsop.dev\/v1\/Gizmo would be both reconciled and owned/),
    ]);
    expect(k.get(WIDGET)).toBeUndefined();
    expect(k.claimUnsharded('report', [CONFIGMAP, DEPLOYMENT])).toEqual([
      expect.stringMatching(
        /^apps\/v1\/Deployment is sharded \(by controller "gizmo"\).*controller "report" is not sharded/,
      ),
    ]);
    expect(k.claimUnsharded('report', [CONFIGMAP])).toEqual([]);
    expect(k.claim('cm', WIDGET, [CONFIGMAP])).toEqual([
      expect.stringMatching(/^v1\/ConfigMap is watched by controller "report", which is not sharded/),
    ]);
  });
});
