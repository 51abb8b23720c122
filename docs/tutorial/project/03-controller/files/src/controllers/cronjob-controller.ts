// #region imports
/**
 * The CronJob controller: at each time the schedule names, it creates a Job from the CronJob's
 * template, owned by the CronJob; it reports the running Jobs and the last run in the status,
 * deletes finished Jobs beyond the history limits, and asks to be called again at the next run.
 */
import type { V1Job, V1ObjectReference } from '@kubernetes/client-node';
import { Cron } from 'croner';
import { cronJobKind, type CronJob } from '../api/v1/cronjob.js';
import { jobKind, type KindRegistry } from '../runtime/apimachinery/index.js';
import { controllerFor } from '../runtime/builder/index.js';
import { isNotFound, patchStatus, type Client } from '../runtime/client/index.js';
import { getControllerOf, setControllerReference } from '../runtime/controllerutil/index.js';
import type { EventRecorder } from '../runtime/events/index.js';
import type { Manager } from '../runtime/manager/index.js';
import { Rbac } from '../runtime/markers/index.js';
import { TerminalError, type ReconcileContext, type Reconciler, type Request, type Result } from '../runtime/reconcile/index.js';
// #endregion imports

// #region deps
/** What the reconciler works with; setupWithManager takes it all from the manager. */
export interface CronJobReconcilerDeps {
  client: Client;
  kinds: KindRegistry;
  recorder?: EventRecorder;
  /** The time now; tests pass a clock of their own to move through the schedule. */
  now?: () => Date;
}

/** Where a Job records the run it was created for, so the status can be rebuilt from the Jobs. */
export const SCHEDULED_AT = 'batch.tutorial.tsop.dev/scheduled-at';
// #endregion deps

// #region rbac
@Rbac({ groups: ['batch.tutorial.tsop.dev'], resources: ['cronjobs'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] })
@Rbac({ groups: ['batch.tutorial.tsop.dev'], resources: ['cronjobs/status'], verbs: ['get', 'update', 'patch'] })
@Rbac({ groups: ['batch.tutorial.tsop.dev'], resources: ['cronjobs/finalizers'], verbs: ['update'] })
@Rbac({ groups: ['batch'], resources: ['jobs'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] })
@Rbac({ groups: ['batch'], resources: ['jobs/status'], verbs: ['get'] })
@Rbac({ groups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] })
// #endregion rbac
// #region reconciler
export class CronJobReconciler implements Reconciler {
  constructor(private deps?: CronJobReconcilerDeps) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const { client, recorder } = this.wired();
    const now = this.deps?.now?.() ?? new Date();
    // #endregion reconciler

    // #region load
    // 1. Load the CronJob. A deleted one needs nothing: its Jobs go with it (owner references).
    let cronJob: CronJob;
    try {
      cronJob = await client.get(cronJobKind, req, { signal: ctx.signal });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const spec = cronJob.spec!;
    // #endregion load

    // #region status
    // 2. List its Jobs and rebuild the status from them: never trust the status you wrote last.
    const jobs = (await client.list(jobKind, { namespace: req.namespace, signal: ctx.signal })).items.filter(
      (job) => getControllerOf(job)?.uid === cronJob.metadata?.uid,
    );
    const active = jobs.filter((job) => finished(job) === undefined);
    const succeeded = jobs.filter((job) => finished(job) === 'Complete');
    const failed = jobs.filter((job) => finished(job) === 'Failed');
    const lastRun = jobs.map(scheduledTime).filter((t): t is Date => t !== undefined).sort((a, b) => a.getTime() - b.getTime()).at(-1);

    const status = {
      ...cronJob.status,
      active: active.map(referenceTo).sort((a, b) => (a.name! < b.name! ? -1 : 1)),
      lastScheduleTime: lastRun?.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
    // A merge patch of what changed, if anything: no write, no new resourceVersion, when nothing did.
    await patchStatus(client, cronJob, status, { signal: ctx.signal });
    ctx.log.debug({ active: active.length, succeeded: succeeded.length, failed: failed.length }, 'job count');
    // #endregion status

    // #region history
    // 3. Delete the oldest finished Jobs beyond the history limits (best effort: a failure here
    //    does not stop the schedule).
    for (const [list, limit] of [[succeeded, spec.successfulJobsHistoryLimit], [failed, spec.failedJobsHistoryLimit]] as const) {
      if (limit === undefined) continue;
      const oldestFirst = [...list].sort((a, b) => startOf(a) - startOf(b));
      for (const job of oldestFirst.slice(0, Math.max(0, oldestFirst.length - limit))) {
        await client.delete(job, { propagationPolicy: 'Background', signal: ctx.signal }).catch((err: unknown) => {
          if (!isNotFound(err)) ctx.log.error({ err, job: job.metadata?.name }, 'could not delete an old Job');
        });
        ctx.log.info({ job: job.metadata?.name }, 'deleted an old Job');
      }
    }
    // #endregion history

    // #region schedule
    // 4. A suspended CronJob starts nothing.
    if (spec.suspend) return;

    // 5. Find the last run that is due and not yet made, and the next one.
    let schedule: Cron;
    try {
      schedule = new Cron(spec.schedule, { paused: true, timezone: 'UTC' });
    } catch (err) {
      // Retrying cannot fix a schedule; the next edit of the CronJob brings a new reconcile.
      recorder?.event(cronJob, 'Warning', 'InvalidSchedule', 'Reconcile', `cannot parse the schedule '${spec.schedule}': ${(err as Error).message}`);
      throw new TerminalError(`cannot parse the schedule '${spec.schedule}'`, { cause: err });
    }
    const { missed, next } = runs(schedule, lastRun ?? new Date(cronJob.metadata!.creationTimestamp!), now, spec.startingDeadlineSeconds);
    // Called again when the next run is due, or earlier when a Job or the CronJob changes.
    const requeue: Result = next ? { requeueAfter: Math.max(0, next.getTime() - now.getTime()) } : undefined;
    if (!missed) return requeue;
    // #endregion schedule

    // #region run
    // 6. Run it, unless the concurrency policy says otherwise.
    if (spec.concurrencyPolicy === 'Forbid' && active.length > 0) {
      ctx.log.info({ run: missed.toISOString(), active: active.length }, 'a Job is still running; skipping this run');
      return requeue;
    }
    if (spec.concurrencyPolicy === 'Replace') {
      for (const job of active) {
        await client.delete(job, { propagationPolicy: 'Background', signal: ctx.signal }).catch((err: unknown) => {
          if (!isNotFound(err)) throw err;
        });
      }
    }
    const job = jobFor(cronJob, missed);
    await client.create(job, { signal: ctx.signal }).catch((err: unknown) => {
      // The Job's name is fixed by its run: a second create of the same run is refused, not doubled.
      if ((err as { statusCode?: number }).statusCode !== 409) throw err;
    });
    recorder?.event(cronJob, 'Normal', 'SuccessfulCreate', 'Run', `created Job ${job.metadata!.name}`);
    ctx.log.info({ job: job.metadata!.name, run: missed.toISOString() }, 'created a Job');
    return requeue;
  }
  // #endregion run

  // #region setup
  setupWithManager(mgr: Manager): void {
    this.deps = { client: mgr.client, kinds: mgr.kinds, recorder: mgr.getEventRecorder('cronjob') };
    // Owning Jobs: a Job that changes (starts, finishes, is deleted) reconciles its CronJob.
    controllerFor(mgr, cronJobKind).owns(jobKind).named('cronjob').complete(this);
  }

  private wired(): CronJobReconcilerDeps {
    if (!this.deps) throw new TerminalError('CronJobReconciler has no client: register it with setupWithManager(mgr), or construct it with { client, kinds }');
    return this.deps;
  }
}
// #endregion setup

// #region helpers
/** 'Complete' or 'Failed' once the Job has finished, undefined while it runs. */
function finished(job: V1Job): 'Complete' | 'Failed' | undefined {
  const done = job.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  return done?.type as 'Complete' | 'Failed' | undefined;
}

function scheduledTime(job: V1Job): Date | undefined {
  const raw = job.metadata?.annotations?.[SCHEDULED_AT];
  const t = raw ? new Date(raw) : undefined;
  return t && !Number.isNaN(t.getTime()) ? t : undefined;
}

function startOf(job: V1Job): number {
  return job.status?.startTime ? new Date(job.status.startTime).getTime() : 0;
}

function referenceTo(job: V1Job): V1ObjectReference {
  return { apiVersion: 'batch/v1', kind: 'Job', namespace: job.metadata?.namespace, name: job.metadata?.name, uid: job.metadata?.uid, resourceVersion: job.metadata?.resourceVersion };
}

/**
 * The latest run due at `now` since `from` (undefined when none is, or when it is older than the
 * starting deadline), and the next run after `now`. Gives up past 100 missed runs, as the
 * upstream CronJob controller does, rather than walk years of a stopped clock.
 */
export function runs(schedule: Cron, from: Date, now: Date, deadlineSeconds?: number): { missed?: Date; next?: Date } {
  let earliest = from;
  if (deadlineSeconds !== undefined) {
    const deadline = new Date(now.getTime() - deadlineSeconds * 1000);
    if (deadline > earliest) earliest = deadline;
  }
  let missed: Date | undefined;
  let count = 0;
  for (let t = schedule.nextRun(earliest); t && t <= now; t = schedule.nextRun(t)) {
    missed = t;
    if (++count > 100) throw new TerminalError('more than 100 missed runs: set or lower spec.startingDeadlineSeconds, or check the clock');
  }
  return { missed, next: schedule.nextRun(now) ?? undefined };
}

/** The Job of one run: the template's spec, labels and annotations, the run's time, and the CronJob as its controller. */
function jobFor(cronJob: CronJob, run: Date): V1Job {
  const template = cronJob.spec!.jobTemplate;
  const job: V1Job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      // One name per run, so a run is never created twice.
      name: `${cronJob.metadata!.name}-${Math.floor(run.getTime() / 1000)}`,
      namespace: cronJob.metadata!.namespace,
      labels: { ...template.metadata?.labels },
      annotations: { ...template.metadata?.annotations, [SCHEDULED_AT]: run.toISOString() },
    },
    spec: structuredClone(template.spec),
  };
  setControllerReference(cronJob as Parameters<typeof setControllerReference>[0], job);
  return job;
}
// #endregion helpers
