import { describe, expect, it } from 'vitest';
import { enqueueForOwner, enqueueFromMapFunc } from '../handler/index.js';
import type { TriggerCause } from '../reconcile/index.js';
import { eventPath } from './event-path.js';

const owned = (rv: string, owners: string[]) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'ns',
    resourceVersion: rv,
    ownerReferences: owners.map((name) => ({
      apiVersion: 'demo.tsop.dev/v1',
      kind: 'Widget',
      name,
      uid: name,
      controller: true,
    })),
  },
});

describe('event path: causes', () => {
  it("adds each request once per event with the watch, event and object as its cause (an update's old and new owner are the same request)", () => {
    const adds: Array<[string, TriggerCause | undefined]> = [];
    const events = eventPath(
      enqueueForOwner({ apiVersion: 'demo.tsop.dev/v1', kind: 'Widget' }),
      [],
      { add: (k, c) => adds.push([k, c]) },
      {
        watch: 'owns',
        kind: 'apps/v1/Deployment',
      },
    );
    events.onUpdate(owned('1', ['w']), owned('2', ['w']));
    expect(adds).toEqual([
      [
        'ns/w',
        {
          reason: 'event',
          watch: 'owns',
          kind: 'apps/v1/Deployment',
          event: 'update',
          object: { namespace: 'ns', name: 'web' },
        },
      ],
    ]);
    adds.length = 0;
    // A reference that moved reaches both sides, each once.
    events.onUpdate(owned('2', ['w']), owned('3', ['v']));
    expect(adds.map(([k]) => k)).toEqual(['ns/w', 'ns/v']);
  });

  it('a map function returning duplicates adds each request once; delete and generic name their event', () => {
    const adds: Array<[string, TriggerCause | undefined]> = [];
    const events = eventPath(
      enqueueFromMapFunc(() => [{ name: 'x' }, { name: 'y' }, { name: 'x' }]),
      [],
      { add: (k, c) => adds.push([k, c]) },
    );
    events.onDelete(owned('1', []));
    events.onGeneric({ metadata: { name: 'cluster-thing' } });
    expect(
      adds.map(([k, c]) => `${k} ${c?.reason === 'event' ? `${c.watch} ${c.event} ${c.object?.name}` : ''}`),
    ).toEqual([
      'x source delete web',
      'y source delete web',
      'x source generic cluster-thing',
      'y source generic cluster-thing',
    ]);
  });
});
