/**
 * enqueueForObject: the handler `For(kind)` uses — every event requests a reconcile of the object
 * itself. An update enqueues the new object (old and new share a name).
 */

import type { ClientObject, KubeObject } from '../apimachinery/model.js';
import { requestFor, type Handler, type RequestSink } from './handler.js';

export function enqueueForObject<T extends ClientObject = KubeObject>(): Handler<T> {
  const add = (obj: ClientObject, q: RequestSink) => {
    const req = requestFor(obj);
    if (req) q.add(req);
  };
  return {
    create: (e, q) => add(e.object, q),
    update: (e, q) => add(e.objectNew, q),
    delete: (e, q) => add(e.object, q),
    generic: (e, q) => add(e.object, q),
  };
}
