/**
 * The recorder's per-object rate limit against a real API server: 25 events about one object
 * are written, the rest dropped until a token comes back five minutes later; another object is
 * not affected.
 */
import { expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { createClient } from '../client/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { createEventRecorder, type EventObject } from './index.js';

const EVENT = { apiVersion: 'events.k8s.io/v1', kind: 'Event' } as const;

describeWithControlPlane('event recorder: per-object spam filter', { shared: true }, (env) => {
  it('writes at most 25 events per object, then one per five minutes', async () => {
    const c = createClient(env.cp.kubeConfig);
    const noisy = await c.create<KubeObject>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'noisy', namespace: env.namespace },
    });
    const quiet = await c.create<KubeObject>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'quiet', namespace: env.namespace },
    });
    let now = Date.parse('2026-01-01T00:00:00Z');
    const rec = createEventRecorder(c, { reportingController: 'tsop.dev/spam-test', now: () => new Date(now) });
    // Distinct reasons, so no two fold into one series: each is its own Event.
    for (let i = 0; i < 30; i++) rec.event(noisy, 'Warning', `Reason${i}`, 'Reconcile', `failure ${i}`);
    rec.event(quiet, 'Normal', 'Fine', 'Reconcile', 'ok');
    await rec.flush();
    const about = async (name: string) =>
      (
        await c.list<EventObject>(EVENT, { namespace: env.namespace, fieldSelector: `regarding.name=${name}` })
      ).items.map((e) => e.reason);
    const written = await about('noisy');
    expect(written).toHaveLength(25);
    expect(written).not.toContain('Reason25');
    expect(await about('quiet')).toEqual(['Fine']);

    now += 5 * 60_000; // one token back
    rec.event(noisy, 'Warning', 'Later1', 'Reconcile', 'x');
    rec.event(noisy, 'Warning', 'Later2', 'Reconcile', 'x');
    await rec.flush();
    const after = await about('noisy');
    expect(after).toHaveLength(26);
    expect(after).toContain('Later1');
  });
});
