/**
 * The lines of a watch response, one JSON event per line (or the frames of a protobuf one), read
 * without node:readline: readline emits an event per line and its async iterator adds a promise and a buffer hop to each, which
 * an informer pays on every watch event. Here a chunk is split once and its lines are handed out
 * from an array; `next()` returns a resolved promise while lines are waiting.
 *
 * As readline did: a line ends at `\n` (a `\r` before it is dropped), the text after the last
 * `\n` is a line when the stream ends, lines already read are handed out before an error (which
 * then rejects `next()`) or the end, a stream destroyed without 'end' just ends, and the input is
 * paused while more than 1,024 lines wait to be taken.
 */
import type { Readable } from 'node:stream';
import { FrameSplitter } from '../rest/index.js';

export interface Items<T> {
  next(): Promise<IteratorResult<T>>;
  /** Ends the iteration now: items not yet handed out are dropped. */
  close(): void;
}

export type Lines = Items<string>;

const DONE: IteratorResult<never> = { done: true, value: undefined };
/** Items waiting beyond this pause the input until half of them are taken (as readline's 1024). */
const HIGH_WATER = 1024;

/** How a stream's chunks become items: `push` a chunk's, `end` what is left when the input ends. */
interface Splitter<C, R> {
  push(chunk: C): R[];
  end(): R[];
}

/**
 * Hands out the items `splitter` finds in `input`, each through `decode` as it is taken (a throw
 * rejects that `next()`); the rules of the header above hold for any kind of item.
 */
function itemReader<C, R, T>(input: Readable, splitter: Splitter<C, R>, decode: (raw: R) => T): Items<T> {
  let ready: R[] = [];
  let head = 0;
  let ended = false;
  let failure: { err: unknown } | undefined;
  let waiter: { resolve: (r: IteratorResult<T>) => void; reject: (err: unknown) => void } | undefined;

  const take = (): Promise<IteratorResult<T>> | undefined => {
    if (head < ready.length) {
      const raw = ready[head++]!;
      if (input.isPaused() && ready.length - head <= HIGH_WATER / 2 && !ended) input.resume();
      // Drop handed-out items now and then, so a long watch does not keep them.
      if (head === ready.length) {
        ready = [];
        head = 0;
      }
      try {
        return Promise.resolve({ done: false, value: decode(raw) });
      } catch (err) {
        return Promise.reject(err);
      }
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
  const onData = (chunk: C): void => {
    for (const item of splitter.push(chunk)) ready.push(item);
    if (ready.length - head > HIGH_WATER) input.pause();
    wake();
  };

  input.on('data', onData);
  input.once('end', () => {
    for (const item of splitter.end()) ready.push(item);
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

/** The lines of `input` (UTF-8), each through `decode` when given. */
export function lineReader(input: Readable): Lines;
export function lineReader<T>(input: Readable, decode: (line: string) => T): Items<T>;
export function lineReader<T>(input: Readable, decode?: (line: string) => T): Items<T | string> {
  let partial = '';
  input.setEncoding('utf8');
  const splitter: Splitter<string, string> = {
    push(chunk) {
      const lines: string[] = [];
      let start = 0;
      for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
        let line = partial + chunk.slice(start, nl);
        partial = '';
        if (line.endsWith('\r')) line = line.slice(0, -1);
        lines.push(line);
        start = nl + 1;
      }
      partial += chunk.slice(start);
      return lines;
    },
    end() {
      const last = partial;
      partial = '';
      return last === '' ? [] : [last.endsWith('\r') ? last.slice(0, -1) : last];
    },
  };
  return itemReader<string, string, T | string>(input, splitter, decode ?? ((line) => line));
}

/**
 * The length-prefixed frames of `input` (a protobuf watch stream: 4-byte big-endian length, then
 * the frame), each through `decode`. A frame cut short by the stream's end is dropped, as a line
 * without its newline would fail to parse.
 */
export function frameReader<T>(input: Readable, decode: (frame: Buffer) => T): Items<T> {
  const frames = new FrameSplitter();
  return itemReader(input, { push: (chunk: Buffer) => frames.push(chunk), end: () => [] }, decode);
}
