// #region setup
/**
 * The CronJob webhooks, called by the API server on every create and update of a CronJob (v1):
 * the defaulter fills in what the schema's defaults cannot reach, the validator refuses what the
 * schema cannot express. Both are served by the manager's webhook server.
 */
import { Cron } from 'croner';
import type { Manager } from '../../runtime/manager/index.js';
import { Webhook } from '../../runtime/markers/index.js';
import { webhookFor, FieldError, ValidationError, type AdmissionContext, type CustomDefaulter, type CustomValidator, type Warnings } from '../../runtime/webhook/index.js';
import { cronJobKind, type CronJob } from '../../api/v1/cronjob.js';

type CronJobObject = CronJob;

export function setupCronJobWebhookWithManager(mgr: Manager): void {
  webhookFor<CronJobObject>(mgr, cronJobKind).withDefaulter(new CronJobCustomDefaulter()).withValidator(new CronJobCustomValidator()).complete();
}
// #endregion setup

// #region defaulter
@Webhook({ path: '/mutate-batch-tutorial-tsop-dev-v1-cronjob', mutating: true, failurePolicy: 'fail', sideEffects: 'None', groups: ['batch.tutorial.tsop.dev'], resources: ['cronjobs'], verbs: ['create', 'update'], versions: ['v1'], name: 'mcronjob-v1.kb.io', admissionReviewVersions: ['v1'] })
export class CronJobCustomDefaulter implements CustomDefaulter<CronJobObject> {
  constructor(
    readonly successfulJobsHistoryLimit = 3,
    readonly failedJobsHistoryLimit = 1,
  ) {}

  default(obj: CronJobObject, ctx: AdmissionContext): void {
    ctx.log.info({ name: obj.metadata?.name }, 'defaulting CronJob');
    if (!obj.spec) return; // the schema requires a spec; the API server refuses the object after us
    obj.spec.successfulJobsHistoryLimit ??= this.successfulJobsHistoryLimit;
    obj.spec.failedJobsHistoryLimit ??= this.failedJobsHistoryLimit;
    // A Job's pods may not restart Always (a Pod's default): the Job API refuses it.
    const pod = obj.spec.jobTemplate?.spec?.template?.spec;
    if (pod) pod.restartPolicy ??= 'OnFailure';
  }
}
// #endregion defaulter

// #region validator
@Webhook({ path: '/validate-batch-tutorial-tsop-dev-v1-cronjob', mutating: false, failurePolicy: 'fail', sideEffects: 'None', groups: ['batch.tutorial.tsop.dev'], resources: ['cronjobs'], verbs: ['create', 'update'], versions: ['v1'], name: 'vcronjob-v1.kb.io', admissionReviewVersions: ['v1'] })
export class CronJobCustomValidator implements CustomValidator<CronJobObject> {
  validateCreate(obj: CronJobObject, ctx: AdmissionContext): Warnings {
    ctx.log.info({ name: obj.metadata?.name }, 'validating CronJob on create');
    return validateCronJob(obj);
  }

  validateUpdate(_oldObj: CronJobObject, newObj: CronJobObject, ctx: AdmissionContext): Warnings {
    ctx.log.info({ name: newObj.metadata?.name }, 'validating CronJob on update');
    return validateCronJob(newObj);
  }

  validateDelete(): Warnings {
    return [];
  }
}

/**
 * A Job is named `<cronjob>-<unix time>`: 11 characters after the CronJob's name, and a Job's
 * name is a DNS label of at most 63. The schema cannot check a name; the webhook can.
 */
const MAX_NAME = 63 - 11;

function validateCronJob(obj: CronJobObject): Warnings {
  const errors: FieldError[] = [];
  const name = obj.metadata?.name ?? '';
  if (name.length > MAX_NAME) errors.push(new FieldError('metadata.name', `must be no more than ${MAX_NAME} characters`, name));
  const problem = scheduleProblem(obj.spec?.schedule ?? '');
  if (problem) errors.push(new FieldError('spec.schedule', problem, obj.spec?.schedule));
  if (errors.length > 0) throw new ValidationError({ group: 'batch.tutorial.tsop.dev', kind: 'CronJob' }, name, errors);
  return [];
}

/** Why a schedule is not a standard five-field cron expression, or undefined when it is. */
export function scheduleProblem(schedule: string): string | undefined {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) return `must have five fields (minute hour day-of-month month day-of-week), not ${fields.length}`;
  try {
    new Cron(schedule, { paused: true });
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
// #endregion validator
