/**
 * One abort listener per signal, however many waiters share it. A manager hands one signal to
 * every request, informer and controller it runs; adding a listener for each would grow the
 * signal's listener list with the load (Node warns past 10: MaxListenersExceededWarning) and
 * cost a scan of that list on every removal. Here the first waiter on a signal registers the
 * signal's only listener, and each waiter is one entry in a set, removed in O(1).
 */

type Callback = () => void;

/** The waiters of each signal; a signal that is garbage collected takes its set with it. */
const waiters = new WeakMap<AbortSignal, Set<Callback>>();

/**
 * Calls `fn` once when `signal` aborts (at once, synchronously, if it already has). Returns a
 * function that unregisters it; call it when the wait ends another way.
 */
export function onAbort(signal: AbortSignal, fn: Callback): () => void {
  if (signal.aborted) {
    fn();
    return noop;
  }
  let set = waiters.get(signal);
  if (!set) {
    const callbacks = new Set<Callback>();
    set = callbacks;
    waiters.set(signal, callbacks);
    signal.addEventListener(
      'abort',
      () => {
        waiters.delete(signal);
        for (const cb of callbacks) {
          try {
            cb();
          } catch (err) {
            // As EventTarget does with a throwing listener: reported, and the others still run.
            queueMicrotask(() => {
              throw err;
            });
          }
        }
        callbacks.clear();
      },
      { once: true },
    );
  }
  // A distinct entry per call, so the same function registered twice is called twice.
  const entry: Callback = () => fn();
  const registered = set;
  registered.add(entry);
  return () => void registered.delete(entry);
}

/** Waiters registered on `signal` now (for tests). */
export function abortWaiters(signal: AbortSignal): number {
  return waiters.get(signal)?.size ?? 0;
}

function noop(): void {}
