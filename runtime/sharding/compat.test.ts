/**
 * Code written when the manager typed `mgr.sharding` as the Sharding class (tsop ≤ 0.2) compiles
 * unchanged wherever this module is compiled in: the manager's ShardingEngine gains the members it
 * lacks by declaration merging (sharding.ts). Checked by the type-check (`npm test` runs tsc).
 */
import { expectTypeOf, it } from 'vitest';
import type { Manager } from '../manager/index.js';
import type { ShardedKinds } from './kinds.js';
import type { ShardingMetrics } from './metrics.js';
import type { RingView } from './ring-view.js';
import type { RingDebugInfo, Sharding } from './sharding.js';

type Engine = NonNullable<Manager['sharding']>;

it("mgr.sharding keeps the Sharding class's kinds, view, metrics and full debug info", () => {
  expectTypeOf<Engine['kinds']>().toEqualTypeOf<ShardedKinds>();
  expectTypeOf<Engine['view']>().toEqualTypeOf<RingView>();
  expectTypeOf<Engine['metrics']>().toEqualTypeOf<ShardingMetrics>();
  expectTypeOf<ReturnType<Sharding['debugInfo']>>().toEqualTypeOf<RingDebugInfo>();
  expectTypeOf<ReturnType<Engine['debugInfo']>>().toMatchTypeOf<RingDebugInfo>();
  // A Sharding is what the manager holds.
  expectTypeOf<Sharding>().toMatchTypeOf<Engine>();
});
