/**
 * The assigner's hold on the Leases of gone shards. A shard whose Lease was released or has
 * expired has stopped reconciling, but its Lease can be taken again at any moment: by another
 * process given the same shard name (it waits for the Lease), or by the same shard restarted.
 * If the assigner moved the shard's objects straight to other shards, such a process could take
 * the Lease in the middle of the moves and reconcile objects their new shard reconciles too.
 *
 * So the assigner first takes the gone shard's Lease itself, by the same conditional write a
 * shard takes it with (created if it is missing, else written over the version it read): of the
 * assigner and a returning process exactly one gets it. While the assigner holds it, every
 * shard process sees a held Lease and waits, as it waits for any holder; the ring sees no live
 * shard (ring-view.ts). The assigner moves the objects only before its renew deadline, renews
 * the Lease on its next pass if objects are left, and deletes the Lease once none are, so a
 * returning process then takes the Lease after every move was written — and waits for its cache
 * to show them before it reconciles (fence.ts).
 *
 * A grace period after a release would not do instead: a returning process may be later than
 * any grace (a loaded machine runs timers late), and then the moves race it all the same.
 */
import { randomUUID } from 'node:crypto';
import { apiVersionOf } from '../apimachinery/model.js';
import { isAlreadyExists, isConflict, isNotFound, type Client } from '../client/index.js';
import { decide, observe, type LeaderElectionRecord } from '../leaderelection/index.js';
import type { Logger } from '../log/index.js';
import { realClock } from '../queue/index.js';
import { ASSIGNER_HOLDER_PREFIX, RING_LABEL, SHARD_NAME_LABEL, shardLeaseName } from './names.js';
import { LEASE_GVK, leaseRecord, type LeaseObject, type RingView } from './ring-view.js';

export interface ReaperOptions {
  ring: string;
  namespace: string;
  /** The manager's client (fenced with the leader lease). */
  client: Client;
  view: RingView;
  /** The ring's Lease timing: the assigner holds a gone shard's Lease as a shard holds its own. */
  leaseDurationMs: number;
  renewDeadlineMs: number;
  log: Logger;
}

interface Held {
  lease: LeaseObject;
  /** realClock time after which no move away from the shard is sent. */
  deadline: number;
}

export class ShardReaper {
  /** One identity per assigner run: a new leader's assigner waits out an old one's hold. */
  readonly identity = `${ASSIGNER_HOLDER_PREFIX}${randomUUID()}`;
  private readonly held = new Map<string, Held>();

  constructor(private readonly o: ReaperOptions) {}

  /**
   * Takes (or renews) the Lease of gone shard `shard`; true when this assigner holds it now. A
   * write that lost a race (the Lease changed, appeared or went since the read) reads again
   * once: the shard's own process deleting the Lease it released is such a race.
   */
  async take(shard: string, signal?: AbortSignal): Promise<boolean> {
    const outcome = await this.tryTake(shard, signal);
    if (outcome !== 'raced' || signal?.aborted) return outcome === 'held';
    return (await this.tryTake(shard, signal)) === 'held';
  }

  private async tryTake(shard: string, signal?: AbortSignal): Promise<'held' | 'not' | 'raced'> {
    const name = shardLeaseName(this.o.ring, shard);
    // Taken before the read, so the deadline is never later than the write others can see.
    const started = realClock.now();
    let current: LeaseObject | undefined;
    try {
      current = await this.o.client
        .apiReader()
        .get<LeaseObject>(LEASE_GVK, { namespace: this.o.namespace, name }, { signal });
    } catch (err) {
      if (!isNotFound(err)) return this.failed(shard, err, signal);
    }
    // Judged as a shard's elector judges it: released, expired by this process's observation of
    // that very record, or already this assigner's; a record the ring view has not seen is new.
    const record = current ? leaseRecord(current.spec) : undefined;
    const observation = record ? observe(this.o.view.observation(name), record, started) : undefined;
    const decision = decide({
      identity: this.identity,
      now: started,
      wallTime: Date.now(),
      leaseDurationSeconds: this.o.leaseDurationMs / 1000,
      current: observation,
    });
    if (decision.kind === 'held') {
      this.held.delete(shard);
      return 'not';
    }
    try {
      const spec = leaseSpec(decision.record);
      const written = current
        ? await this.o.client.update<LeaseObject>({ ...current, spec }, { signal })
        : await this.o.client.create<LeaseObject>(
            {
              apiVersion: apiVersionOf(LEASE_GVK),
              kind: LEASE_GVK.kind,
              metadata: {
                name,
                namespace: this.o.namespace,
                labels: { [RING_LABEL]: this.o.ring, [SHARD_NAME_LABEL]: shard },
              },
              spec,
            },
            { signal },
          );
      this.held.set(shard, { lease: written, deadline: started + this.o.renewDeadlineMs });
      return 'held';
    } catch (err) {
      // Taken, made or deleted by someone else since the read: the shard may be back.
      if (isConflict(err) || isNotFound(err) || isAlreadyExists(err)) {
        this.held.delete(shard);
        return 'raced';
      }
      return this.failed(shard, err, signal);
    }
  }

  /** Whether a move away from `shard` may be sent now: its Lease is held and the renew deadline has not passed. */
  holds(shard: string): boolean {
    const h = this.held.get(shard);
    return h !== undefined && realClock.now() < h.deadline;
  }

  /** The shards whose Lease this assigner holds (its deadline passed or not). */
  shards(): string[] {
    return [...this.held.keys()];
  }

  /**
   * Deletes the Lease of `shard`, unless it changed since this assigner wrote it. Called once
   * every move away from it was answered: a process taking the Lease afterwards finds them all.
   */
  async giveUp(shard: string): Promise<void> {
    const h = this.held.get(shard);
    if (!h) return;
    this.held.delete(shard);
    const { name, namespace, resourceVersion } = h.lease.metadata ?? {};
    try {
      await this.o.client.delete(
        { apiVersion: apiVersionOf(LEASE_GVK), kind: LEASE_GVK.kind, metadata: { name, namespace } },
        { preconditions: resourceVersion ? { resourceVersion } : undefined },
      );
    } catch (err) {
      // Not deleted: it expires by itself, after which a shard may take it.
      if (!isNotFound(err) && !isConflict(err))
        this.o.log.warn({ err, shard }, 'assigner: deleting the lease it held for a gone shard failed');
    }
  }

  private failed(shard: string, err: unknown, signal: AbortSignal | undefined): 'not' {
    this.held.delete(shard);
    if (!signal?.aborted)
      this.o.log.warn({ err, shard }, 'assigner: taking a gone shard’s lease failed; the next pass tries again');
    return 'not';
  }
}

/** The Lease spec that says `record` (the inverse of leaseRecord). */
export function leaseSpec(record: LeaderElectionRecord): NonNullable<LeaseObject['spec']> {
  return {
    holderIdentity: record.holderIdentity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    acquireTime: record.acquireTime,
    renewTime: record.renewTime,
    leaseTransitions: record.leaderTransitions,
  };
}
