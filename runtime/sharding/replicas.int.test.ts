/**
 * Sharding across replicas that are separate processes, three rounds of: three replicas split
 * the Gizmos; one is killed with SIGKILL in the middle of reconciling (a follower, then the
 * leader, then a follower) and its objects go to the others within the lease duration and a
 * few seconds; it comes back (as a new shard) and takes its share over by drain while
 * reconciles are in flight; all stop with SIGTERM. Every reconcile's start and end, printed by
 * each replica on the machine's monotonic clock, goes through the checker: no Gizmo is ever
 * reconciled by two replicas at once.
 */
import { afterEach, expect, it } from 'vitest';
import { createClient, mergePatch, type Client } from '../client/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { spawnManager, type ManagerChild } from '../test-fixtures/child.js';
import { DEPLOYMENT, GIZMO, type Gizmo } from '../test-fixtures/gizmo-reconciler.js';
import { CRD_DIR, createGizmos, httpGet, isConverged, metricValue, waitFor } from '../test-fixtures/helpers.js';
import { overlapping, reconcileIntervals, type ReconcileInterval } from '../test-fixtures/reconcile-checker.js';
import { HashRing } from './hash-ring.js';
import { drainLabel, shardLabel } from './names.js';

const LEASE_MS = 6_000;
const RETRY_MS = 1_000;
/** What a reassignment may take beyond the lease: the new leader's first poll, one pass, its writes, on two busy cores. */
const SLACK_MS = RETRY_MS + 5_000;
const COUNT = 45;

const mono = (): number => Number(process.hrtime.bigint() / 1000n);

describeWithControlPlane('sharding across replica processes', { shared: true, crdDirectoryPaths: [CRD_DIR] }, (env) => {
  const children: ManagerChild[] = [];
  afterEach(async () => {
    for (const c of children.splice(0)) {
      if (c.proc.exitCode === null && c.proc.signalCode === null) {
        c.kill('SIGKILL');
        await c.exited;
      }
    }
  });

  it('splits, survives SIGKILL of a follower and of the leader, takes a returning replica’s share back by drain, and never reconciles one object on two replicas at once (3 rounds)', async () => {
    const api = createClient(env.cp.kubeConfig);
    for (const [round, victimRole] of [
      [1, 'follower'],
      [2, 'leader'],
      [3, 'follower'],
    ] as const) {
      const ns = await env.newNamespace();
      await runRound(api, ns, `ring-${round}`, victimRole);
    }
  }, 420_000);

  async function runRound(api: Client, ns: string, ring: string, victimRole: 'leader' | 'follower'): Promise<void> {
    const SHARD = shardLabel(ring);
    const DRAIN = drainLabel(ring);
    const intervals: ReconcileInterval[] = [];
    const start = (name: string): ManagerChild => {
      const c = spawnManager(name, {
        KUBECONFIG_PATH: env.cp.kubeconfigPath,
        RING: ring,
        LEASE_ID: `${ring}-leader`,
        LEASE_NAMESPACE: env.namespace,
        LEASE_DURATION_MS: String(LEASE_MS),
        RENEW_DEADLINE_MS: '4000',
        RETRY_PERIOD_MS: String(RETRY_MS),
        RELEASE_ON_CANCEL: '1',
        NAMESPACE: ns,
        RECONCILE_DELAY_MS: '100',
        MAX_CONCURRENT: '4',
        METRICS_ADDR: ':0',
        LOG_LEVEL: 'warn',
      });
      children.push(c);
      return c;
    };
    const gizmos = async () => (await api.list<Gizmo>(GIZMO, { namespace: ns })).items;
    const converged = async (generation: number) =>
      (await gizmos()).every((g) => isConverged(g) && g.metadata?.generation === generation);
    /** Every Gizmo where the ring of `shards` wants it, no drain pending, each Deployment with its owner. */
    const settled = async (shards: string[]) => {
      const want = new HashRing(shards);
      const gs = await gizmos();
      if (
        gs.length !== COUNT ||
        !gs.every(
          (g) =>
            g.metadata?.labels?.[SHARD] === want.shardFor(`${ns}/${g.metadata!.name}`) && !g.metadata?.labels?.[DRAIN],
        )
      )
        return false;
      const owner = new Map(gs.map((g) => [g.metadata!.name, g.metadata!.labels![SHARD]]));
      const ds = (await api.list(DEPLOYMENT, { namespace: ns })).items;
      return ds.length === COUNT && ds.every((d) => d.metadata?.labels?.[SHARD] === owner.get(d.metadata!.name!));
    };
    /** What a wait that timed out found: each replica's state, and each Gizmo not where `shards` wants it or not converged. */
    const diagnose = async (shards: string[]): Promise<string> => {
      const want = new HashRing(shards);
      const lines = children.map(
        (c) =>
          `${c.name}: ${c.proc.exitCode !== null || c.proc.signalCode !== null ? `exited (${c.proc.exitCode ?? c.proc.signalCode})` : 'running'}, ` +
          `events ${[...new Set(c.events.map((e) => e.event))].join(',')}; stderr tail: ${c.stderr.slice(-3).join(' | ')}`,
      );
      for (const g of await gizmos()) {
        const name = `${ns}/${g.metadata!.name}`;
        const labels = g.metadata?.labels ?? {};
        if (labels[SHARD] !== want.shardFor(name) || labels[DRAIN] || !isConverged(g))
          lines.push(
            `${name}: shard ${labels[SHARD]} (ring: ${want.shardFor(name)}), drain ${labels[DRAIN]}, converged ${isConverged(g)}, generation ${g.metadata?.generation}`,
          );
      }
      return lines.join('\n');
    };
    /** waitFor, with what the ring looked like when it timed out. */
    const waitForRing = async (what: string, shards: string[], cond: () => Promise<boolean>, timeoutMs: number) => {
      try {
        await waitFor(what, cond, timeoutMs);
      } catch (err) {
        throw new Error(`${(err as Error).message}\n${await diagnose(shards)}`);
      }
    };
    const bump = (replicas: number) =>
      Promise.all(
        Array.from({ length: COUNT }, (_, i) => `g-${i}`).map((name) =>
          api.patch({ ...GIZMO, metadata: { name, namespace: ns } }, mergePatch({ spec: { replicas } })),
        ),
      );

    const replicas = ['a', 'b', 'c'].map(start);
    await Promise.all(replicas.map((r) => r.waitFor((e) => e.event === 'holding', 90_000)));
    await createGizmos(api, ns, 'g', COUNT);
    await waitForRing(
      'the Gizmos converged on three shards',
      ['a', 'b', 'c'],
      async () => (await settled(['a', 'b', 'c'])) && converged(1),
      90_000,
    );
    for (const r of replicas) expect(r.events.some((e) => e.event === 'start')).toBe(true);

    // Kill one replica while it is reconciling: a change to every Gizmo, and the kill at its first start.
    const leader = replicas.find((r) => r.events.some((e) => e.event === 'elected'))!;
    const victim = victimRole === 'leader' ? leader : replicas.find((r) => r !== leader)!;
    const survivors = replicas.filter((r) => r !== victim);
    const victims = (await gizmos())
      .filter((g) => g.metadata?.labels?.[SHARD] === victim.name)
      .map((g) => g.metadata!.name!);
    expect(victims.length).toBeGreaterThan(3);
    const bumpedAt = mono();
    await bump(2);
    await victim.waitFor((e) => e.event === 'start' && e.mono > bumpedAt, 30_000);
    const killedAt = mono();
    victim.kill('SIGKILL');
    await victim.exited;
    intervals.push(...reconcileIntervals(victim.name, victim.events, killedAt));
    expect(intervals.some((i) => i.end === killedAt)).toBe(true); // it died mid-reconcile
    const names = survivors.map((r) => r.name);
    await waitFor(
      `the ${victim.name} shard's Gizmos reassigned`,
      async () =>
        (await gizmos())
          .filter((g) => victims.includes(g.metadata!.name!))
          .every((g) => names.includes(g.metadata?.labels?.[SHARD] ?? '')),
      LEASE_MS + SLACK_MS + 5_000,
      100,
    );
    const reassignedMs = (mono() - killedAt) / 1000;
    console.info(
      `${ring}: ${victims.length} Gizmos of the killed ${victimRole} reassigned ${Math.round(reassignedMs)} ms after SIGKILL`,
    );
    expect(reassignedMs).toBeLessThanOrEqual(LEASE_MS + SLACK_MS);
    await waitForRing(
      'every Gizmo converged after the kill',
      names,
      async () => (await settled(names)) && converged(2),
      60_000,
    );

    // It comes back, as a new shard, while every Gizmo changes again: its share drains to it.
    const back = start(`${victim.name}2`);
    await back.waitFor((e) => e.event === 'holding', 90_000);
    await bump(3);
    const ring3 = [...names, back.name];
    await waitForRing(
      'the returning shard took its share over',
      ring3,
      async () => (await settled(ring3)) && converged(3),
      90_000,
    );
    const onBack = (await gizmos()).filter((g) => g.metadata?.labels?.[SHARD] === back.name).length;
    expect(onBack).toBeGreaterThan(3);
    let drained = 0;
    for (const r of survivors) {
      const port = r.events.find((e) => e.event === 'synced')!.metricsPort!;
      const text = (await httpGet(port, '/metrics')).body;
      drained +=
        metricValue(text, 'tsop_sharding_moves_total', {
          ring,
          kind: 'fixtures.tsop.dev/Gizmo',
          mode: 'drain',
          from: r.name,
          to: back.name,
        }) ?? 0;
    }
    // Every Gizmo it holds came by drain from a live shard, none was moved under its feet.
    expect(drained).toBe(onBack);

    for (const r of [...survivors, back]) r.kill('SIGTERM');
    for (const r of [...survivors, back]) {
      expect((await r.exited).code).toBe(0);
      intervals.push(...reconcileIntervals(r.name, r.events));
    }
    children.splice(0);
    expect(new Set(intervals.map((i) => i.replica))).toEqual(new Set([...replicas.map((r) => r.name), back.name]));
    expect(intervals.filter((i) => i.end === Infinity)).toEqual([]);
    expect(overlapping(intervals)).toEqual([]);
  }
});
