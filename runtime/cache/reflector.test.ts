import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { stripManagedFields } from './informer.js';
import { reflect, type Notification } from './reflector.js';
import { StoreWriter } from './store.js';
import { initialState, step, type WatcherInput, type WatcherState } from './watcher.js';

const cm = (name: string, rv: string, v = rv): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: 'ns', name, resourceVersion: rv, managedFields: [{ manager: 'test' }] },
  data: { v },
});

const show = (n: Notification<KubeObject>): string =>
  n.type === 'update'
    ? `update ${n.newObj.metadata!.name} ${n.oldObj.metadata!.resourceVersion}->${n.newObj.metadata!.resourceVersion}`
    : `${n.type} ${n.obj.metadata!.name}${n.type === 'delete' && n.stateUnknown ? ' (state unknown)' : ''}`;

/** watcher step → reflector → store, the informer's pipeline without the network. */
function pipeline(): {
  feed(inputs: WatcherInput[]): string[];
  writer: StoreWriter<KubeObject>;
  state(): WatcherState;
} {
  let state = initialState;
  const writer = new StoreWriter<KubeObject>();
  return {
    writer,
    state: () => state,
    feed(inputs) {
      const out: string[] = [];
      for (const input of inputs) {
        const r = step(state, input);
        state = r.state;
        for (const e of r.events) out.push(...reflect(writer, e, stripManagedFields).notifications.map(show));
      }
      return out;
    },
  };
}

describe('watcher → reflector → store', () => {
  it('delivers the first list as adds, then each change once', () => {
    const p = pipeline();
    expect(p.feed([{ kind: 'page', items: [cm('a', '1'), cm('b', '2')], resourceVersion: '5' }])).toEqual([
      'add a',
      'add b',
    ]);
    expect(p.writer.store.get('ns/a')?.metadata?.managedFields).toBeUndefined();
    expect(
      p.feed([
        { kind: 'watchOpened' },
        { kind: 'event', event: { type: 'MODIFIED', object: cm('a', '6') } },
        { kind: 'event', event: { type: 'ADDED', object: cm('b', '7') } }, // replayed add of a known key
        { kind: 'event', event: { type: 'DELETED', object: cm('a', '8') } },
        { kind: 'event', event: { type: 'DELETED', object: cm('zz', '9') } }, // unknown: nothing to tell
      ]),
    ).toEqual(['update a 1->6', 'update b 2->7', 'delete a']);
  });

  it('on 410 relists and reports only the difference against the store', () => {
    const p = pipeline();
    p.feed([
      { kind: 'page', items: [cm('keep', '1'), cm('change', '2'), cm('gone', '3')], resourceVersion: '3' },
      { kind: 'watchOpened' },
    ]);
    const out = p.feed([
      {
        kind: 'event',
        event: { type: 'ERROR', object: { kind: 'Status', code: 410, message: 'too old resource version' } },
      },
      // the relist arrives in two pages; nothing is reported until it is complete
      { kind: 'page', items: [cm('keep', '1'), cm('change', '10')], resourceVersion: '12', continueToken: 'c' },
    ]);
    expect(out).toEqual([]);
    expect(p.writer.store.size).toBe(3); // old content still served while the relist is in flight
    // A delete inferred from the relist is flagged, as client-go's DeletedFinalStateUnknown.
    expect(p.feed([{ kind: 'page', items: [cm('new', '11')], resourceVersion: '12' }])).toEqual([
      'delete gone (state unknown)',
      'add new',
      'update change 2->10',
    ]);
    expect(p.writer.store.listKeys().sort()).toEqual(['ns/change', 'ns/keep', 'ns/new']);
    expect(p.state()).toMatchObject({ phase: 'watching', resourceVersion: '12' });
  });

  it('keeps the store through a reconnect and continues from the bookmark', () => {
    const p = pipeline();
    p.feed([{ kind: 'page', items: [cm('a', '1')], resourceVersion: '1' }, { kind: 'watchOpened' }]);
    expect(
      p.feed([
        {
          kind: 'event',
          event: { type: 'BOOKMARK', object: { kind: 'ConfigMap', metadata: { resourceVersion: '40' } } },
        },
        { kind: 'watchFailed', message: 'ECONNRESET' },
        { kind: 'watchOpened' },
        { kind: 'event', event: { type: 'ADDED', object: cm('b', '41') } },
      ]),
    ).toEqual(['add b']);
    expect(p.writer.store.size).toBe(2);
    expect(p.state()).toMatchObject({ phase: 'watching', resourceVersion: '41', failures: 0 });
  });
});
