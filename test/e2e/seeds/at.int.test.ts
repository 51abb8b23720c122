/**
 * Seed "At" (the cnat operator of Programming Kubernetes): scaffolded with `tsop init` +
 * `create api`, the author's spec/status fields and reconcile logic added, then run as a real
 * process against a control plane with a scheduler and a kwok node. An At waits PENDING with one
 * requeue timed to its schedule (its reconciles are counted from the operator's log: no polling),
 * runs its command in one Pod it owns, and is DONE once kwok completes that Pod. A schedule that
 * does not parse is reported in the status and a Warning event, and is not retried.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithControlPlane } from '../../../runtime/testing/control-plane.js';
import {
  FULLER_PLANE,
  getJson,
  kubectl,
  MINUTES,
  scaffoldSeed,
  SECONDS,
  startOperator,
  waitUntil,
  type Operator,
} from './seed-project.js';

interface AtJson {
  metadata: { uid: string };
  status?: { phase?: string; message?: string };
}
interface PodJson {
  metadata: { ownerReferences?: { kind: string; name: string; uid: string; controller?: boolean }[] };
  spec: { restartPolicy: string; containers: { command: string[] }[] };
  status: { phase: string };
}

const at = (name: string, schedule: string, command: string) => `apiVersion: cnat.programming-kubernetes.info/v1alpha1
kind: At
metadata:
  name: ${name}
  namespace: default
spec:
  schedule: "${schedule}"
  command: "${command}"
`;

describeWithControlPlane(
  'seed At (cnat): a one-shot command at a scheduled time',
  { shared: true, ...FULLER_PLANE },
  (env) => {
    let operator: Operator;
    const kc = () => env.cp.kubeconfigPath;
    /** How many times the operator has reconciled the At `name` so far. */
    const reconciles = (name: string) => operator.logLines('reconciling At').filter((l) => l['name'] === name).length;
    const phaseOf = async (name: string) => (await getJson<AtJson>(kc(), ['at', name, '-n', 'default']))?.status?.phase;

    beforeAll(async () => {
      const project = await scaffoldSeed({
        name: 'cnat',
        init: ['--domain', 'programming-kubernetes.info'],
        apis: [['--group', 'cnat', '--version', 'v1alpha1', '--kind', 'At', '--resource', '--controller']],
        fixture: 'at',
      });
      const install = await kubectl(kc(), ['apply', '--server-side', '-f', `${project.dir}/config/crd/bases`]);
      expect(install.exitCode, install.all).toBe(0);
      await env.cp.waitForCRDs(['ats.cnat.programming-kubernetes.info']);
      operator = await startOperator(project, kc());
    }, 5 * MINUTES);

    afterAll(async () => {
      if (operator) expect(await operator.stop()).toBe(0);
    });

    it(
      'stays PENDING with one requeue timed to the schedule, then RUNNING with one owned Pod, then DONE',
      async () => {
        const delayMs = 12 * SECONDS; // room for a slow kubectl on a busy machine before the schedule
        const due = new Date(Math.ceil((Date.now() + delayMs) / 1000) * 1000);
        const schedule = due.toISOString().replace(/\.\d+Z$/, 'Z');
        const created = await kubectl(kc(), ['apply', '-f', '-'], at('hello', schedule, 'echo hello'));
        expect(created.exitCode, created.all).toBe(0);

        await waitUntil('the At is PENDING', async () => (await phaseOf('hello')) === 'PENDING', 20 * SECONDS);
        // Until shortly before the schedule: the first reconcile, the one its own status write causes,
        // and nothing else — a polling controller would have reconciled every second or so.
        await new Promise((r) => setTimeout(r, Math.max(0, due.getTime() - 1500 - Date.now())));
        expect(await phaseOf('hello')).toBe('PENDING');
        expect(reconciles('hello')).toBeLessThanOrEqual(2);
        const waiting = operator.logLines('waiting for the schedule').filter((l) => l['name'] === 'hello');
        expect(waiting.length).toBeGreaterThanOrEqual(1);
        expect(Number(waiting[0]!['inMs'])).toBeGreaterThan(delayMs - 8 * SECONDS);

        await waitUntil('the At is RUNNING', async () => (await phaseOf('hello')) !== 'PENDING', 15 * SECONDS);
        expect(Date.now()).toBeGreaterThanOrEqual(due.getTime()); // not before its time
        const owner = await getJson<AtJson>(kc(), ['at', 'hello', '-n', 'default']);
        const pods = await getJson<{ items: PodJson[] }>(kc(), ['pods', '-n', 'default', '-l', 'app=hello']);
        expect(pods?.items).toHaveLength(1);
        const pod = pods!.items[0]!;
        expect(pod.metadata.ownerReferences).toEqual([
          expect.objectContaining({ kind: 'At', name: 'hello', uid: owner!.metadata.uid, controller: true }),
        ]);
        expect(pod.spec.restartPolicy).toBe('Never');
        expect(pod.spec.containers[0]!.command).toEqual(['sh', '-c', 'echo hello']);

        // kwok runs the Pod and completes it; the Pod's update reaches the At through the owner reference.
        await waitUntil('the At is DONE', async () => (await phaseOf('hello')) === 'DONE', 60 * SECONDS);
        const finished = await getJson<PodJson>(kc(), ['pod', 'hello-pod', '-n', 'default']);
        expect(finished?.status.phase).toBe('Succeeded');
        const stillOne = await getJson<{ items: PodJson[] }>(kc(), ['pods', '-n', 'default', '-l', 'app=hello']);
        expect(stillOne?.items).toHaveLength(1);
        expect(operator.logLines('Reconciler error')).toEqual([]);
      },
      2 * MINUTES,
    );

    it(
      'reports an unparsable schedule in its status and a Warning event, and does not retry it',
      async () => {
        const created = await kubectl(kc(), ['apply', '-f', '-'], at('someday', 'tomorrow at noon', 'echo never'));
        expect(created.exitCode, created.all).toBe(0);
        let message = '';
        await waitUntil(
          'the At reports its schedule',
          async () => {
            message = (await getJson<AtJson>(kc(), ['at', 'someday', '-n', 'default']))?.status?.message ?? '';
            return message !== '';
          },
          20 * SECONDS,
        );
        expect(message).toBe('schedule "tomorrow at noon" is not an RFC 3339 time such as 2026-01-02T15:04:05Z');

        const events = await getJson<{
          items: { type: string; reason: string; note: string; regarding: { name: string } }[];
        }>(kc(), ['events.v1.events.k8s.io', '-n', 'default']);
        expect(
          events?.items.filter((e) => e.regarding.name === 'someday').map((e) => [e.type, e.reason, e.note]),
        ).toEqual([['Warning', 'InvalidSchedule', message]]);

        // No retries with backoff, no hot loop: the count settles at the first reconcile plus its status write's echo.
        const settled = reconciles('someday');
        await new Promise((r) => setTimeout(r, 5 * SECONDS));
        expect(reconciles('someday')).toBe(settled);
        expect(settled).toBeLessThanOrEqual(2);
        expect(operator.logLines('Reconciler error')).toEqual([]);
        const pods = await getJson<{ items: unknown[] }>(kc(), ['pods', '-n', 'default', '-l', 'app=someday']);
        expect(pods?.items).toHaveLength(0);
      },
      2 * MINUTES,
    );
  },
);
