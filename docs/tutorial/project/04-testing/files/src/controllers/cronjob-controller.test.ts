// #region imports
/**
 * The CronJob controller on the fuller control plane: etcd and kube-apiserver, plus
 * kube-controller-manager (the Job controller, the garbage collector), kube-scheduler and a kwok
 * node that plays the kubelet, so the Jobs the controller creates really run and complete. The
 * reconciler gets a clock of the test's own, which the test moves to each scheduled time.
 */
import { fileURLToPath } from 'node:url';
import type { V1Job } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cronJob } from '../../test/cronjobs.js';
import { cronJobKind, type CronJob } from '../api/v1/cronjob.js';
import { jobKind, KindRegistry } from '../runtime/apimachinery/index.js';
import { createClient, isNotFound, type Client } from '../runtime/client/index.js';
import { createLogger } from '../runtime/log/index.js';
import type { ReconcileContext, Request } from '../runtime/reconcile/index.js';
import { describeWithControlPlane } from 'tsop/testing';
import { CronJobReconciler, SCHEDULED_AT } from './cronjob-controller.js';

const crds = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));
const MINUTE = 60_000;
// #endregion imports

// #region setup
describeWithControlPlane('CronJob controller', { crdDirectoryPaths: [crds], controllers: true, nodes: 1 }, (env) => {
  let client: Client & { close(): void };
  let now = new Date();
  let reconciler: CronJobReconciler;
  const ctx = (): ReconcileContext => ({ log: createLogger({ level: 'silent' }), signal: AbortSignal.timeout(30_000), reconcileID: 'test', controller: 'cronjob' });

  beforeAll(() => {
    client = createClient(env.cp.kubeConfig);
    reconciler = new CronJobReconciler({ client, kinds: new KindRegistry([cronJobKind, jobKind]), now: () => now });
  });
  afterAll(() => client.close());

  /** The Jobs a CronJob owns, oldest run first. */
  const jobsOf = async (owner: CronJob): Promise<V1Job[]> =>
    (await client.list(jobKind, { namespace: 'default' })).items
      .filter((j) => j.metadata?.ownerReferences?.some((r) => r.uid === owner.metadata?.uid && r.controller))
      .sort((a, b) => (a.metadata!.annotations![SCHEDULED_AT]! < b.metadata!.annotations![SCHEDULED_AT]! ? -1 : 1));

  /** Polls until `check` holds: the Job controller and kwok work at their own pace. */
  async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
    for (const deadline = Date.now() + timeoutMs; !(await check()); ) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const complete = (job: V1Job) => job.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') === true;
  // #endregion setup

  // #region on-schedule
  it('creates a Job when a run is due, owned by the CronJob, and asks to be called at the next run', async () => {
    const created = await client.create(cronJob('every-minute'));
    const req: Request = { namespace: 'default', name: 'every-minute' };
    // Just created: nothing is due yet, and the next call is at most a minute away.
    now = new Date(created.metadata!.creationTimestamp!);
    const first = await reconciler.reconcile(req, ctx());
    expect(await jobsOf(created)).toHaveLength(0);
    expect(first?.requeueAfter).toBeGreaterThan(0);
    expect(first?.requeueAfter).toBeLessThanOrEqual(MINUTE);

    // Ninety seconds on, a run is due: one Job for it, named after the run.
    now = new Date(now.getTime() + 90_000);
    const second = await reconciler.reconcile(req, ctx());
    const [job] = await jobsOf(created);
    const run = new Date(job!.metadata!.annotations![SCHEDULED_AT]!);
    expect(run.getUTCSeconds()).toBe(0);
    expect(job!.metadata!.name).toBe(`every-minute-${run.getTime() / 1000}`);
    expect(job!.metadata!.ownerReferences?.[0]).toMatchObject({ kind: 'CronJob', name: 'every-minute', controller: true });
    // The next run is strictly after now: a whole minute away when now falls on a minute.
    expect(second?.requeueAfter).toBe(MINUTE - (now.getTime() % MINUTE));

    // The same time again makes no second Job for the same run.
    await reconciler.reconcile(req, ctx());
    expect(await jobsOf(created)).toHaveLength(1);

    // kwok runs the Job's pod and the Job controller marks the Job Complete; the status then has
    // no active Job and the run as the last schedule time.
    await eventually('the Job completes', async () => complete(await client.get(jobKind, { namespace: 'default', name: job!.metadata!.name! })));
    await reconciler.reconcile(req, ctx());
    const status = (await client.get(cronJobKind, req)).status;
    expect(status?.active ?? []).toEqual([]);
    expect(new Date(status!.lastScheduleTime!).getTime()).toBe(run.getTime());
  });
  // #endregion on-schedule

  // #region history
  it('keeps only as many finished Jobs as the history limit', async () => {
    const created = await client.create(cronJob('history', { successfulJobsHistoryLimit: 2 }));
    const req: Request = { namespace: 'default', name: 'history' };
    now = new Date(created.metadata!.creationTimestamp!);
    for (let run = 1; run <= 4; run++) {
      now = new Date(now.getTime() + MINUTE);
      await reconciler.reconcile(req, ctx());
      await eventually(`run ${run} completes`, async () => {
        const jobs = await jobsOf(created);
        return jobs.length > 0 && jobs.every(complete);
      });
    }
    await reconciler.reconcile(req, ctx());
    const kept = await jobsOf(created);
    expect(kept).toHaveLength(2);
    // The two newest runs are the ones kept.
    const runs = kept.map((j) => new Date(j.metadata!.annotations![SCHEDULED_AT]!).getTime());
    expect(runs[1]! - runs[0]!).toBe(MINUTE);
    expect(runs[1]).toBe(Math.floor(now.getTime() / MINUTE) * MINUTE);
  });
  // #endregion history

  // #region concurrency
  it('skips a run while a Job runs under Forbid, and replaces the running Job under Replace', async () => {
    // A suspended Job template keeps each Job active: it never starts a pod.
    const template = { spec: { suspend: true, template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox:1.36' }] } } } };
    const forbid = await client.create(cronJob('forbid', { concurrencyPolicy: 'Forbid', jobTemplate: template }));
    const replace = await client.create(cronJob('replace', { concurrencyPolicy: 'Replace', jobTemplate: template }));
    now = new Date(Math.max(new Date(forbid.metadata!.creationTimestamp!).getTime(), new Date(replace.metadata!.creationTimestamp!).getTime()) + MINUTE);
    for (const name of ['forbid', 'replace']) await reconciler.reconcile({ namespace: 'default', name }, ctx());
    const [firstForbidden] = await jobsOf(forbid);
    const [firstReplaced] = await jobsOf(replace);

    now = new Date(now.getTime() + MINUTE);
    for (const name of ['forbid', 'replace']) await reconciler.reconcile({ namespace: 'default', name }, ctx());
    expect((await jobsOf(forbid)).map((j) => j.metadata!.name)).toEqual([firstForbidden!.metadata!.name]);
    await eventually('the replaced Job is gone', async () => {
      const names = (await jobsOf(replace)).map((j) => j.metadata!.name);
      return names.length === 1 && names[0] !== firstReplaced!.metadata!.name;
    });
  });
  // #endregion concurrency

  // #region gc
  it('leaves the Jobs to the garbage collector when the CronJob is deleted', async () => {
    const created = await client.create(cronJob('deleted'));
    now = new Date(new Date(created.metadata!.creationTimestamp!).getTime() + MINUTE);
    await reconciler.reconcile({ namespace: 'default', name: 'deleted' }, ctx());
    const [job] = await jobsOf(created);
    await client.delete(created);
    // kube-controller-manager's garbage collector follows the owner reference.
    await eventually('the Job is collected', async () =>
      client.get(jobKind, { namespace: 'default', name: job!.metadata!.name! }).then(
        () => false,
        (err: unknown) => isNotFound(err),
      ),
    );
  });
});
// #endregion gc
