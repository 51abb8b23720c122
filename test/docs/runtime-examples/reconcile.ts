/** A reconciler: one method, called with the key of an object that changed. */
import type { Client } from '../../../runtime/client/index.js';
import {
  TerminalError,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from '../../../runtime/reconcile/index.js';
import { memcachedKind } from './apimachinery.js';

export class MemcachedReconciler implements Reconciler {
  constructor(private readonly client: Client) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const memcached = await this.client.get(memcachedKind, req, {
      signal: ctx.signal,
    });
    const size = memcached.spec?.size ?? 1;
    // Retrying cannot fix the object; the next edit brings a new reconcile.
    if (size > 10) throw new TerminalError(`spec.size ${size} is over 10`);
    ctx.log.info({ size }, 'reconciled');
    // A thrown error is retried with backoff; this asks for a run in five
    // minutes anyway.
    return { requeueAfter: 5 * 60_000 };
  }
}
