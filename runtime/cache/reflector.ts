/**
 * The reflector stage: applies one watcher event to the store and says which handler calls it
 * implies. No I/O and no handlers here, so the whole event → store → notification path can be
 * tested with in-memory event sequences.
 */
import type { ClientObject, KubeObject } from '../apimachinery/model.js';
import type { StoreWriter } from './store.js';
import type { WatcherEvent } from './watcher.js';

export type Notification<T> =
  | { type: 'add'; obj: T }
  | { type: 'update'; oldObj: T; newObj: T }
  /** `stateUnknown`: inferred from a relist, so `obj` is the last state seen, not the final one. */
  | { type: 'delete'; obj: T; stateUnknown?: boolean };

export interface Reflected<T> {
  notifications: Notification<T>[];
  /** the resourceVersion the event moved to, when it carried one */
  resourceVersion?: string;
  /** true for a complete list (first sync or relist) */
  listed: boolean;
}

export function reflect<T extends ClientObject = KubeObject>(
  writer: StoreWriter<T>,
  event: WatcherEvent,
  prepare: (obj: KubeObject) => T,
): Reflected<T> {
  switch (event.type) {
    case 'listed': {
      const diff = writer.replace(event.objects.map(prepare));
      const notifications: Notification<T>[] = [
        ...diff.deleted.map((obj) => ({ type: 'delete' as const, obj, stateUnknown: true })),
        ...diff.added.map((obj) => ({ type: 'add' as const, obj })),
        ...diff.updated.map(({ oldObj, newObj }) => ({ type: 'update' as const, oldObj, newObj })),
      ];
      return { notifications, resourceVersion: event.resourceVersion, listed: true };
    }
    case 'added':
    case 'modified': {
      const obj = prepare(event.object);
      const old = writer.upsert(obj);
      // An ADDED for a key we hold (a replayed event) is an update for handlers.
      const n: Notification<T> = old ? { type: 'update', oldObj: old, newObj: obj } : { type: 'add', obj };
      return { notifications: [n], resourceVersion: obj.metadata?.resourceVersion, listed: false };
    }
    case 'deleted': {
      const obj = prepare(event.object);
      const had = writer.remove(obj);
      return {
        notifications: had ? [{ type: 'delete', obj }] : [],
        resourceVersion: obj.metadata?.resourceVersion,
        listed: false,
      };
    }
    case 'bookmark':
      return { notifications: [], resourceVersion: event.resourceVersion, listed: false };
    case 'error':
      return { notifications: [], listed: false };
  }
}
