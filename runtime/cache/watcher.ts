/**
 * The watcher as an explicit state machine, kube-rs style. Pure: `nextAction` says which I/O
 * the driver should perform in a state, and `step` folds the I/O's result into the next state
 * plus the events to hand on. The driver (driver.ts) does the HTTP and the sleeping.
 *
 *   empty ─▶ listing (page by page, `limit` + `continue`) ─▶ watching (from the list's RV)
 *   watching: events and bookmarks advance the RV; a clean close re-watches at once;
 *             a lost connection or error re-watches from the last RV after a backoff;
 *             410 Gone (HTTP status or ERROR event) ─▶ listing from scratch (a relist).
 * A first page may also come from a watch-list stream (see driver.ts): its initial events are
 * fed in as one `page`, then `watchOpened`, and the stream goes on as the watch.
 */
import type { KubeObject } from '../apimachinery/model.js';

export type WatcherState =
  | { phase: 'empty' }
  | {
      phase: 'listing';
      /** continue token for the next page; undefined for the first page */
      continueToken?: string;
      /** objects of the pages received so far */
      items: KubeObject[];
      /** failures in a row, for the backoff before the next attempt */
      failures: number;
    }
  | {
      phase: 'watching';
      resourceVersion: string;
      /** true while a watch stream is open and events are flowing */
      connected: boolean;
      failures: number;
    };

/** What the driver must do next. `failures` > 0 means: back off first. */
export type WatcherAction =
  | { kind: 'list'; continueToken?: string; failures: number }
  | { kind: 'watch'; resourceVersion: string; failures: number }
  /** a stream is open: keep reading it */
  | { kind: 'read' };

export type RawWatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface RawWatchEvent {
  type: RawWatchEventType;
  object: KubeObject;
}

/** Results of the driver's I/O, fed back into `step`. */
export type WatcherInput =
  | { kind: 'page'; items: KubeObject[]; resourceVersion: string; continueToken?: string }
  | { kind: 'listFailed'; code?: number; message: string }
  | { kind: 'watchOpened' }
  | { kind: 'event'; event: RawWatchEvent }
  /**
   * The server ended the stream normally (timeoutSeconds elapsed, server shutting down).
   * `quiet`: not one event arrived — back off once, so a server that accepts and hangs up
   * cannot drive a tight reconnect loop.
   */
  | { kind: 'watchClosed'; quiet: boolean }
  | { kind: 'watchFailed'; code?: number; message: string };

/** What the watcher tells the store: a complete list (first or re-list), or one change. */
export type WatcherEvent =
  | { type: 'listed'; objects: KubeObject[]; resourceVersion: string }
  | { type: 'added' | 'modified' | 'deleted'; object: KubeObject }
  | { type: 'bookmark'; resourceVersion: string }
  /** not a change: a failure the driver will recover from, reported for logs and tests */
  | { type: 'error'; message: string; code?: number; relist: boolean };

export interface StepResult {
  state: WatcherState;
  events: WatcherEvent[];
}

export const initialState: WatcherState = { phase: 'empty' };

export function nextAction(state: WatcherState): WatcherAction {
  switch (state.phase) {
    case 'empty':
      return { kind: 'list', failures: 0 };
    case 'listing':
      return { kind: 'list', continueToken: state.continueToken, failures: state.failures };
    case 'watching':
      return state.connected
        ? { kind: 'read' }
        : { kind: 'watch', resourceVersion: state.resourceVersion, failures: state.failures };
  }
}

const relistFrom = (failures: number): WatcherState => ({ phase: 'listing', items: [], failures });

function resourceVersionOf(obj: KubeObject): string | undefined {
  return obj.metadata?.resourceVersion;
}

function statusCode(obj: KubeObject): number | undefined {
  const code = obj['code'];
  return typeof code === 'number' ? code : undefined;
}

export function step(state: WatcherState, input: WatcherInput): StepResult {
  switch (state.phase) {
    case 'empty':
      return step(relistFrom(0), input);
    case 'listing':
      return stepListing(state, input);
    case 'watching':
      return stepWatching(state, input);
  }
}

function stepListing(state: Extract<WatcherState, { phase: 'listing' }>, input: WatcherInput): StepResult {
  switch (input.kind) {
    case 'page': {
      const items = state.items.concat(input.items);
      if (input.continueToken) {
        return { state: { phase: 'listing', continueToken: input.continueToken, items, failures: 0 }, events: [] };
      }
      return {
        state: { phase: 'watching', resourceVersion: input.resourceVersion, connected: false, failures: 0 },
        events: [{ type: 'listed', objects: items, resourceVersion: input.resourceVersion }],
      };
    }
    case 'listFailed': {
      // An expired continue token (410) cannot be resumed: start the list over.
      const restart = input.code === 410 && state.continueToken !== undefined;
      const next: WatcherState = restart ? relistFrom(state.failures + 1) : { ...state, failures: state.failures + 1 };
      return { state: next, events: [{ type: 'error', message: input.message, code: input.code, relist: restart }] };
    }
    default:
      // Stream inputs cannot arrive while listing; a late one from a closed stream is ignored.
      return { state, events: [] };
  }
}

function stepWatching(state: Extract<WatcherState, { phase: 'watching' }>, input: WatcherInput): StepResult {
  switch (input.kind) {
    case 'watchOpened':
      return { state: { ...state, connected: true, failures: 0 }, events: [] };
    case 'watchClosed':
      return { state: { ...state, connected: false, failures: input.quiet ? state.failures + 1 : 0 }, events: [] };
    case 'watchFailed': {
      if (input.code === 410) {
        return { state: relistFrom(0), events: [{ type: 'error', message: input.message, code: 410, relist: true }] };
      }
      return {
        state: { ...state, connected: false, failures: state.failures + 1 },
        events: [{ type: 'error', message: input.message, code: input.code, relist: false }],
      };
    }
    case 'event':
      if (!state.connected) return { state, events: [] };
      return stepEvent(state, input.event);
    default:
      return { state, events: [] };
  }
}

function stepEvent(state: Extract<WatcherState, { phase: 'watching' }>, event: RawWatchEvent): StepResult {
  if (event.type === 'ERROR') {
    const code = statusCode(event.object);
    const message = typeof event.object['message'] === 'string' ? event.object['message'] : 'watch error event';
    if (code === 410) {
      return { state: relistFrom(0), events: [{ type: 'error', message, code, relist: true }] };
    }
    // The server closes the stream after an ERROR; re-watch from the last good RV after a backoff.
    return {
      state: { ...state, connected: false, failures: state.failures + 1 },
      events: [{ type: 'error', message, code, relist: false }],
    };
  }
  const rv = resourceVersionOf(event.object) ?? state.resourceVersion;
  const next: WatcherState = { ...state, resourceVersion: rv, failures: 0 };
  switch (event.type) {
    case 'BOOKMARK':
      return { state: next, events: [{ type: 'bookmark', resourceVersion: rv }] };
    case 'ADDED':
      return { state: next, events: [{ type: 'added', object: event.object }] };
    case 'MODIFIED':
      return { state: next, events: [{ type: 'modified', object: event.object }] };
    case 'DELETED':
      return { state: next, events: [{ type: 'deleted', object: event.object }] };
  }
}
