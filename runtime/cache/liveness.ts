/**
 * Is a watch still alive? A watch over HTTP/2 (the usual case over TLS) is answered by its own
 * connection: rest/http2.ts pings it after 30 s without a frame and closes it when the PING is
 * not answered within 15 s, which finds a frozen server, a vanished host and a connection a NAT
 * or load balancer dropped without FIN or RST alike, at most 45 s after the last frame.
 *
 * Over HTTP/1.1 (no TLS, a proxy-url, a proxy or server that offers no `h2`) nothing can be sent
 * on a watch's connection while it streams, so two clocks stand in, both re-armed by every event
 * or bookmark. After `idleMs` (30 s) of silence the API server is probed on a connection of its
 * own: it must answer a small request within `timeoutMs` (15 s), so a frozen or partitioned
 * server is noticed in under a minute; TCP keep-alive (30 s idle, then Node's 1 s × 10 probes on
 * Linux) covers a vanished host. Neither can tell a healthy server from a healthy server behind
 * a dead watch connection whose nearest hop (a proxy's kernel) still answers. kube-apiserver 1.36
 * sends a quiet watch its first bookmark about 2 min after it opens (measured 121 s), then one a
 * minute (and one 2 s before its timeout), so a watch that carries no event and no bookmark for
 * `silenceMs` (150 s) is taken for dead, and re-opened from its last resourceVersion by the
 * driver: the HTTP/1.1 bound. That clock runs on HTTP/2 watches too, as a last resort.
 */
import { linkSignals, type LinkedSignal } from '../apimachinery/model.js';
import { openRequest, type ConnectionSource } from '../rest/index.js';
import type { Clock, TimerHandle } from '../queue/index.js';

const PROBE_IDLE_MS = 30_000;
const PROBE_TIMEOUT_MS = 15_000;
export const WATCH_SILENCE_MS = 150_000;

/** The watch went silent and the API server did not answer a probe in time, or no bookmark came. */
export class DeadWatchError extends Error {}

/** The liveness settings of a driver's options, with their defaults. */
export function livenessOf(
  clock: Clock,
  opts: { probeIdleMs?: number; probeTimeoutMs?: number; watchSilenceMs?: number },
): Liveness {
  return {
    clock,
    idleMs: opts.probeIdleMs ?? PROBE_IDLE_MS,
    timeoutMs: opts.probeTimeoutMs ?? PROBE_TIMEOUT_MS,
    silenceMs: opts.watchSilenceMs ?? WATCH_SILENCE_MS,
  };
}

export interface Liveness {
  clock: Clock;
  idleMs: number;
  timeoutMs: number;
  /** 0: no limit */
  silenceMs: number;
}

/**
 * Two clocks on a watch, both re-armed by every event: after `idleMs` without one it probes
 * the API server, and when the probe fails, or after `silenceMs` without one, it declares the
 * watch dead — aborting `signal` (which cancels the watch request) and calling the onDead hook.
 */
export class LivenessCheck {
  dead: DeadWatchError | undefined;
  private readonly ctl = new AbortController();
  readonly signal: AbortSignal;
  private readonly linked: LinkedSignal<AbortSignal>;
  private probeTimer: TimerHandle | undefined;
  private silenceTimer: TimerHandle | undefined;
  private stopped = false;
  private probing = false;
  private lastHeard = 0;
  private pinged = false;
  private deadHook: (() => void) | undefined;

  constructor(
    private readonly source: ConnectionSource,
    private readonly l: Liveness,
    private readonly outer: AbortSignal,
  ) {
    this.linked = linkSignals(outer, this.ctl.signal);
    this.signal = this.linked.signal;
    this.heard();
  }

  /** An event or a bookmark came in. */
  heard(): void {
    if (this.stopped) return;
    // Only the time is noted: re-arming two timers on every event cost more than storing the
    // object, at 100,000 objects a list. A timer that finds an event since it was armed waits on.
    this.lastHeard = this.l.clock.now();
    if (!this.probeTimer && !this.probing) this.armProbe(this.l.idleMs);
    if (this.l.silenceMs > 0 && !this.silenceTimer) this.armSilence(this.l.silenceMs);
  }

  /** How long until `ms` of silence will have passed (≤ 0: it has). */
  private quietLeft(ms: number): number {
    return this.lastHeard + ms - this.l.clock.now();
  }

  private armSilence(delay: number): void {
    this.silenceTimer = this.l.clock.setTimeout(() => {
      this.silenceTimer = undefined;
      const left = this.quietLeft(this.l.silenceMs);
      if (left > 0) return this.armSilence(left);
      this.declareDead(
        new DeadWatchError(
          `watch carried no event or bookmark for ${this.l.silenceMs} ms (the API server sends one at least every 2 min): ` +
            'its connection is taken for dead; re-opening it from the last resourceVersion',
        ),
      );
    }, delay);
  }

  /**
   * The watch's own connection is health-checked (HTTP/2 PINGs): no probe on another connection
   * is needed, nor sent. The silence clock keeps running.
   */
  connectionPinged(): void {
    this.pinged = true;
    if (this.probeTimer) this.l.clock.clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
  }

  onDead(hook: () => void): void {
    this.deadHook = hook;
  }

  stop(): void {
    this.stopped = true;
    this.linked.dispose();
    for (const t of [this.probeTimer, this.silenceTimer]) if (t) this.l.clock.clearTimeout(t);
    this.probeTimer = this.silenceTimer = undefined;
  }

  private armProbe(delay: number): void {
    if (this.pinged) return;
    this.probeTimer = this.l.clock.setTimeout(() => {
      this.probeTimer = undefined;
      const left = this.quietLeft(this.l.idleMs);
      if (left > 0) return this.armProbe(left);
      this.probing = true;
      void probe(this.source, this.l.clock, this.l.timeoutMs, this.outer).then((ok) => {
        this.probing = false;
        if (this.stopped) return;
        if (ok) return this.armProbe(this.l.idleMs);
        this.declareDead(
          new DeadWatchError(
            `watch silent for ${this.l.idleMs} ms and the API server did not answer a probe within ${this.l.timeoutMs} ms`,
          ),
        );
      });
    }, delay);
  }

  private declareDead(err: DeadWatchError): void {
    if (this.stopped || this.dead) return;
    this.dead = err;
    this.ctl.abort(err);
    this.stop();
    this.deadHook?.();
  }
}

/** True when the API server answers anything (even an error status) within `timeoutMs`. */
async function probe(source: ConnectionSource, clock: Clock, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return true;
  // Its own deadline: a socket idle timeout would not count the TLS handshake a frozen server never answers.
  const deadline = new AbortController();
  const timer = clock.setTimeout(() => deadline.abort(), timeoutMs);
  const linked = linkSignals(signal, deadline.signal);
  try {
    const res = await openRequest(source, { path: '/version', signal: linked.signal });
    res.resume();
    return true;
  } catch {
    return signal.aborted;
  } finally {
    linked.dispose();
    clock.clearTimeout(timer);
  }
}
