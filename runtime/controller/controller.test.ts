import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { enqueueForObject } from '../handler/index.js';
import { createLogger } from '../log/index.js';
import { runtimeMetrics } from '../metrics/index.js';
import { generationChanged, newPredicateFuncs } from '../predicate/index.js';
import { FakeClock, ItemExponentialRateLimiter } from '../queue/index.js';
import { ConflictError } from '../client/index.js';
import {
  TerminalError,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from '../reconcile/index.js';
import {
  CacheSyncTimeoutError,
  ChannelSource,
  Controller,
  eventPath,
  decideNext,
  isPanic,
  type InformerEvents,
  type Source,
} from './index.js';

const silent = createLogger({ level: 'silent' });

/** An in-memory event stream standing in for an informer (like kube-rs tests feed streams). */
class MemorySource implements Source {
  readonly description = 'memory';
  events: InformerEvents | undefined;
  start(events: InformerEvents) {
    this.events = events;
  }
  async waitForSync() {
    return true;
  }
}

const obj = (name: string, generation = 1): KubeObject => ({ metadata: { name, namespace: 'ns', generation } });

async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 2));
  }
}

async function untilAsync(cond: () => Promise<boolean>, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 2));
  }
}

function setup(
  reconcile: (req: Request, ctx: ReconcileContext) => Promise<Result>,
  extra: { workers?: number; clock?: FakeClock; reconciliationTimeoutMs?: number } = {},
) {
  const metrics = runtimeMetrics(new Registry());
  const source = new MemorySource();
  const c = new Controller({
    name: 'test',
    reconciler: { reconcile: (req, ctx) => reconcile(req, ctx) } satisfies Reconciler,
    maxConcurrentReconciles: extra.workers,
    // Small fixed backoff keeps retries fast without a token bucket in the way.
    rateLimiter: new ItemExponentialRateLimiter(1, 50),
    metrics,
    logger: silent,
    clock: extra.clock,
    reconciliationTimeoutMs: extra.reconciliationTimeoutMs,
  });
  c.watch(source, enqueueForObject(), generationChanged());
  const ac = new AbortController();
  const done = c.start(ac.signal);
  const value = async (name: string, labels: Record<string, string>) => {
    const m = await metrics.registry.getSingleMetric(name)!.get();
    return m.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value ?? 0;
  };
  return { c, source, ac, done, value };
}

describe('decideNext (the worker switch input)', () => {
  it('maps every outcome', () => {
    expect(decideNext({ result: undefined })).toEqual({ kind: 'success' });
    expect(decideNext({ result: { requeueAfter: 0 } })).toEqual({ kind: 'success' });
    expect(decideNext({ result: { requeueAfter: 50, requeue: true } })).toEqual({ kind: 'requeue_after', delayMs: 50 });
    expect(decideNext({ result: { requeue: true } })).toEqual({ kind: 'requeue' });
    const conflict = new ConflictError(
      409,
      { reason: 'Conflict', message: 'the object has been modified' },
      { method: 'PUT', path: '/api/v1/namespaces/a/configmaps/b' },
    );
    expect(decideNext({ thrown: conflict })).toEqual({ kind: 'requeue', conflict: true });
    const plain = new Error('x');
    expect(decideNext({ thrown: plain })).toEqual({ kind: 'error', err: plain, panic: false });
    const wrapped = new Error('outer', { cause: new TerminalError('bad spec') });
    expect(decideNext({ thrown: wrapped }).kind).toBe('terminal');
    expect(decideNext({ thrown: 'a string' })).toMatchObject({ kind: 'error', panic: true });
  });

  it('treats engine errors and non-Errors as panics, operational errors not', () => {
    expect(isPanic(new TypeError('x is undefined'))).toBe(true);
    expect(isPanic(new RangeError('x'))).toBe(true);
    expect(isPanic(42)).toBe(true);
    expect(isPanic(new Error('conflict'))).toBe(false);
    expect(isPanic(new TerminalError('t'))).toBe(false);
  });

  it('does not count network and data-parsing failures as panics', async () => {
    // A real fetch failure: nothing listens on port 1.
    const network = await fetch('http://127.0.0.1:1/').catch((e: unknown) => e);
    expect(network).toBeInstanceOf(TypeError);
    expect(isPanic(network)).toBe(false);
    const json = (() => {
      try {
        return JSON.parse('{not json');
      } catch (e) {
        return e;
      }
    })();
    expect(json).toBeInstanceOf(SyntaxError);
    expect(isPanic(json)).toBe(false);
    expect(isPanic(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(true);
  });
});

describe('Controller', () => {
  it('queues the initial list and resyncs at low priority, real changes at normal priority', () => {
    const added: string[] = [];
    const events = eventPath(enqueueForObject(), [], {
      add: (k) => added.push(`${k} 0`),
      addWithPriority: (k, p) => added.push(`${k} ${p}`),
    });
    const rv = (name: string, v: string): KubeObject => ({ metadata: { name, namespace: 'ns', resourceVersion: v } });
    events.onAdd(rv('listed', '1'), { isInInitialList: true });
    events.onAdd(rv('created', '2'), { isInInitialList: false });
    events.onUpdate(rv('resynced', '3'), rv('resynced', '3'));
    events.onUpdate(rv('edited', '3'), rv('edited', '4'));
    expect(added).toEqual(['ns/listed -100', 'ns/created 0', 'ns/resynced -100', 'ns/edited 0']);
  });

  it('passes deleteStateUnknown from the source to predicates and handlers', () => {
    const seen: Array<boolean | undefined> = [];
    const keys: string[] = [];
    const events = eventPath(
      enqueueForObject(),
      [
        newPredicateFuncs(() => true),
        {
          create: () => true,
          update: () => true,
          generic: () => true,
          delete: (e) => (seen.push(e.deleteStateUnknown), true),
        },
      ],
      { add: (k) => keys.push(k) },
    );
    events.onDelete(obj('watched'));
    events.onDelete(obj('relisted'), { deleteStateUnknown: true });
    expect(seen).toEqual([undefined, true]);
    expect(keys).toEqual(['ns/watched', 'ns/relisted']);
  });

  it('aborts ctx.signal after reconciliationTimeoutMs with a TimeoutError and counts it', async () => {
    const reasons: unknown[] = [];
    const t = setup(
      async (req, ctx) => {
        if (req.name === 'quick') return;
        await new Promise((r) => ctx.signal.addEventListener('abort', r, { once: true }));
        reasons.push(ctx.signal.reason);
        throw ctx.signal.reason;
      },
      { reconciliationTimeoutMs: 50 },
    );
    t.source.events!.onAdd(obj('quick'));
    t.source.events!.onAdd(obj('hung'));
    await untilAsync(
      async () => (await t.value('controller_runtime_reconcile_timeouts_total', { controller: 'test' })) === 1,
    );
    expect((reasons[0] as DOMException).name).toBe('TimeoutError');
    expect((reasons[0] as Error).message).toBe('reconcile exceeded its reconciliationTimeout of 50 ms');
    expect(await t.value('controller_runtime_reconcile_total', { result: 'success' })).toBe(1);
    expect(await t.value('controller_runtime_reconcile_errors_total', {})).toBeGreaterThanOrEqual(1);
    t.ac.abort();
    await t.done;
  });

  it('fails start after cacheSyncTimeoutMs naming each unsynced source and why', async () => {
    const stuck: Source = {
      description: 'kind source: v1, Kind=Phantom',
      start() {},
      waitForSync: (signal) => new Promise((r) => signal.addEventListener('abort', () => r(false), { once: true })),
      syncFailure: () => 'resolving resource: no matches for kind "Phantom" in version "v1" (is its CRD installed?)',
    };
    const c = new Controller({
      name: 'stuck',
      reconciler: { reconcile: async () => {} },
      cacheSyncTimeoutMs: 50,
      logger: silent,
      metrics: runtimeMetrics(new Registry()),
    });
    c.watch(new MemorySource(), enqueueForObject());
    c.watch(stuck, enqueueForObject());
    const err = await c.start(new AbortController().signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CacheSyncTimeoutError);
    expect((err as Error).message).toBe(
      'controller stuck: sources not synced after 50 ms: kind source: v1, Kind=Phantom: resolving resource: no matches for kind "Phantom" in version "v1" (is its CRD installed?)',
    );
  });

  it('routes events through predicates and handler to reconcile', async () => {
    const seen: string[] = [];
    const t = setup(async (req) => void seen.push(`${req.namespace}/${req.name}`));
    await until(() => t.source.events !== undefined);
    t.source.events!.onAdd(obj('a'));
    await until(() => seen.length === 1);
    t.source.events!.onUpdate(obj('a', 1), obj('a', 1)); // generation unchanged: filtered out
    t.source.events!.onUpdate(obj('b', 1), obj('b', 2));
    await until(() => seen.length === 2);
    expect(seen).toEqual(['ns/a', 'ns/b']);
    expect(await t.value('controller_runtime_reconcile_total', { controller: 'test', result: 'success' })).toBe(2);
    t.ac.abort();
    await t.done;
  });

  it('retries a failing key with growing backoff and forgets it after success', async () => {
    let calls = 0;
    const t = setup(async () => {
      calls++;
      if (calls < 4) throw new Error('transient');
    });
    await until(() => t.source.events !== undefined);
    t.source.events!.onAdd(obj('a'));
    await until(() => calls === 4);
    await untilAsync(async () => (await t.value('controller_runtime_reconcile_total', { result: 'success' })) === 1);
    expect(t.c.queue.numRequeues('ns/a')).toBe(0);
    expect(await t.value('controller_runtime_reconcile_errors_total', { controller: 'test' })).toBe(3);
    expect(await t.value('controller_runtime_reconcile_total', { result: 'error' })).toBe(3);
    expect(await t.value('workqueue_retries_total', { name: 'test' })).toBe(3);
    t.ac.abort();
    await t.done;
  });

  it('does not requeue a terminal error and keeps the worker alive after a panic', async () => {
    const seen: string[] = [];
    const t = setup(async (req) => {
      seen.push(req.name);
      if (req.name === 'terminal') throw new TerminalError('invalid spec');
      if (req.name === 'panic' && seen.filter((n) => n === 'panic').length === 1) {
        const missing = undefined as unknown as { field: string };
        return { requeueAfter: missing.field.length };
      }
    });
    await until(() => t.source.events !== undefined);
    t.source.events!.onAdd(obj('terminal'));
    t.source.events!.onAdd(obj('panic'));
    await until(() => seen.filter((n) => n === 'panic').length === 2); // retried after the panic
    t.source.events!.onAdd(obj('after'));
    await until(() => seen.includes('after'));
    expect(seen.filter((n) => n === 'terminal')).toHaveLength(1);
    expect(t.c.queue.numRequeues('ns/terminal')).toBe(0);
    expect(await t.value('controller_runtime_terminal_reconcile_errors_total', {})).toBe(1);
    expect(await t.value('controller_runtime_reconcile_panics_total', {})).toBe(1);
    expect(await t.value('controller_runtime_reconcile_errors_total', {})).toBe(2);
    t.ac.abort();
    await t.done;
  });

  it('requeueAfter adds the key after exactly the delay (fake clock)', async () => {
    const clock = new FakeClock();
    let calls = 0;
    const t = setup(
      async () => {
        calls++;
        return calls === 1 ? { requeueAfter: 30_000 } : undefined;
      },
      { clock },
    );
    await until(() => t.source.events !== undefined);
    t.source.events!.onAdd(obj('a'));
    await until(() => calls === 1);
    await new Promise((r) => setTimeout(r, 20));
    clock.advance(29_999);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toBe(1);
    clock.advance(1);
    await until(() => calls === 2);
    expect(await t.value('controller_runtime_reconcile_total', { result: 'requeue_after' })).toBe(1);
    t.ac.abort();
    await t.done;
  });

  it('runs up to maxConcurrentReconciles keys at once, never one key twice', async () => {
    const inFlight = new Set<string>();
    let peak = 0;
    let overlaps = 0;
    let runs = 0;
    const t = setup(
      async (req) => {
        if (inFlight.has(req.name)) overlaps++;
        inFlight.add(req.name);
        peak = Math.max(peak, inFlight.size);
        await new Promise((r) => setTimeout(r, 15));
        inFlight.delete(req.name);
        runs++;
      },
      { workers: 3 },
    );
    await until(() => t.source.events !== undefined);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 6; i++) t.source.events!.onUpdate(obj(`k${i}`, round), obj(`k${i}`, round + 1));
      await new Promise((r) => setTimeout(r, 5));
    }
    await until(() => inFlight.size === 0 && t.c.queue.len() === 0 && runs >= 6, 5000);
    expect(peak).toBe(3);
    expect(overlaps).toBe(0);
    t.ac.abort();
    await t.done;
  });

  it('on abort stops taking keys and resolves only after in-flight reconciles finish', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const log: string[] = [];
    const t = setup(async (req) => {
      log.push(`start ${req.name}`);
      await gate;
      log.push(`end ${req.name}`);
    });
    await until(() => t.source.events !== undefined);
    t.source.events!.onAdd(obj('a'));
    t.source.events!.onAdd(obj('b')); // waits behind 'a' with one worker
    await until(() => log.length === 1);
    t.ac.abort();
    setTimeout(release, 30);
    await t.done;
    log.push('stopped');
    expect(log).toEqual(['start a', 'end a', 'stopped']);
  });

  it('drops an invalid key from a map function without losing the worker', async () => {
    const seen: string[] = [];
    const t = setup(async (req) => void seen.push(req.name));
    await until(() => t.source.events !== undefined);
    t.c.queue.add('a/b/c'); // what a map function returning { namespace: 'a', name: 'b/c' } yields
    t.source.events!.onAdd(obj('fine'));
    await until(() => seen.length === 1);
    expect(seen).toEqual(['fine']);
    expect(await t.value('controller_runtime_reconcile_total', { result: 'error' })).toBe(0);
    t.ac.abort();
    await t.done;
  });

  it('delivers pushed objects from a ChannelSource as generic events, through predicates', async () => {
    const seen: string[] = [];
    const channel = new ChannelSource('alerts');
    const c = new Controller({
      name: 'channel',
      reconciler: { reconcile: async (req) => void seen.push(req.name) },
      metrics: runtimeMetrics(new Registry()),
      logger: silent,
    });
    c.watch(
      channel,
      enqueueForObject(),
      newPredicateFuncs((o) => o.metadata?.labels?.['drop'] !== 'yes'),
    );
    channel.push(obj('early')); // before start: kept and delivered on start
    const ac = new AbortController();
    const done = c.start(ac.signal);
    await until(() => seen.length === 1);
    channel.push({ metadata: { name: 'dropped', namespace: 'ns', labels: { drop: 'yes' } } });
    channel.push(obj('late'));
    await until(() => seen.length === 2);
    expect(seen).toEqual(['early', 'late']);
    ac.abort();
    await done;
  });
});

describe('reconcile logging', () => {
  it('writes each field once per line: controller, namespace, name, reconcileID', async () => {
    const raw: string[] = [];
    const dest = {
      write: (msg: string) => void raw.push(...msg.split('\n').filter((l) => l.trim() !== '')),
      records: () => raw.map((l) => JSON.parse(l) as Record<string, unknown>),
    };
    const c = new Controller({
      name: 'logged',
      reconciler: {
        reconcile: async (_req, ctx) => {
          ctx.log.info('inside');
          throw new Error('boom');
        },
      },
      metrics: runtimeMetrics(new Registry()),
      logger: createLogger({ level: 'info', destination: dest }),
      rateLimiter: new ItemExponentialRateLimiter(1000, 1000),
    });
    const source = new MemorySource();
    c.watch(source, enqueueForObject());
    const ac = new AbortController();
    const done = c.start(ac.signal);
    await until(() => source.events !== undefined);
    source.events!.onAdd(obj('x'));
    await until(() => dest.records().some((r) => r['msg'] === 'Reconciler error'));
    ac.abort();
    await done;
    const lines = dest.records().filter((r) => r['reconcileID'] !== undefined);
    expect(lines.map((r) => r['msg'])).toEqual(['inside', 'Reconciler error']);
    for (const r of lines) expect(r).toMatchObject({ controller: 'logged', namespace: 'ns', name: 'x' });
    expect(lines[0]!['reconcileID']).toBe(lines[1]!['reconcileID']);
    // Raw JSON, not the parsed record: a repeated key would be silently collapsed by JSON.parse.
    expect(raw.filter((l) => l.includes('"inside"'))[0]!.match(/"controller":/g)).toHaveLength(1);
  });
});
