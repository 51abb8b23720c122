/**
 * /debug/controllers on the health-probe port (off unless the manager's `debugControllers`
 * option or the --debug-controllers flag turns it on): per controller its queue depth, the keys
 * in flight and for how long, the next delayed requeues, and the last results with what
 * triggered them — JSON, for `curl` or `kubectl port-forward`. A sharded manager adds its ring:
 * the shards, their Leases and shares, what this replica holds and, on the leader, the assigner.
 * Controllers record their results only when it is on, so an operator that does not ask pays
 * nothing.
 */

import type { Route } from './http-server.js';
import type { ControllerDebugInfo } from '../controller/index.js';
import type { RingDebugSummary } from './sharding-engine.js';

// What each controller reports is declared with the controller (controller/debug-info.ts); the
// names stay exported from here too, where they were first.
export type { ControllerDebugInfo, DebugResult } from '../controller/index.js';

/** What a controller offers the endpoint; the Controller class implements it. */
export interface DebuggableController {
  readonly name: string;
  /** Starts keeping the last `lastResults` results. */
  enableDebug(lastResults: number): void;
  debugInfo(delayedLimit?: number): ControllerDebugInfo;
}

export interface DebugControllersOptions {
  /** Results kept per controller (default 20). */
  lastResults?: number;
  /** Delayed requeues listed per controller, soonest first (default 10). */
  delayed?: number;
}

/** The controllers of one manager that the endpoint reports on. */
export class ControllerDebug {
  private readonly controllers: DebuggableController[] = [];
  private opts: Required<DebugControllersOptions> | undefined;
  private ringInfo: (() => RingDebugSummary) | undefined;

  get enabled(): boolean {
    return this.opts !== undefined;
  }

  get delayedLimit(): number {
    return this.opts?.delayed ?? 10;
  }

  /** Turns recording on for every controller, registered already or later. */
  enable(opts: DebugControllersOptions = {}): void {
    this.opts = { lastResults: opts.lastResults ?? 20, delayed: opts.delayed ?? 10 };
    for (const c of this.controllers) c.enableDebug(this.opts.lastResults);
  }

  register(c: DebuggableController): void {
    this.controllers.push(c);
    if (this.opts) c.enableDebug(this.opts.lastResults);
  }

  snapshot(): ControllerDebugInfo[] {
    return this.controllers.map((c) => c.debugInfo(this.delayedLimit));
  }

  /** Shows the ring this manager's replica belongs to (sharding), as `ring` beside the controllers. */
  setRing(info: () => RingDebugSummary): void {
    this.ringInfo = info;
  }

  /** The ring, when the manager is sharded. */
  ring(): RingDebugSummary | undefined {
    return this.ringInfo?.();
  }
}

const byManager = new WeakMap<object, ControllerDebug>();

/** The debug registry of a manager (created on first use, off until `enable`). */
export function controllerDebugFor(mgr: object): ControllerDebug {
  let d = byManager.get(mgr);
  if (!d) byManager.set(mgr, (d = new ControllerDebug()));
  return d;
}

/** GET /debug/controllers (every controller) and /debug/controllers/<name> (one, 404 if unknown). */
export function debugControllersRoute(d: ControllerDebug): Route {
  const prefix = '/debug/controllers';
  return (_req, url) => {
    const path = url.pathname;
    if (path !== prefix && !path.startsWith(`${prefix}/`)) return undefined;
    const all = d.snapshot();
    const json = (status: number, body: unknown) =>
      Promise.resolve({ status, type: 'application/json', body: `${JSON.stringify(body, null, 2)}\n` });
    if (path === prefix) {
      const ring = d.ring();
      return json(200, ring ? { controllers: all, ring } : { controllers: all });
    }
    const name = decodeURIComponent(path.slice(prefix.length + 1));
    const one = all.find((c) => c.name === name);
    return one
      ? json(200, one)
      : json(404, { error: `no controller named "${name}"; known: ${all.map((c) => c.name).join(', ') || 'none'}` });
  };
}
