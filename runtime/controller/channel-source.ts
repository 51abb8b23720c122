/**
 * ChannelSource: events from outside the API server — a timer, a webhook, another system's
 * notification — pushed in by user code and delivered as generic events (controller-runtime's
 * source.Channel). Objects pushed before the controller starts are kept and delivered on start.
 */

import type { ClientObject, KubeObject } from '../apimachinery/model.js';
import type { InformerEvents, Source } from './source.js';

export class ChannelSource implements Source {
  readonly description: string;
  private events: InformerEvents | undefined;
  private pending: KubeObject[] = [];

  constructor(name = 'channel') {
    this.description = `channel source: ${name}`;
  }

  /** Delivers `obj` as a generic event (through predicates and the handler). */
  push(obj: ClientObject): void {
    // Handlers and predicates see it as the loose wire shape the informers deliver.
    const loose = obj as KubeObject;
    if (this.events?.onGeneric) this.events.onGeneric(loose);
    else this.pending.push(loose);
  }

  start(events: InformerEvents): void {
    this.events = events;
    const backlog = this.pending;
    this.pending = [];
    for (const obj of backlog) events.onGeneric?.(obj);
  }

  /** Nothing to list: a channel is in sync from the start. */
  async waitForSync(): Promise<boolean> {
    return true;
  }
}
