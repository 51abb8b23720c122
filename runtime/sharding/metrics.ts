/**
 * The ring's metrics, per shard: how many objects each replica holds (its cache of each sharded
 * kind), every label move (where it was written: assignments and moves by the assigner, drain
 * acknowledgements by the shard that let go), how long drains took on the shard that let go, the
 * shards alive as this replica sees the ring, and the assigner's passes.
 *
 *   tsop_sharding_objects{ring,shard,kind}            gauge
 *   tsop_sharding_moves_total{ring,kind,mode,from,to} counter; mode: assign, reassign, drain, follow
 *   tsop_sharding_drain_duration_seconds{ring,shard}  histogram; from seeing the drain label to acknowledging it
 *   tsop_sharding_shards{ring}                        gauge; live shards
 *   tsop_sharding_assigner_passes_total{ring}         counter
 */
import { Counter, Gauge, Histogram, type Registry } from '../metrics/prom.js';
import { registry as defaultRegistry } from '../metrics/index.js';

/** What one replica reports into the gauges at scrape time. */
export interface ShardingGaugeSource {
  ring: string;
  shard: string;
  /** Objects held per kind ('apps/v1/Deployment'). */
  objects(): Array<{ kind: string; count: number }>;
  liveShards(): number;
}

export class ShardingMetrics {
  readonly objects: Gauge<'ring' | 'shard' | 'kind'>;
  readonly shards: Gauge<'ring'>;
  readonly moves: Counter<'ring' | 'kind' | 'mode' | 'from' | 'to'>;
  readonly drainSeconds: Histogram<'ring' | 'shard'>;
  readonly passes: Counter<'ring'>;
  private readonly sources = new Set<ShardingGaugeSource>();

  constructor(reg: Registry) {
    const sources = this.sources;
    this.objects = new Gauge({
      name: 'tsop_sharding_objects',
      help: 'Objects of a sharded kind assigned to this replica (held in its cache)',
      labelNames: ['ring', 'shard', 'kind'] as const,
      registers: [reg],
      collect() {
        this.reset();
        for (const s of sources)
          for (const o of s.objects()) this.set({ ring: s.ring, shard: s.shard, kind: o.kind }, o.count);
      },
    });
    this.shards = new Gauge({
      name: 'tsop_sharding_shards',
      help: 'Shards alive in the ring, as this replica sees it',
      labelNames: ['ring'] as const,
      registers: [reg],
      collect() {
        this.reset();
        for (const s of sources) this.set({ ring: s.ring }, s.liveShards());
      },
    });
    this.moves = new Counter({
      name: 'tsop_sharding_moves_total',
      help: 'Shard labels written: assign (no shard before), reassign (its shard was gone), drain (acknowledged by the shard that let it go), follow (an owned object after its owner)',
      labelNames: ['ring', 'kind', 'mode', 'from', 'to'] as const,
      registers: [reg],
    });
    this.drainSeconds = new Histogram({
      name: 'tsop_sharding_drain_duration_seconds',
      help: 'From the moment this shard saw the drain label on an object to its acknowledgement (in-flight reconcile included)',
      labelNames: ['ring', 'shard'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [reg],
    });
    this.passes = new Counter({
      name: 'tsop_sharding_assigner_passes_total',
      help: "The assigner's passes over every sharded object",
      labelNames: ['ring'] as const,
      registers: [reg],
    });
  }

  /** Reports `source` in the gauges until the returned function is called. */
  addSource(source: ShardingGaugeSource): () => void {
    this.sources.add(source);
    return () => this.sources.delete(source);
  }
}

const byRegistry = new WeakMap<Registry, ShardingMetrics>();

/** The sharding metric families on `reg` (default: the process-wide registry), created on first use. */
export function shardingMetrics(reg: Registry = defaultRegistry): ShardingMetrics {
  let m = byRegistry.get(reg);
  if (!m) byRegistry.set(reg, (m = new ShardingMetrics(reg)));
  return m;
}
