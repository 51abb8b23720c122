/**
 * Handler: turns a watch event into zero or more reconcile Requests. Four methods, one per event
 * type, each given the event and a sink to add requests to; the sink de-duplicates, so a handler
 * may add the same request freely. `handlerFuncs` builds one from plain functions.
 */

import type { ClientObject, KubeObject } from '../apimachinery/model.js';
import type { CreateEvent, DeleteEvent, GenericEvent, UpdateEvent } from '../predicate/index.js';
import type { Request } from '../reconcile/index.js';

/** Where handlers put requests; the controller backs it with its work queue. */
export interface RequestSink {
  add(req: Request): void;
}

export interface Handler<T extends ClientObject = KubeObject> {
  create(e: CreateEvent<T>, q: RequestSink): void;
  update(e: UpdateEvent<T>, q: RequestSink): void;
  delete(e: DeleteEvent<T>, q: RequestSink): void;
  generic(e: GenericEvent<T>, q: RequestSink): void;
}

export interface HandlerFuncs<T extends ClientObject = KubeObject> {
  create?: (e: CreateEvent<T>, q: RequestSink) => void;
  update?: (e: UpdateEvent<T>, q: RequestSink) => void;
  delete?: (e: DeleteEvent<T>, q: RequestSink) => void;
  generic?: (e: GenericEvent<T>, q: RequestSink) => void;
}

/** Adapts plain functions into a Handler; absent methods ignore their events. */
export function handlerFuncs<T extends ClientObject = KubeObject>(fns: HandlerFuncs<T>): Handler<T> {
  return {
    create: (e, q) => fns.create?.(e, q),
    update: (e, q) => fns.update?.(e, q),
    delete: (e, q) => fns.delete?.(e, q),
    generic: (e, q) => fns.generic?.(e, q),
  };
}

/** The request naming an object itself, or undefined when it has no name (never from a watch). */
export function requestFor(obj: ClientObject): Request | undefined {
  const name = obj.metadata?.name;
  if (!name) return undefined;
  const namespace = obj.metadata?.namespace;
  return namespace ? { namespace, name } : { name };
}
