/**
 * The CronJob API, v2: the schedule is a structure of its five fields instead of one string.
 * v1 stays the version stored in etcd and the hub conversions go through
 * (src/api/v2/cronjob-conversion.ts converts between the two).
 */
import type { V1JobTemplateSpec, V1ObjectReference } from '@kubernetes/client-node';
import type { Kind } from '../../runtime/apimachinery/index.js';
import {
  Default,
  ListMapKey,
  ListType,
  Minimum,
  Resource,
  SubresourceStatus,
  type Condition,
  type int32,
  type int64,
  type ObjectMeta,
  type Time,
} from '../../runtime/markers/index.js';
import { groupVersion } from './groupversion.js';

// #region schedule
/** One field of a cron schedule, such as `*\/5`, `1-3` or `MON`. */
export type CronField = string;

/** A cron schedule by its fields; a field left out means every value (`*`). */
export class CronSchedule {
  minute?: CronField;
  hour?: CronField;
  dayOfMonth?: CronField;
  month?: CronField;
  dayOfWeek?: CronField;
}
// #endregion schedule

export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';

/** CronJobSpec is the desired state of a CronJob. */
export class CronJobSpec {
  /** When the Jobs run, in UTC. */
  schedule!: CronSchedule;

  /** Deadline in seconds for starting a run that missed its time; later runs are skipped. */
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

/** CronJobStatus is what the controller last saw. */
export class CronJobStatus {
  /** The Jobs of this CronJob that are running. */
  active?: V1ObjectReference[];

  /** When the last run was scheduled. */
  lastScheduleTime?: Time;

  /** The state of the CronJob as conditions. */
  @ListType('map')
  @ListMapKey('type')
  conditions?: Condition[];
}

/** CronJob runs a Job on a schedule. */
@Resource()
@SubresourceStatus()
export class CronJob {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: CronJobSpec;
  status?: CronJobStatus;
}

/** Names CronJob v2 objects in client calls and watches. */
export const cronJobKind: Kind<CronJob> = { group: groupVersion.group, version: groupVersion.version, kind: 'CronJob' };
