import { expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { createClient, type Client } from '../client/index.js';
import { createLogger, memoryDestination } from '../log/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { createEventRecorder, type EventObject } from './index.js';

const EVENT = { apiVersion: 'events.k8s.io/v1', kind: 'Event' } as const;

describeWithControlPlane('event recorder against the API server', { shared: true }, (env) => {
  let seq = 0;
  const client = (): Client => createClient(env.cp.kubeConfig);
  const configMap = async (c: Client): Promise<KubeObject> =>
    c.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${++seq}`, namespace: env.namespace } });
  const eventsAbout = async (c: Client, name: string, namespace = env.namespace): Promise<EventObject[]> =>
    (await c.list<EventObject>(EVENT, { namespace, fieldSelector: `regarding.name=${name}` })).items;

  it('writes an events.k8s.io/v1 Event that reads back with every field', async () => {
    const c = client();
    const cm = await configMap(c);
    const rec = createEventRecorder(c, {
      reportingController: 'tsop.dev/test-controller',
      reportingInstance: 'test-1',
    });
    rec.event(cm, 'Normal', 'Created', 'CreateChild', 'created the child deployment');
    await rec.flush();
    const [ev, ...rest] = await eventsAbout(c, cm.metadata!.name!);
    expect(rest).toHaveLength(0);
    expect(ev).toMatchObject({
      reportingController: 'tsop.dev/test-controller',
      reportingInstance: 'test-1',
      type: 'Normal',
      reason: 'Created',
      action: 'CreateChild',
      note: 'created the child deployment',
      regarding: { kind: 'ConfigMap', name: cm.metadata!.name, namespace: env.namespace, uid: cm.metadata!.uid },
    });
    expect(ev?.eventTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(ev?.series).toBeUndefined();
  });

  it('folds repeats into one Event with a series count', async () => {
    const c = client();
    const cm = await configMap(c);
    const rec = createEventRecorder(c, { reportingController: 'tsop.dev/test-controller', seriesFlushMs: 0 });
    for (let i = 0; i < 5; i++) rec.event(cm, 'Warning', 'BackOff', 'Reconcile', `attempt ${i}`);
    await rec.flush();
    const events = await eventsAbout(c, cm.metadata!.name!);
    expect(events).toHaveLength(1);
    expect(events[0]?.series?.count).toBe(5);
    expect(events[0]?.note).toBe('attempt 0');
    // a different reason is a different event
    rec.event(cm, 'Warning', 'Failed', 'Reconcile', 'x');
    await rec.flush();
    expect(await eventsAbout(c, cm.metadata!.name!)).toHaveLength(2);
  });

  it('records the related object, and events about cluster-scoped objects land in "default"', async () => {
    const c = client();
    const cm = await configMap(c);
    // The test's own namespace: a cluster-scoped object no other test writes events about.
    const ns = await c.get<KubeObject>({ apiVersion: 'v1', kind: 'Namespace' }, { name: env.namespace });
    const rec = createEventRecorder(c, { reportingController: 'tsop.dev/test-controller' });
    rec.event(ns, 'Normal', 'Observed', 'Watch', 'namespace seen', cm);
    await rec.flush();
    const [ev, ...more] = await eventsAbout(c, env.namespace, 'default');
    expect(more).toHaveLength(0);
    expect(ev?.metadata?.namespace).toBe('default');
    expect(ev?.regarding).toMatchObject({ kind: 'Namespace', name: env.namespace });
    expect(ev?.related).toMatchObject({ kind: 'ConfigMap', name: cm.metadata!.name, namespace: env.namespace });
    expect(ev?.reportingInstance).toMatch(/^tsop\.dev\/test-controller-/);
  });

  it('logs instead of throwing when the API rejects an event', async () => {
    const dest = memoryDestination();
    const c = client();
    const rec = createEventRecorder(c, {
      reportingController: 'tsop.dev/test',
      logger: createLogger({ level: 'info', destination: dest }),
    });
    // a namespace that does not exist: the create fails with NotFound
    rec.event(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ghost', namespace: 'no-such-namespace' } },
      'Normal',
      'R',
      'A',
      'n',
    );
    await rec.flush();
    expect(dest.records().some((r) => r['msg'] === 'failed to write event' && r['level'] === 'error')).toBe(true);
  });
});
