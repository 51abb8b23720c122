import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { backoffDelay } from './backoff.js';
import { initialState, nextAction, step, type WatcherEvent, type WatcherInput, type WatcherState } from './watcher.js';

const cm = (name: string, rv: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: 'ns', name, resourceVersion: rv },
});

/** Feeds inputs in order; returns the final state and every event emitted. */
function run(
  inputs: WatcherInput[],
  from: WatcherState = initialState,
): { state: WatcherState; events: WatcherEvent[] } {
  let state = from;
  const events: WatcherEvent[] = [];
  for (const input of inputs) {
    const r = step(state, input);
    state = r.state;
    events.push(...r.events);
  }
  return { state, events };
}

const synced: WatcherInput[] = [
  { kind: 'page', items: [cm('a', '1')], resourceVersion: '10', continueToken: 'c1' },
  { kind: 'page', items: [cm('b', '2')], resourceVersion: '10' },
  { kind: 'watchOpened' },
];

describe('watcher step', () => {
  it('lists page by page, emits one complete list, then watches from its resourceVersion', () => {
    expect(nextAction(initialState)).toEqual({ kind: 'list', failures: 0 });
    const afterFirst = run(synced.slice(0, 1));
    expect(afterFirst.events).toEqual([]);
    expect(nextAction(afterFirst.state)).toEqual({ kind: 'list', continueToken: 'c1', failures: 0 });
    const listed = run(synced.slice(0, 2));
    expect(listed.events).toEqual([{ type: 'listed', objects: [cm('a', '1'), cm('b', '2')], resourceVersion: '10' }]);
    expect(nextAction(listed.state)).toEqual({ kind: 'watch', resourceVersion: '10', failures: 0 });
    expect(nextAction(run(synced).state)).toEqual({ kind: 'read' });
  });

  it('passes changes on and advances the resourceVersion, bookmarks included', () => {
    const { state, events } = run([
      ...synced,
      { kind: 'event', event: { type: 'ADDED', object: cm('c', '11') } },
      { kind: 'event', event: { type: 'MODIFIED', object: cm('a', '12') } },
      { kind: 'event', event: { type: 'DELETED', object: cm('b', '13') } },
      {
        kind: 'event',
        event: { type: 'BOOKMARK', object: { kind: 'ConfigMap', metadata: { resourceVersion: '20' } } },
      },
      { kind: 'watchClosed', quiet: false },
    ]);
    expect(events.slice(1)).toEqual([
      { type: 'added', object: cm('c', '11') },
      { type: 'modified', object: cm('a', '12') },
      { type: 'deleted', object: cm('b', '13') },
      { type: 'bookmark', resourceVersion: '20' },
    ]);
    // a normal close re-watches at once from the bookmark's resourceVersion
    expect(nextAction(state)).toEqual({ kind: 'watch', resourceVersion: '20', failures: 0 });
  });

  it('relists from scratch on an ERROR event with code 410', () => {
    const { state, events } = run([
      ...synced,
      { kind: 'event', event: { type: 'MODIFIED', object: cm('a', '15') } },
      {
        kind: 'event',
        event: { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old' } },
      },
    ]);
    expect(events.at(-1)).toEqual({ type: 'error', message: 'too old', code: 410, relist: true });
    expect(nextAction(state)).toEqual({ kind: 'list', failures: 0 });
    // the relist's result replaces the store: a fresh complete list is emitted
    const relisted = run([{ kind: 'page', items: [cm('c', '30')], resourceVersion: '31' }], state);
    expect(relisted.events).toEqual([{ type: 'listed', objects: [cm('c', '30')], resourceVersion: '31' }]);
  });

  it('relists on a watch refused with HTTP 410', () => {
    const { state } = run([
      ...synced,
      { kind: 'watchClosed', quiet: false },
      { kind: 'watchFailed', code: 410, message: 'Gone' },
    ]);
    expect(nextAction(state)).toEqual({ kind: 'list', failures: 0 });
  });

  it('reconnects from the last resourceVersion with growing backoff on connection loss', () => {
    const lost: WatcherInput = { kind: 'watchFailed', message: 'ECONNREFUSED' };
    const { state } = run([
      ...synced,
      { kind: 'event', event: { type: 'ADDED', object: cm('c', '11') } },
      { kind: 'watchFailed', message: 'socket hang up' },
      lost,
      lost,
    ]);
    expect(nextAction(state)).toEqual({ kind: 'watch', resourceVersion: '11', failures: 3 });
    // once a watch opens again the backoff starts over
    const reopened = run([{ kind: 'watchOpened' }], state);
    expect(reopened.state).toMatchObject({ phase: 'watching', connected: true, failures: 0 });
  });

  it('backs off after a quiet close, and on ERROR events other than 410 keeps its place', () => {
    const quiet = run([...synced, { kind: 'watchClosed', quiet: true }]);
    expect(nextAction(quiet.state)).toEqual({ kind: 'watch', resourceVersion: '10', failures: 1 });
    const err = run([
      ...synced,
      { kind: 'event', event: { type: 'ERROR', object: { kind: 'Status', code: 500, message: 'boom' } } },
    ]);
    expect(err.events.at(-1)).toEqual({ type: 'error', message: 'boom', code: 500, relist: false });
    expect(nextAction(err.state)).toEqual({ kind: 'watch', resourceVersion: '10', failures: 1 });
  });

  it('retries a failed page with backoff, and restarts the list when the continue token expired', () => {
    const retried = run([synced[0]!, { kind: 'listFailed', message: 'ECONNRESET' }]);
    expect(nextAction(retried.state)).toEqual({ kind: 'list', continueToken: 'c1', failures: 1 });
    const expired = run([synced[0]!, { kind: 'listFailed', code: 410, message: 'continue expired' }]);
    expect(nextAction(expired.state)).toEqual({ kind: 'list', failures: 1 });
    // the restarted list does not keep the first attempt's pages
    const done = run([{ kind: 'page', items: [cm('z', '5')], resourceVersion: '50' }], expired.state);
    expect(done.events).toEqual([{ type: 'listed', objects: [cm('z', '5')], resourceVersion: '50' }]);
  });

  it('ignores stream input that arrives after the watch was given up', () => {
    const { state, events } = run([
      ...synced,
      { kind: 'watchFailed', message: 'reset' },
      { kind: 'event', event: { type: 'ADDED', object: cm('late', '99') } },
    ]);
    expect(events.filter((e) => e.type === 'added')).toEqual([]);
    expect(nextAction(state)).toEqual({ kind: 'watch', resourceVersion: '10', failures: 1 });
  });
});

describe('reconnect backoff', () => {
  it('starts at 0.8 s, doubles, caps at 30 s, and jitters upward by at most 25 %', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 50].map((n) => backoffDelay(n, 0))).toEqual([
      0, 800, 1600, 3200, 6400, 12800, 25600, 30000, 30000,
    ]);
    expect(backoffDelay(1, 0.999)).toBeCloseTo(999.8);
    expect(backoffDelay(7, 0.999)).toBe(30000);
  });
});
