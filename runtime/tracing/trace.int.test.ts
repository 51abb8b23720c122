import type { V1Deployment } from '@kubernetes/client-node';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { createClient, mergePatch, type Client } from '../client/index.js';
import { createLogger } from '../log/index.js';
import { memoryDestination } from '../log/memory.js';
import type { Trigger } from '../reconcile/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { DEPLOYMENT, GIZMO, type Gizmo } from '../test-fixtures/gizmo-reconciler.js';
import { CRD_DIR, ensureNamespace, waitFor } from '../test-fixtures/helpers.js';
import { ReconcileAttributes as A, TRACER_NAME } from './index.js';
import { testManager } from '../testing/manager.js';

const NS = 'trace';
const NS2 = 'trace-requeue';
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(async () => {
  trace.disable();
  context.disable();
  await provider.shutdown();
});

function deploymentFor(g: Gizmo): V1Deployment & { apiVersion: string; kind: string } {
  const labels = { app: g.metadata!.name! };
  return {
    ...DEPLOYMENT,
    metadata: {
      name: g.metadata!.name!,
      namespace: NS,
      ownerReferences: [
        { ...GIZMO, name: g.metadata!.name!, uid: g.metadata!.uid!, controller: true, blockOwnerDeletion: true },
      ],
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    },
  };
}

describeWithControlPlane(
  'why did it reconcile: trigger, log line and span',
  { shared: true, crdDirectoryPaths: [CRD_DIR] },
  (env) => {
    let api: Client;
    beforeAll(() => {
      api = createClient(env.cp.kubeConfig);
    });

    it("an owned Deployment's change shows in ctx.trigger, the log line and the span; events that wait are folded and counted", async () => {
      await ensureNamespace(api, NS);
      const logs = memoryDestination();
      const mgr = testManager(env, {
        namespace: NS,
        logger: createLogger({ level: 'debug', destination: logs }),
      });
      const seen: Array<{ reconcileID: string; trigger: Trigger | undefined }> = [];
      let hold: Promise<void> | undefined;
      let holding = false;
      controllerFor(mgr, GIZMO)
        .owns(DEPLOYMENT)
        .complete({
          async reconcile(req, ctx) {
            seen.push({ reconcileID: ctx.reconcileID, trigger: ctx.trigger });
            if (hold) {
              holding = true;
              await hold;
              holding = false;
            }
            // A direct read, so the reconcile makes an API call that must become its child span.
            const g = await mgr.client.apiReader().get<Gizmo>(GIZMO, req);
            const existing = await mgr.client.get(DEPLOYMENT, req).catch(() => undefined);
            if (!existing) await mgr.client.create(deploymentFor(g));
            return {};
          },
        });
      const ac = new AbortController();
      const run = mgr.start(ac.signal);
      try {
        await api.create<Gizmo>({ ...GIZMO, metadata: { name: 'g1', namespace: NS }, spec: { replicas: 1 } });
        await waitFor(
          'the owned Deployment',
          async () =>
            await api.get(DEPLOYMENT, { namespace: NS, name: 'g1' }).then(
              () => true,
              () => false,
            ),
        );
        // The Gizmo's own add came through the For watch.
        await waitFor('the owned Deployment reconciled back', () =>
          seen.some((s) => s.trigger?.reason === 'event' && s.trigger.watch === 'owns'),
        );
        expect(seen[0]!.trigger).toMatchObject({
          reason: 'event',
          watch: 'for',
          kind: 'fixtures.tsop.dev/v1/Gizmo',
          event: 'add',
          object: { namespace: NS, name: 'g1' },
        });

        // Hold the next reconcile, then change the Deployment three more times while it runs.
        let release!: () => void;
        hold = new Promise((r) => (release = r));
        const before = seen.length;
        const label = (v: string) =>
          api.patch(
            { ...DEPLOYMENT, metadata: { name: 'g1', namespace: NS } },
            mergePatch({ metadata: { labels: { step: v } } }),
          );
        await label('1');
        await waitFor('the held reconcile', () => holding);
        for (const v of ['2', '3', '4']) await label(v);
        await waitFor('the informer sees step 4', async () => {
          const d = await mgr.client.get<V1Deployment & { apiVersion: string; kind: string }>(DEPLOYMENT, {
            namespace: NS,
            name: 'g1',
          });
          return d.metadata?.labels?.['step'] === '4';
        });
        hold = undefined;
        release();
        await waitFor('the folded reconcile', () => seen.length >= before + 2);

        const held = seen[before]!;
        const folded = seen[before + 1]!;
        const ownsUpdate = {
          reason: 'event',
          watch: 'owns',
          kind: 'apps/v1/Deployment',
          event: 'update',
          object: { namespace: NS, name: 'g1' },
        };
        expect(held.trigger).toMatchObject({ ...ownsUpdate, folded: 0 });
        // Three updates arrived while the key was in flight: one queued item, two folded into it.
        expect(folded.trigger).toMatchObject({ ...ownsUpdate, folded: 2 });
        await waitFor('the spans ended', () =>
          exporter.getFinishedSpans().some((s) => s.attributes[A.reconcileID] === folded.reconcileID),
        );

        // The log line of that reconcile names the trigger.
        const line = logs.records().find((r) => r['reconcileID'] === folded.reconcileID && r['msg'] === 'Reconciled');
        expect(line).toMatchObject({
          controller: 'gizmo',
          namespace: NS,
          name: 'g1',
          result: 'success',
          trigger: 'owns apps/v1/Deployment update trace/g1 (+2 folded)',
        });

        // Its span carries controller, request, trigger and result, and the direct read is its child.
        const spans = exporter.getFinishedSpans();
        const span = spans.find((s) => s.attributes[A.reconcileID] === folded.reconcileID)!;
        // Named as controller-runtime's tracing proposal names them: a `Reconcile` span, `k8s.<Verb>` children.
        expect(span.name).toBe('Reconcile');
        expect(span.instrumentationScope.name).toBe(TRACER_NAME);
        expect(span.attributes).toMatchObject({
          controller: 'gizmo',
          namespace: NS,
          name: 'g1',
          objectKey: `${NS}/g1`,
          reconcileID: folded.reconcileID,
          [A.triggerReason]: 'event',
          [A.triggerWatch]: 'owns',
          [A.triggerKind]: 'apps/v1/Deployment',
          [A.triggerEvent]: 'update',
          [A.triggerObject]: 'trace/g1',
          [A.triggerFolded]: 2,
          [A.result]: 'success',
        });
        const children = spans.filter((s: ReadableSpan) => s.parentSpanContext?.spanId === span.spanContext().spanId);
        expect(
          children.map((c) => [
            c.name,
            c.attributes['url.path'],
            c.attributes['objectKey'],
            c.attributes['objectResource'],
          ]),
        ).toContainEqual([
          'k8s.Get',
          `/apis/fixtures.tsop.dev/v1/namespaces/${NS}/gizmos/g1`,
          `${NS}/g1`,
          'fixtures.tsop.dev/v1, Resource=gizmos',
        ]);
        expect(children.every((c) => c.spanContext().traceId === span.spanContext().traceId)).toBe(true);
      } finally {
        ac.abort();
        await run;
      }
    });

    it('a requeueAfter and an error are triggers of the next run, with their delay; the span records result, delay and error', async () => {
      await ensureNamespace(api, NS2);
      const mgr = testManager(env, { namespace: NS2 });
      const seen: Array<{ reconcileID: string; trigger: Trigger | undefined }> = [];
      controllerFor(mgr, GIZMO)
        .named('requeuer')
        .complete({
          async reconcile(req, ctx) {
            if (req.name !== 'g2') return {};
            seen.push({ reconcileID: ctx.reconcileID, trigger: ctx.trigger });
            if (seen.length === 1) return { requeueAfter: 50 };
            if (seen.length === 2) throw new Error('boom');
            return {};
          },
        });
      const ac = new AbortController();
      const run = mgr.start(ac.signal);
      try {
        await api.create<Gizmo>({ ...GIZMO, metadata: { name: 'g2', namespace: NS2 }, spec: { replicas: 1 } });
        await waitFor('three reconciles of g2', () => seen.length >= 3);
        expect(seen[1]!.trigger).toEqual({ reason: 'requeueAfter', delayMs: 50, folded: 0 });
        expect(seen[2]!.trigger).toMatchObject({ reason: 'backoff', folded: 0 });
        expect((seen[2]!.trigger as { delayMs: number }).delayMs).toBeGreaterThan(0);
        await waitFor('the spans ended', () =>
          exporter.getFinishedSpans().some((s) => s.attributes[A.reconcileID] === seen[2]!.reconcileID),
        );
        const byId = (id: string) => exporter.getFinishedSpans().find((s) => s.attributes[A.reconcileID] === id)!;
        expect(byId(seen[0]!.reconcileID).attributes).toMatchObject({
          [A.result]: 'requeue_after',
          [A.requeueAfterMs]: 50,
        });
        const failed = byId(seen[1]!.reconcileID);
        expect(failed.attributes).toMatchObject({ [A.result]: 'error', [A.trigger]: 'requeueAfter 50ms' });
        expect(failed.status).toMatchObject({ code: 2, message: 'boom' });
        expect(failed.events.map((e) => e.name)).toContain('exception');
      } finally {
        ac.abort();
        await run;
      }
    });
  },
);
