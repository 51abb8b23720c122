/**
 * Lease-based leader election (coordination.k8s.io/v1), with client-go's timing and rules:
 * candidates poll every retryPeriod; the leader renews every retryPeriod and gives up when no
 * renewal succeeded for renewDeadline; a follower takes over once the holder's lease has not
 * changed for leaseDuration. Writes carry the Lease's resourceVersion, so two candidates can
 * never both win one round.
 *
 * The renew deadline counts from the last successful renewal (from when its record was decided,
 * before it was sent, so before any follower could see it) and is checked synchronously as well
 * as by a timer: timers do not fire while the event loop is blocked (a CPU-bound reconcile, a
 * long GC pause), so a leader waking up past its deadline must find out before it sends
 * anything. `leaseExpired()` is that check; the elector runs it before each of its own
 * requests, and the manager before every request of the process.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { KubeConfigSource } from '../kubeconfig/index.js';
import { linkSignals, type KubeObject } from '../apimachinery/model.js';
import { ApiConnection } from '../rest/index.js';
import {
  createClient,
  isAlreadyExists,
  isConflict,
  isNotFound,
  type Client,
  type RequestMetrics,
} from '../client/index.js';
import { rootLogger, type Logger } from '../log/index.js';
import { realClock, sleep, type Clock } from './clock.js';
import {
  decide,
  observe,
  releasedRecord,
  validateTiming,
  type LeaderElectionRecord,
  type Observation,
} from './record.js';

export interface LeaderCallbacks {
  /** Runs once leadership is won; `signal` aborts when it is lost or the elector stops. */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Runs once leadership ends (lost, or released on stop). */
  onStoppedLeading?(): void;
  /** Runs whenever the observed holder changes (including to ourselves). */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectionOptions {
  /** Needed unless `client` is given. */
  kubeConfig?: KubeConfigSource;
  /** The Lease; `labels` are set on it when this candidate creates it (a shard Lease names its ring). */
  lease: { namespace: string; name: string; labels?: Record<string, string> };
  /** Defaults to `hostname_uuid`. */
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** On stop, hand the lease over at once instead of letting it expire. */
  releaseOnCancel?: boolean;
  callbacks: LeaderCallbacks;
  /** Monotonic clock for expiry, deadlines and waits (inject a FakeClock in tests). */
  clock?: Clock;
  /** Wall clock for the Lease's timestamps; defaults to Date.now. */
  wallClock?: () => number;
  /** Talk to the API through this client instead of one built from kubeConfig. */
  client?: Client;
  metrics?: RequestMetrics;
  logger?: Logger;
  /**
   * Asked before each request of the elector's own connection, besides its own lease: a refusal
   * (an Error) stops the request unsent. A sharded manager passes its shard fence, so a replica
   * whose shard Lease was taken sends nothing more, not even a renewal of its leader Lease.
   */
  gate?: () => Error | undefined;
}

export class InvalidLeaderElectionConfigError extends Error {
  override readonly name = 'InvalidLeaderElectionConfigError';
}

const LEASE = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' } as const;

interface Lease extends KubeObject {
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

export function defaultIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}

export class LeaderElector {
  readonly identity: string;
  private readonly client: Client;
  private readonly ownClient: (Client & { close(): void }) | undefined;
  private readonly clock: Clock;
  private readonly wallClock: () => number;
  private readonly log: Logger;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private observed: Observation | undefined;
  private lease: Lease | undefined;
  private reportedLeader: string | undefined;
  private leading = false;
  /** When the record of the last successful acquisition or renewal was decided (monotonic clock). */
  private renewedAt = 0;

  constructor(private readonly opts: LeaderElectionOptions) {
    this.leaseDurationMs = opts.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = opts.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = opts.retryPeriodMs ?? 2_000;
    const problem = validateTiming({
      leaseDurationMs: this.leaseDurationMs,
      renewDeadlineMs: this.renewDeadlineMs,
      retryPeriodMs: this.retryPeriodMs,
    });
    if (problem) throw new InvalidLeaderElectionConfigError(problem);
    this.identity = opts.identity ?? defaultIdentity();
    this.clock = opts.clock ?? realClock;
    this.wallClock = opts.wallClock ?? Date.now;
    this.log = (opts.logger ?? rootLogger()).child({
      component: 'leader-election',
      lease: `${opts.lease.namespace}/${opts.lease.name}`,
    });
    if (opts.client) {
      this.client = opts.client;
    } else {
      if (!opts.kubeConfig) throw new InvalidLeaderElectionConfigError('kubeConfig or client is required');
      // Its own client: one request may never outlast the renew deadline. Its own connection
      // too, so a renewal never waits for a socket behind the manager's capped request pool;
      // a renewal found past the deadline as it is about to leave is refused there.
      const connection = new ApiConnection(opts.kubeConfig);
      connection.addGate(() => (this.leaseExpired() ? this.expiredError() : undefined));
      if (opts.gate) connection.addGate(opts.gate);
      this.ownClient = createClient(opts.kubeConfig, {
        connection,
        metrics: opts.metrics,
        timeoutMs: this.renewDeadlineMs,
      });
      this.client = this.ownClient;
    }
  }

  isLeader(): boolean {
    return this.leading;
  }

  /**
   * True while this candidate leads but its last successful renewal was decided renewDeadline ago
   * or more: it must act as if the lease were lost, at once, whether or not the renew timer has
   * fired yet. Synchronous and cheap, to be checked before every request leaves the process.
   */
  leaseExpired(): boolean {
    return this.leading && this.clock.now() - this.renewedAt >= this.renewDeadlineMs;
  }

  /** The holder last observed ('' when free, undefined before the first read). */
  getLeader(): string | undefined {
    return this.observed?.record.holderIdentity;
  }

  /**
   * Campaigns until leadership is won, leads until it is lost or `signal` aborts, then returns.
   * Run it again to campaign again (a manager usually exits instead).
   */
  async run(signal: AbortSignal): Promise<void> {
    try {
      if (!(await this.acquire(signal))) return;
      const leadership = new AbortController();
      this.leading = true;
      this.log.info({ identity: this.identity }, 'acquired lease');
      void Promise.resolve()
        .then(() => this.opts.callbacks.onStartedLeading(leadership.signal))
        .catch((err: unknown) => this.log.error({ err }, 'onStartedLeading failed'));
      const outcome = await this.renew(signal);
      leadership.abort();
      this.leading = false;
      // A lease past its deadline may already be someone else's: never touch it again.
      if (outcome === 'stopped' && this.opts.releaseOnCancel) await this.release();
      this.opts.callbacks.onStoppedLeading?.();
    } finally {
      this.leading = false;
      this.ownClient?.close();
    }
  }

  /** Polls until the lease is ours (true) or `signal` aborts (false). */
  private async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      const wait = await this.tryAcquireOrRenew();
      if (wait === 0) return true;
      await sleep(this.clock, wait, signal);
    }
    return false;
  }

  /**
   * Renews every retryPeriod until the renew deadline passes without a successful renewal
   * ('lost'), someone else holds the lease ('lost'), or `signal` aborts ('stopped'). As in
   * client-go the deadline also cancels the request in flight, so a hung API call cannot
   * stretch leadership; here it counts from the last successful renewal, which is what
   * `leaseExpired()` checks without a timer.
   */
  private async renew(signal: AbortSignal): Promise<'lost' | 'stopped'> {
    const ended = (): 'lost' | 'stopped' => (this.leaseExpired() ? 'lost' : 'stopped');
    while (!signal.aborted) {
      // Rounds start every retryPeriod from the last renewal, however long that one took.
      await sleep(this.clock, this.renewedAt + this.retryPeriodMs - this.clock.now(), signal);
      if (signal.aborted) return ended();
      if (this.leaseExpired()) {
        this.log.error(
          { renewDeadlineMs: this.renewDeadlineMs, sinceRenewalMs: Math.round(this.clock.now() - this.renewedAt) },
          'lease not renewed within the deadline (was the event loop blocked?); stopping leading without another request',
        );
        return 'lost';
      }
      const deadline = new AbortController();
      const timer = this.clock.setTimeout(
        () => deadline.abort(new Error(`lease not renewed within renewDeadline (${this.renewDeadlineMs} ms)`)),
        this.renewedAt + this.renewDeadlineMs - this.clock.now(),
      );
      const linked = linkSignals(signal, deadline.signal);
      const attempt = linked.signal;
      try {
        for (;;) {
          const wait = await this.tryAcquireOrRenew(attempt);
          if (wait === 0) break;
          const holder = this.getLeader();
          if (holder && holder !== this.identity) {
            this.log.warn({ holder }, 'lease taken by another candidate; stopping leading');
            return 'lost';
          }
          if (signal.aborted) return ended();
          if (!deadline.signal.aborted && !this.leaseExpired()) await sleep(this.clock, wait, attempt);
          if ((deadline.signal.aborted || this.leaseExpired()) && !signal.aborted) {
            this.log.error(
              { renewDeadlineMs: this.renewDeadlineMs },
              'failed to renew lease within the deadline; stopping leading',
            );
            return 'lost';
          }
        }
      } finally {
        linked.dispose();
        this.clock.clearTimeout(timer);
      }
    }
    return ended();
  }

  /**
   * One round: read the lease, decide, write. Returns 0 when we hold the lease afterwards,
   * otherwise how long to wait before the next round.
   */
  private async tryAcquireOrRenew(signal?: AbortSignal): Promise<number> {
    const { namespace, name } = this.opts.lease;
    try {
      return (await this.tryRound(namespace, name, signal)) ? 0 : this.followerWait();
    } catch (err) {
      if (!isConflict(err) && !isAlreadyExists(err) && !signal?.aborted && !this.leaseExpired())
        this.log.warn({ err }, 'lease round failed');
      return this.jitteredRetry();
    }
  }

  /** Read, decide, write: true when we hold the lease afterwards. */
  private async tryRound(namespace: string, name: string, signal: AbortSignal | undefined): Promise<boolean> {
    // Fast path for a leader: write over the lease we last wrote; a conflict means re-read.
    if (this.leading && this.lease && (await this.writeIfDecided(this.lease, signal))) return true;
    let current: Lease | undefined;
    try {
      this.refuseIfExpired();
      current = await this.client.get<Lease>(LEASE, { namespace, name }, { signal });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    if (current) return this.writeIfDecided(current, signal);
    const now = this.clock.now();
    const decision = decide({
      identity: this.identity,
      now,
      wallTime: this.wallClock(),
      leaseDurationSeconds: this.leaseDurationMs / 1000,
      current: undefined,
    });
    if (decision.kind !== 'create') return false;
    const labels = this.opts.lease.labels;
    const lease: Lease = {
      ...LEASE,
      metadata: { namespace, name, ...(labels ? { labels } : {}) },
      spec: toSpec(decision.record),
    };
    this.refuseIfExpired();
    this.remember(await this.client.create(lease, { signal }));
    this.renewedAt = now;
    return true;
  }

  /** Throws instead of sending while leadership is past its deadline (see leaseExpired). */
  private refuseIfExpired(): void {
    if (this.leaseExpired()) throw this.expiredError();
  }

  private expiredError(): Error {
    return new Error(`lease not renewed within renewDeadline (${this.renewDeadlineMs} ms): not sending`);
  }

  /** Observes `lease`, decides, and writes the new record when allowed; true when we hold it. */
  private async writeIfDecided(lease: Lease, signal?: AbortSignal): Promise<boolean> {
    const now = this.clock.now();
    this.observed = observe(this.observed, fromSpec(lease.spec, this.leaseDurationMs / 1000), now);
    this.reportLeader();
    const decision = decide({
      identity: this.identity,
      now,
      wallTime: this.wallClock(),
      leaseDurationSeconds: this.leaseDurationMs / 1000,
      current: this.observed,
    });
    if (decision.kind !== 'update') return false;
    this.refuseIfExpired();
    try {
      this.remember(await this.client.update({ ...lease, spec: toSpec(decision.record) }, { signal }));
      // Decided before it was sent, so before any follower can have seen it: a safe start for the deadline.
      this.renewedAt = now;
      return true;
    } catch (err) {
      // Changed or deleted since we read it: forget it; the next read decides again.
      if (isConflict(err) || isNotFound(err)) {
        this.lease = undefined;
        return false;
      }
      throw err;
    }
  }

  private remember(lease: Lease): void {
    this.lease = lease;
    this.observed = observe(this.observed, fromSpec(lease.spec, this.leaseDurationMs / 1000), this.clock.now());
    this.reportLeader();
  }

  private reportLeader(): void {
    const holder = this.observed?.record.holderIdentity;
    if (!holder || holder === this.reportedLeader) return;
    this.reportedLeader = holder;
    try {
      this.opts.callbacks.onNewLeader?.(holder);
    } catch (err) {
      this.log.error({ err }, 'onNewLeader failed');
    }
  }

  /** Next poll: at the end of the retry period, or right when the holder's lease expires if sooner. */
  private followerWait(): number {
    const obs = this.observed;
    const untilExpiry = obs ? obs.observedAt + obs.record.leaseDurationSeconds * 1000 - this.clock.now() : Infinity;
    return Math.max(1, Math.min(this.jitteredRetry(), untilExpiry + 1));
  }

  // Jitter desynchronises candidates but never waits longer than retryPeriod, so a takeover
  // happens within leaseDuration + retryPeriod of the last renewal.
  private jitteredRetry(): number {
    return this.retryPeriodMs * (0.8 + 0.2 * Math.random());
  }

  /**
   * Writes an empty holder with a 1 s duration so a follower takes over at once. The last renewal
   * may have been cut off by the stop (its answer lost) or refused, leaving our copy of the lease
   * stale: on a conflict, or with no copy, read the lease again and release that, so a follower
   * never waits out a lease nobody uses.
   */
  private async release(): Promise<void> {
    const { namespace, name } = this.opts.lease;
    try {
      for (let attempt = 1; ; attempt++) {
        const lease =
          attempt === 1 && this.lease ? this.lease : await this.client.get<Lease>(LEASE, { namespace, name });
        const record = fromSpec(lease.spec, this.leaseDurationMs / 1000);
        if (record.holderIdentity !== this.identity) return;
        try {
          this.remember(await this.client.update({ ...lease, spec: toSpec(releasedRecord(record, this.wallClock())) }));
          this.log.info('released lease');
          return;
        } catch (err) {
          if (!isConflict(err) || attempt >= 2) throw err;
        }
      }
    } catch (err) {
      this.log.warn({ err }, 'failed to release lease');
    }
  }
}

function toSpec(r: LeaderElectionRecord): NonNullable<Lease['spec']> {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: r.acquireTime,
    renewTime: r.renewTime,
    leaseTransitions: r.leaderTransitions,
  };
}

function fromSpec(spec: Lease['spec'], defaultDurationSeconds: number): LeaderElectionRecord {
  return {
    holderIdentity: spec?.holderIdentity ?? '',
    leaseDurationSeconds: spec?.leaseDurationSeconds ?? defaultDurationSeconds,
    acquireTime: spec?.acquireTime,
    renewTime: spec?.renewTime,
    leaderTransitions: spec?.leaseTransitions ?? 0,
  };
}
