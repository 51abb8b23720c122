/**
 * The pure parts of the `tsop dev` console: the bounded history, the field diff between two
 * versions, OTLP spans read into reconciles and calls, trigger phrases, webhook calls, and the
 * store joining them (a call before its reconcile, the reconcile that wrote a version, the manual
 * trigger, its bounds).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { DEV_CONSOLE_ENV, DevObjectReporter } from '../../runtime/manager/dev-console.js';
import { devConsoleReporter } from '../../runtime/webhook/dev-console.js';
import { diffObjects, sectionOf } from '../../src/dev/console/diff.js';
import { DevConsole } from '../../src/dev/console/index.js';
import { Ring } from '../../src/dev/console/history.js';
import { callOf, devSpansOf, formatMs, formatTrigger, reconcileOf, spansOf } from '../../src/dev/console/spans.js';
import { ConsoleStore, kubeEventOf, LIMITS, type ConsoleEvent } from '../../src/dev/console/store.js';
import { collectionPath, watchedResources } from '../../src/dev/console/resources.js';
import { watchEventOf } from '../../src/dev/console/watch.js';
import { webhookCallOf } from '../../src/dev/console/webhook-calls.js';

type Attr = [string, string | number | boolean];
const attrs = (list: Attr[]) =>
  list.map(([key, v]) => ({
    key,
    value:
      typeof v === 'string' ? { stringValue: v } : typeof v === 'number' ? { intValue: String(v) } : { boolValue: v },
  }));
const nanos = (ms: number): string => `${BigInt(ms) * 1_000_000n}`;

function otlp(spans: object[]): unknown {
  return { resourceSpans: [{ resource: {}, scopeSpans: [{ scope: { name: 'tsop.runtime' }, spans }] }] };
}

function reconcileSpan(
  id: string,
  startMs: number,
  endMs: number,
  extra: Attr[] = [],
  status?: object,
  events?: object[],
) {
  return {
    traceId: 't1',
    spanId: id,
    name: 'Reconcile',
    startTimeUnixNano: nanos(startMs),
    endTimeUnixNano: nanos(endMs),
    attributes: attrs([
      ['controller', 'memcached'],
      ['namespace', 'default'],
      ['name', 'm1'],
      ['objectKey', 'default/m1'],
      ['reconcileID', 'r-1'],
      ['tsop.trigger', 'for cache.example.com/v1alpha1/Memcached update default/m1'],
      ['tsop.trigger.reason', 'event'],
      ['tsop.trigger.watch', 'for'],
      ['tsop.trigger.kind', 'cache.example.com/v1alpha1/Memcached'],
      ['tsop.trigger.event', 'update'],
      ['tsop.trigger.object', 'default/m1'],
      ['tsop.trigger.folded', 0],
      ['tsop.result', 'success'],
      ...extra,
    ]),
    ...(status ? { status } : {}),
    ...(events ? { events } : {}),
  };
}

function callSpan(
  id: string,
  parent: string,
  method: string,
  path: string,
  startMs: number,
  endMs: number,
  key?: string,
) {
  return {
    traceId: 't1',
    spanId: id,
    parentSpanId: parent,
    name: method === 'GET' ? 'k8s.Get' : 'k8s.Status.Update',
    startTimeUnixNano: nanos(startMs),
    endTimeUnixNano: nanos(endMs),
    attributes: attrs([
      ['http.request.method', method],
      ['url.path', path],
      ...(key ? ([['objectKey', key]] as Attr[]) : []),
    ]),
  };
}

describe('console history ring', () => {
  it('keeps the newest entries in order and counts what it dropped', () => {
    const r = new Ring<number>(3);
    for (let i = 1; i <= 5; i++) r.push(i);
    expect(r.values()).toEqual([3, 4, 5]);
    expect(r.size).toBe(3);
    expect(r.dropped).toBe(2);
    expect(r.last()).toBe(5);
    expect(r.findLast((n) => n < 5)).toBe(4);
  });

  it('returns what a push evicted, and refuses a capacity below one', () => {
    const r = new Ring<string>(1);
    expect(r.push('a')).toBeUndefined();
    expect(r.push('b')).toBe('a');
    expect(() => new Ring(0)).toThrow(/positive integer/);
  });
});

describe('console diff', () => {
  it('lists field changes by path, leaving out resourceVersion and managedFields', () => {
    const before = {
      metadata: { name: 'm', resourceVersion: '1', labels: { a: '1' }, managedFields: [{}] },
      spec: { size: 1, list: ['x'] },
      status: { conditions: [{ type: 'Ready', status: 'False' }] },
    };
    const after = {
      metadata: { name: 'm', resourceVersion: '2', labels: { b: '2' }, managedFields: [{}, {}] },
      spec: { size: 3, list: ['x', 'y'] },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    };
    const changes = diffObjects(before, after);
    expect(changes).toEqual([
      { path: 'metadata.labels.a', op: 'removed', before: '1' },
      { path: 'metadata.labels.b', op: 'added', after: '2' },
      { path: 'spec.size', op: 'changed', before: 1, after: 3 },
      { path: 'spec.list[1]', op: 'added', after: 'y' },
      { path: 'status.conditions[0].status', op: 'changed', before: 'False', after: 'True' },
    ]);
    expect(changes.map(sectionOf)).toEqual(['metadata', 'metadata', 'spec', 'spec', 'status']);
  });

  it('quotes keys that are not identifiers, and lists nothing for a first version', () => {
    const changes = diffObjects(
      { metadata: { annotations: {} } },
      { metadata: { annotations: { 'tsop.dev/x': 'y' } } },
    );
    expect(changes[0]?.path).toBe('metadata.annotations["tsop.dev/x"]');
    expect(diffObjects(undefined, { a: 1 })).toEqual([]);
  });
});

describe('console spans', () => {
  it('reads a reconcile span with its trigger, result, error and stack', () => {
    const [span] = spansOf(
      otlp([
        reconcileSpan('s1', 1000, 1012, [['tsop.result', 'error']], { code: 2, message: 'boom' }, [
          {
            name: 'exception',
            attributes: attrs([
              ['exception.message', 'boom'],
              ['exception.stacktrace', 'Error: boom\n    at x'],
            ]),
          },
        ]),
      ]),
    );
    const r = reconcileOf(span!);
    expect(r).toMatchObject({
      spanId: 's1',
      controller: 'memcached',
      object: 'default/m1',
      result: 'error',
      error: 'boom',
      stack: 'Error: boom\n    at x',
      startMs: 1000,
      durationMs: 12,
      trigger: { reason: 'event', watch: 'for', event: 'update', object: 'default/m1', folded: 0 },
    });
    expect(callOf(span!)).toBeUndefined();
  });

  it('reads a client span as an API call, and a body of another shape as no spans', () => {
    const [span] = spansOf(
      otlp([callSpan('c1', 's1', 'GET', '/apis/x/v1/namespaces/default/ms/m1', 1001, 1003, 'default/m1')]),
    );
    expect(callOf(span!)).toEqual({
      spanId: 'c1',
      name: 'k8s.Get',
      method: 'GET',
      path: '/apis/x/v1/namespaces/default/ms/m1',
      objectKey: 'default/m1',
      startMs: 1001,
      durationMs: 2,
    });
    expect(reconcileOf(span!)).toBeUndefined();
    expect(spansOf({ nothing: true })).toEqual([]);
    expect(spansOf(null)).toEqual([]);
  });

  it("reads a batch of the runtime's dev tracer, passing over entries of another shape", () => {
    const reconcile = {
      traceId: 't1',
      spanId: 's1',
      name: 'Reconcile',
      startMs: 1000.25,
      endMs: 1012.5,
      attributes: { controller: 'memcached', objectKey: 'default/m1', 'tsop.result': 'error' },
      error: 'boom',
      stack: 'Error: boom\n    at reconcile',
    };
    const call = { ...reconcile, spanId: 'c1', parentSpanId: 's1', name: 'k8s.Get', attributes: {} };
    delete (call as Partial<typeof call>).error;
    delete (call as Partial<typeof call>).stack;
    const spans = devSpansOf({ spans: [reconcile, call, null, { spanId: 'x' }, { ...call, startMs: '1' }] });
    expect(spans).toEqual([reconcile, call]);
    expect(reconcileOf(spans[0]!)).toMatchObject({ result: 'error', error: 'boom', durationMs: 12.25 });
    expect(devSpansOf({ resourceSpans: [] })).toEqual([]);
    expect(devSpansOf(null)).toEqual([]);
  });

  it('words triggers: events of owned kinds, requeues with their delay, direct adds, manual requests', () => {
    const base = { folded: 0, phrase: '' };
    expect(
      formatTrigger({
        ...base,
        reason: 'event',
        watch: 'owns',
        kind: 'apps/v1/Deployment',
        event: 'update',
        object: 'default/web',
      }),
    ).toBe('Deployment default/web updated (owned)');
    expect(
      formatTrigger({
        ...base,
        reason: 'event',
        watch: 'for',
        kind: 'x/v1/Memcached',
        event: 'add',
        object: 'default/m',
        folded: 2,
      }),
    ).toBe('Memcached default/m added (+2 folded)');
    expect(formatTrigger({ ...base, reason: 'requeueAfter', phrase: 'requeueAfter 5000ms' })).toBe(
      'requeue after 5.0 s',
    );
    expect(formatTrigger({ ...base, reason: 'backoff', phrase: 'backoff 10ms' })).toBe('backoff after error 10 ms');
    expect(formatTrigger({ ...base, reason: 'direct' })).toBe("queued by the controller's code");
    expect(formatTrigger({ ...base, reason: 'event', event: 'update', manual: true })).toBe('manual trigger');
    expect(formatMs(999)).toBe('999 ms');
    expect(formatMs(90_000)).toBe('1.5 min');
  });
});

describe('console webhook calls', () => {
  it('reads a denial with its field paths, and a patch decoded', () => {
    const request = {
      kind: 'AdmissionReview',
      request: { uid: 'u', operation: 'CREATE', kind: { kind: 'Memcached' }, namespace: 'default', name: 'big' },
    };
    const denied = webhookCallOf({
      path: '/validate',
      at: 1,
      durationMs: 2,
      status: 200,
      request,
      response: {
        response: {
          uid: 'u',
          allowed: false,
          status: {
            message: 'Memcached "big" is invalid',
            code: 422,
            details: { causes: [{ field: 'spec.size', message: 'must be at most 10' }] },
          },
        },
      },
    });
    expect(denied).toMatchObject({
      type: 'admission',
      operation: 'CREATE',
      kind: 'Memcached',
      object: 'default/big',
      allowed: false,
    });
    expect(denied.denial).toEqual({
      message: 'Memcached "big" is invalid',
      code: 422,
      causes: [{ field: 'spec.size', message: 'must be at most 10' }],
    });
    const ops = [{ op: 'add', path: '/spec/size', value: 1 }];
    const patched = webhookCallOf({
      path: '/mutate',
      at: 1,
      durationMs: 2,
      status: 200,
      request,
      response: {
        response: {
          uid: 'u',
          allowed: true,
          patchType: 'JSONPatch',
          patch: Buffer.from(JSON.stringify(ops)).toString('base64'),
        },
      },
    });
    expect(patched.patch).toEqual(ops);
    expect(patched.denial).toBeUndefined();
  });

  it('reads a conversion', () => {
    const call = webhookCallOf({
      path: '/convert',
      at: 1,
      durationMs: 2,
      status: 200,
      request: {
        kind: 'ConversionReview',
        request: { desiredAPIVersion: 'x/v2', objects: [{ kind: 'Memcached', metadata: { name: 'a' } }] },
      },
      response: { response: { result: { status: 'Success' } } },
    });
    expect(call).toMatchObject({
      type: 'conversion',
      operation: 'to x/v2',
      kind: 'Memcached',
      object: 'a',
      allowed: true,
    });
  });
});

describe('console store', () => {
  it('joins calls exported before their reconcile, and tells each reconcile to the listeners', () => {
    const store = new ConsoleStore();
    const seen: ConsoleEvent[] = [];
    store.subscribe((e) => seen.push(e));
    store.addSpans(
      spansOf(
        otlp([callSpan('c1', 's1', 'GET', '/apis/x/v1/namespaces/default/memcacheds/m1', 1001, 1002, 'default/m1')]),
      ),
    );
    expect(seen).toEqual([]);
    store.addSpans(spansOf(otlp([reconcileSpan('s1', 1000, 1010)])));
    store.addSpans(
      spansOf(
        otlp([
          callSpan('c2', 's1', 'PUT', '/apis/x/v1/namespaces/default/memcacheds/m1/status', 1003, 1008, 'default/m1'),
        ]),
      ),
    );
    const last = seen.at(-1);
    expect(last?.type).toBe('reconcile');
    expect(last?.type === 'reconcile' && last.data.calls.map((c) => c.spanId)).toEqual(['c1', 'c2']);
    expect(store.snapshot().reconciles).toHaveLength(1);
  });

  it('keeps object versions with their diff, the reconcile that wrote each and the one each caused', () => {
    const store = new ConsoleStore();
    const m = (rv: string, size: number, status?: string) => ({
      apiVersion: 'x/v1',
      kind: 'Memcached',
      metadata: { name: 'm1', namespace: 'default', uid: 'u1', resourceVersion: rv },
      spec: { size },
      ...(status ? { status: { phase: status } } : {}),
    });
    store.addObjectEvent('ADDED', m('1', 1), true, 1000);
    store.addObjectEvent('ADDED', m('1', 1), true, 1001); // a relist repeats it
    store.addSpans(spansOf(otlp([reconcileSpan('s1', 1005, 1020)])));
    store.addSpans(
      spansOf(
        otlp([
          callSpan('c1', 's1', 'PUT', '/apis/x/v1/namespaces/default/memcacheds/m1/status', 1010, 1015, 'default/m1'),
        ]),
      ),
    );
    store.addObjectEvent('MODIFIED', m('2', 1, 'Ready'), true, 1018);
    const detail = store.detail('u1')!;
    expect(detail.versions).toHaveLength(2);
    expect(detail.versions[0]?.caused?.spanId).toBe('s1');
    expect(detail.versions[1]?.changes).toEqual([{ path: 'status', op: 'added', after: { phase: 'Ready' } }]);
    expect(detail.versions[1]?.writtenBy).toEqual({
      spanId: 's1',
      controller: 'memcached',
      object: 'default/m1',
      call: 'k8s.Status.Update',
    });
    // An edit by someone else (kubectl) has no reconcile that wrote it.
    store.addObjectEvent('MODIFIED', m('3', 2, 'Ready'), true, 1600);
    expect(store.detail('u1')!.versions[2]?.writtenBy).toBeUndefined();
    expect(store.detail('nope')).toBeUndefined();
  });

  it("takes versions from two sources (its watch, the operator's report) once each and in order", () => {
    const store = new ConsoleStore();
    const m = (rv: string, size: number) => ({
      apiVersion: 'x/v1',
      kind: 'Memcached',
      metadata: { name: 'm1', namespace: 'default', uid: 'u1', resourceVersion: rv },
      spec: { size },
    });
    store.addObjectEvent('ADDED', m('9', 1), true, 1000);
    store.addObjectEvent('MODIFIED', m('10', 2), true, 1001);
    // The slower source tells both again; the older arrives after the newer.
    store.addObjectEvent('ADDED', m('9', 1), true, 1002);
    store.addObjectEvent('MODIFIED', m('10', 2), true, 1003);
    store.addObjectEvent('DELETED', m('10', 2), true, 1004);
    store.addObjectEvent('DELETED', m('10', 2), true, 1005);
    expect(store.detail('u1')!.versions.map((v) => `${v.type} ${v.resourceVersion}`)).toEqual([
      'ADDED 9',
      'MODIFIED 10',
      'DELETED 10',
    ]);
  });

  it('deletes the objects of a kind that a complete list of it lacks, whatever their version', () => {
    const store = new ConsoleStore();
    const o = (uid: string, apiVersion: string, kind: string) => ({
      apiVersion,
      kind,
      metadata: { name: uid, namespace: 'default', uid, resourceVersion: '5' },
    });
    store.addObjectEvent('ADDED', o('kept', 'x/v1', 'Memcached'), true, 1000);
    store.addObjectEvent('ADDED', o('gone', 'x/v1beta1', 'Memcached'), true, 1000);
    store.addObjectEvent('ADDED', o('other-group', 'y/v1', 'Memcached'), true, 1000);
    store.addObjectEvent('ADDED', o('other-kind', 'x/v1', 'Cache'), true, 1000);
    const told: ConsoleEvent[] = [];
    store.subscribe((e) => told.push(e));
    store.keepOnly({ apiVersion: 'x/v1', kind: 'Memcached' }, new Set(['kept']), 2000);
    const deleted = store
      .snapshot()
      .objects.filter((s) => s.deleted)
      .map((s) => s.uid);
    expect(deleted).toEqual(['gone']);
    expect(store.detail('gone')!.versions.at(-1)).toMatchObject({ type: 'DELETED', at: 2000 });
    expect(told.map((e) => e.type)).toEqual(['object']);
  });

  it('reads core/v1 and events.k8s.io/v1 Events, and shows those it is given beside the object', () => {
    const core = kubeEventOf({
      metadata: { name: 'e1', creationTimestamp: '2026-01-01T00:00:00Z' },
      involvedObject: { kind: 'Memcached', namespace: 'default', name: 'm1', uid: 'u1' },
      type: 'Warning',
      reason: 'Failed',
      message: 'no image',
      count: 3,
      lastTimestamp: '2026-01-01T00:00:05Z',
      source: { component: 'memcached-controller' },
    });
    expect(core).toEqual({
      at: Date.parse('2026-01-01T00:00:05Z'),
      type: 'Warning',
      reason: 'Failed',
      message: 'no image',
      count: 3,
      involved: { kind: 'Memcached', namespace: 'default', name: 'm1', uid: 'u1' },
      source: 'memcached-controller',
    });
    const v1 = kubeEventOf({
      regarding: { kind: 'Memcached', name: 'm1' },
      note: 'reconciled',
      eventTime: '2026-01-01T00:00:07.123456Z',
      reportingController: 'memcached',
    });
    expect(v1).toMatchObject({
      at: Date.parse('2026-01-01T00:00:07.123Z'),
      message: 'reconciled',
      count: 1,
      source: 'memcached',
    });
    const store = new ConsoleStore();
    store.addObjectEvent(
      'ADDED',
      {
        apiVersion: 'x/v1',
        kind: 'Memcached',
        metadata: { name: 'm1', namespace: 'default', uid: 'u1', resourceVersion: '1' },
      },
      true,
    );
    expect(store.detail('u1')?.events).toEqual([]);
    expect(store.detail('u1', [core, v1])?.events).toEqual([core, v1]);
  });

  it('marks the update a reconcile request caused as a manual trigger', () => {
    const store = new ConsoleStore();
    store.requestedReconcile('Memcached', 'default/m1', 1000);
    store.addSpans(spansOf(otlp([reconcileSpan('s1', 1050, 1060)])));
    expect(store.snapshot().reconciles[0]?.trigger.manual).toBe(true);
    store.addSpans(spansOf(otlp([reconcileSpan('s2', 1070, 1080)])));
    expect(store.snapshot().reconciles[1]?.trigger.manual).toBeUndefined();
  });

  it('is bounded: reconciles and objects past their limits push the oldest out', () => {
    const store = new ConsoleStore();
    const spans = [];
    for (let i = 0; i < LIMITS.reconciles + 10; i++) spans.push(reconcileSpan(`s${i}`, i, i + 1));
    store.addSpans(spansOf(otlp(spans)));
    const kept = store.snapshot().reconciles;
    expect(kept).toHaveLength(LIMITS.reconciles);
    expect(kept[0]?.spanId).toBe('s10');
    for (let i = 0; i < LIMITS.objects + 5; i++)
      store.addObjectEvent(
        'ADDED',
        { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `c${i}`, uid: `u${i}`, resourceVersion: '1' } },
        false,
        i,
      );
    expect(store.snapshot().objects).toHaveLength(LIMITS.objects);
    expect(store.find('u0')).toBeUndefined();
    expect(store.find(`u${LIMITS.objects + 4}`)).toBeDefined();
  });

  it('ticks the controllers: queue state from /debug/controllers, rates from the spans', () => {
    const store = new ConsoleStore();
    store.addSpans(
      spansOf(otlp([reconcileSpan('s1', 1, 2), reconcileSpan('s2', 3, 4, [['tsop.result', 'requeue_after']])])),
    );
    const point = store.tick({
      controllers: [
        {
          name: 'memcached',
          workers: 2,
          queue: {
            depth: 1,
            delayedTotal: 1,
            inFlight: [
              {
                key: 'default/a',
                forMs: 5,
                trigger: { reason: 'event', watch: 'owns', kind: 'apps/v1/Deployment', event: 'update', folded: 0 },
              },
            ],
            delayed: [{ key: 'default/b', inMs: 900, trigger: { reason: 'requeueAfter', delayMs: 1000, folded: 0 } }],
          },
        },
      ],
    });
    expect(point.controllers).toEqual([
      {
        name: 'memcached',
        workers: 2,
        busy: 1,
        depth: 2,
        reconciles: 2,
        errors: 0,
        requeues: 1,
        waiting: [
          { key: 'default/a', forMs: 5, cause: 'Deployment update (owned)', state: 'in flight' },
          { key: 'default/b', inMs: 900, cause: 'requeueAfter 1000 ms', state: 'delayed' },
        ],
      },
    ]);
    expect(store.tick(undefined).controllers[0]).toMatchObject({ name: 'memcached', reconciles: 0 });
  });
});

describe("the console's reading of /debug/controllers", () => {
  it('asks the operator for an ephemeral port and reads the one it is told, none while the operator restarts', async () => {
    const devConsole = new DevConsole();
    // A port chosen here and bound by the operator a minute later could be taken in between.
    expect(devConsole.operatorArgs()).toEqual(['--health-probe-bind-address=127.0.0.1:0', '--debug-controllers']);
    const probes = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ controllers: [{ name: 'memcached', workers: 3, queue: { depth: 0 } }] }));
    });
    await new Promise<void>((resolve) => probes.listen(0, '127.0.0.1', resolve));
    const points: Array<{ workers: number } | undefined> = [];
    const unsubscribe = devConsole.store.subscribe((e) => {
      if (e.type === 'controllers') points.push(e.data.controllers[0]);
    });
    try {
      await devConsole.start();
      const next = async (): Promise<{ workers: number } | undefined> => {
        const seen = points.length;
        await vi.waitFor(() => expect(points.length).toBeGreaterThan(seen), { timeout: 5_000, interval: 50 });
        return points.at(-1);
      };
      expect(await next()).toBeUndefined();
      devConsole.operatorProbes((probes.address() as AddressInfo).port);
      await next();
      expect(await next()).toMatchObject({ name: 'memcached', workers: 3 });
      devConsole.operatorProbes(undefined);
      await next();
      expect(await next()).toMatchObject({ name: 'memcached', workers: 0 });
    } finally {
      unsubscribe();
      await devConsole.stop();
      await new Promise((resolve) => probes.close(resolve));
    }
    // Five ticks of a second: a tick under way when the port changes reads the one before.
  }, 15_000);
});

describe('the console watch', () => {
  it('reads one event per line of the raw stream, and nothing else', () => {
    const object = { kind: 'Memcached', metadata: { name: 'm0', annotations: { note: '}{"\n' } } };
    expect(watchEventOf(JSON.stringify({ type: 'ADDED', object }))).toEqual({ type: 'ADDED', object });
    expect(watchEventOf('')).toBeUndefined();
    expect(watchEventOf('{"type":')).toBeUndefined();
    expect(watchEventOf('{"kind":"Status"}')).toBeUndefined();
    expect(
      watchEventOf('Error from server (NotFound): the server could not find the requested resource'),
    ).toBeUndefined();
  });

  it("watches a served kind at its storage version and an owned kind at discovery's, across namespaces", () => {
    const root = mkdtempSync(join(tmpdir(), 'tsop-console-resources-'));
    try {
      mkdirSync(join(root, 'config/crd/bases'), { recursive: true });
      mkdirSync(join(root, 'config/rbac'), { recursive: true });
      writeFileSync(
        join(root, 'config/crd/bases/cache.example.com_memcacheds.yaml'),
        [
          'spec:',
          '  group: cache.example.com',
          '  names: { plural: memcacheds }',
          '  versions:',
          '    - { name: v1alpha1, served: true, storage: false }',
          '    - { name: v1, served: true, storage: true }',
        ].join('\n'),
      );
      writeFileSync(
        join(root, 'config/rbac/role.yaml'),
        [
          'rules:',
          '  - { apiGroups: [apps], resources: [deployments, deployments/status], verbs: [create, get] }',
          '  - { apiGroups: [""], resources: [configmaps, events], verbs: [create] }',
          '  - { apiGroups: [""], resources: [secrets], verbs: [get] }',
        ].join('\n'),
      );
      const found = watchedResources(root);
      expect(found.map((r) => [r.resource, r.version, r.served])).toEqual([
        ['memcacheds.cache.example.com', 'v1', true],
        ['deployments.apps', undefined, false],
        ['configmaps', 'v1', false],
      ]);
      expect(found.map((r) => (r.version ? collectionPath(r, r.version) : r.group))).toEqual([
        '/apis/cache.example.com/v1/memcacheds',
        'apps',
        '/api/v1/configmaps',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('nothing of the console in a production build', () => {
  const TSOP = fileURLToPath(new URL('../../', import.meta.url));

  it("leaves the scaffolded main.ts and Dockerfile without any of the console's variables or flags", () => {
    for (const file of ['templates/base/src/main.ts.hbs', 'templates/base/Dockerfile']) {
      const text = readFileSync(join(TSOP, file), 'utf8');
      for (const word of [
        DEV_CONSOLE_ENV,
        'OTEL_BSP_SCHEDULE_DELAY',
        'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
        'debug-controllers',
        '/dev/webhooks',
        '/dev/objects',
        '/dev/spans',
      ])
        expect(text, `${file} mentions ${word}`).not.toContain(word);
    }
  });

  it('has the webhook server report nothing unless TSOP_DEV_CONSOLE_URL names a loopback http URL', () => {
    expect(devConsoleReporter({})).toBeUndefined();
    expect(devConsoleReporter({ [DEV_CONSOLE_ENV]: 'http://example.com:8080' })).toBeUndefined();
    expect(devConsoleReporter({ [DEV_CONSOLE_ENV]: 'https://127.0.0.1:8080' })).toBeUndefined();
    expect(devConsoleReporter({ [DEV_CONSOLE_ENV]: 'not a url' })).toBeUndefined();
    expect(devConsoleReporter({ [DEV_CONSOLE_ENV]: 'http://127.0.0.1:8080' })).toBeTypeOf('function');
  });

  it("has the manager report its informers' objects only when TSOP_DEV_CONSOLE_URL names a loopback http URL", () => {
    const mapper = { mapping: () => Promise.reject(new Error('not asked')) };
    expect(DevObjectReporter.fromEnv(mapper, {})).toBeUndefined();
    expect(DevObjectReporter.fromEnv(mapper, { [DEV_CONSOLE_ENV]: 'http://example.com:8080' })).toBeUndefined();
    expect(DevObjectReporter.fromEnv(mapper, { [DEV_CONSOLE_ENV]: 'http://127.0.0.1:8080' })).toBeInstanceOf(
      DevObjectReporter,
    );
  });
});
