/**
 * The lines of a watch response, one JSON event per line, read without node:readline: readline
 * emits an event per line and its async iterator adds a promise and a buffer hop to each, which
 * an informer pays on every watch event. Here a chunk is split once and its lines are handed out
 * from an array; `next()` returns a resolved promise while lines are waiting.
 *
 * As readline did: a line ends at `\n` (a `\r` before it is dropped), the text after the last
 * `\n` is a line when the stream ends, lines already read are handed out before an error (which
 * then rejects `next()`) or the end, a stream destroyed without 'end' just ends, and the input is
 * paused while more than 1,024 lines wait to be taken.
 */
import type { Readable } from 'node:stream';

export interface Lines {
  next(): Promise<IteratorResult<string>>;
  /** Ends the iteration now: lines not yet handed out are dropped. */
  close(): void;
}

const DONE: IteratorResult<string> = { done: true, value: undefined };
/** Lines waiting beyond this pause the input until half of them are taken (as readline's 1024). */
const HIGH_WATER = 1024;

export function lineReader(input: Readable): Lines {
  let ready: string[] = [];
  let head = 0;
  let partial = '';
  let ended = false;
  let failure: { err: unknown } | undefined;
  let waiter: { resolve: (r: IteratorResult<string>) => void; reject: (err: unknown) => void } | undefined;

  const take = (): Promise<IteratorResult<string>> | undefined => {
    if (head < ready.length) {
      const value = ready[head++]!;
      if (input.isPaused() && ready.length - head <= HIGH_WATER / 2 && !ended) input.resume();
      // Drop handed-out lines now and then, so a long watch does not keep them.
      if (head === ready.length) {
        ready = [];
        head = 0;
      }
      return Promise.resolve({ done: false, value });
    }
    if (failure) {
      const { err } = failure;
      failure = undefined;
      ended = true;
      return Promise.reject(err);
    }
    if (ended) return Promise.resolve(DONE);
    return undefined;
  };
  const wake = (): void => {
    if (!waiter) return;
    const w = waiter;
    const next = take();
    if (!next) return;
    waiter = undefined;
    next.then(w.resolve, w.reject);
  };
  const end = (): void => {
    ended = true;
    input.off('data', onData);
    wake();
  };
  const onData = (chunk: string): void => {
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
      let line = partial + chunk.slice(start, nl);
      partial = '';
      if (line.endsWith('\r')) line = line.slice(0, -1);
      ready.push(line);
      start = nl + 1;
    }
    partial += chunk.slice(start);
    if (ready.length - head > HIGH_WATER) input.pause();
    wake();
  };

  input.setEncoding('utf8');
  input.on('data', onData);
  input.once('end', () => {
    if (partial !== '') ready.push(partial.endsWith('\r') ? partial.slice(0, -1) : partial);
    partial = '';
    end();
  });
  input.once('error', (err) => {
    failure ??= { err };
    end();
  });
  input.once('close', end);

  return {
    next: () => take() ?? new Promise((resolve, reject) => (waiter = { resolve, reject })),
    close: () => {
      ready = [];
      head = 0;
      failure = undefined;
      end();
    },
  };
}
