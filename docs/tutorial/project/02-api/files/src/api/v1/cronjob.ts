// #region imports
/**
 * The CronJob API, v1: what a user asks for (spec) and what the controller reports (status).
 * `npm run manifests` turns these classes into config/crd/bases/batch.tutorial.tsop.dev_cronjobs.yaml.
 */
import type { V1JobTemplateSpec, V1ObjectReference } from '@kubernetes/client-node';
import type { Kind } from '../../runtime/apimachinery/index.js';
import {
  Default,
  ListMapKey,
  ListType,
  Minimum,
  MinLength,
  PrintColumn,
  Resource,
  SubresourceStatus,
  type Condition,
  type int32,
  type int64,
  type ObjectMeta,
  type Time,
} from '../../runtime/markers/index.js';
import { groupVersion } from './groupversion.js';
// #endregion imports

// #region spec
/**
 * What to do when a run is due while an earlier Job is still running: run both (Allow), skip
 * the new run (Forbid), or stop the running Job and start the new one (Replace).
 */
export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';

/** CronJobSpec is the desired state of a CronJob. */
export class CronJobSpec {
  /** The schedule in cron format (minute hour day-of-month month day-of-week), in UTC. */
  @MinLength(1)
  schedule!: string;

  /**
   * Deadline in seconds for starting a run that missed its time for any reason (the operator
   * was down, a Job could not be created). Runs later than this are skipped.
   */
  @Minimum(0)
  startingDeadlineSeconds?: int64;

  /** How to treat a run that is due while an earlier one is still running. */
  @Default('Allow')
  concurrencyPolicy?: ConcurrencyPolicy;

  /** Suspends the runs to come; Jobs already started are not affected. */
  @Default(false)
  suspend?: boolean;

  /** The Job to create at each run. */
  jobTemplate!: V1JobTemplateSpec;

  /** How many finished Jobs that succeeded to keep. */
  @Minimum(0)
  successfulJobsHistoryLimit?: int32;

  /** How many finished Jobs that failed to keep. */
  @Minimum(0)
  failedJobsHistoryLimit?: int32;
}
// #endregion spec

// #region status
/** CronJobStatus is what the controller last saw. */
export class CronJobStatus {
  /** The Jobs of this CronJob that are running. */
  active?: V1ObjectReference[];

  /** When the last run was scheduled. */
  lastScheduleTime?: Time;

  /** The state of the CronJob as conditions (kept from the scaffold; see the conditions guide). */
  @ListType('map')
  @ListMapKey('type')
  conditions?: Condition[];
}
// #endregion status

// #region kind
/** CronJob runs a Job on a schedule. */
@Resource()
@SubresourceStatus()
@PrintColumn({ name: 'Schedule', type: 'string', jsonPath: '.spec.schedule' })
@PrintColumn({ name: 'Suspend', type: 'boolean', jsonPath: '.spec.suspend' })
@PrintColumn({ name: 'Last Schedule', type: 'date', jsonPath: '.status.lastScheduleTime' })
@PrintColumn({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' })
export class CronJob {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: CronJobSpec;
  status?: CronJobStatus;
}

/** Names CronJob objects in client calls and watches; `client.get(cronJobKind, key)` returns a CronJob. */
export const cronJobKind: Kind<CronJob> = { group: groupVersion.group, version: groupVersion.version, kind: 'CronJob' };
// #endregion kind
