/**
 * enqueueFromMapFunc: the handler `Watches(kind, mapFn)` uses — a user function maps an object
 * to the requests it affects (a ConfigMap → every resource that mounts it). On update both the
 * old and the new object are mapped, so a reference that moved reaches both sides.
 */

import type { ClientObject, KubeObject } from '../apimachinery/model.js';
import type { Request } from '../reconcile/index.js';
import type { Handler, RequestSink } from './handler.js';

export type MapFunc<T extends ClientObject = KubeObject> = (obj: T) => Request[];

export function enqueueFromMapFunc<T extends ClientObject = KubeObject>(fn: MapFunc<T>): Handler<T> {
  const add = (obj: T, q: RequestSink) => {
    for (const req of fn(obj)) q.add(req);
  };
  return {
    create: (e, q) => add(e.object, q),
    update: (e, q) => {
      add(e.objectOld, q);
      add(e.objectNew, q);
    },
    delete: (e, q) => add(e.object, q),
    generic: (e, q) => add(e.object, q),
  };
}
