/**
 * Conversion of CronJob v2 (a spoke) to and from v1, the hub every version converts through;
 * registered with the hub's webhook (src/webhooks/v1/cronjob-webhook.ts). Only the schedule
 * differs: v1 writes it as one cron string, v2 as its five fields.
 */
import { ConversionError, type Spoke } from '../../runtime/webhook/index.js';
import type { CronJob as CronJobHub } from '../v1/cronjob.js';
import { cronJobKind, type CronJob, type CronSchedule } from './cronjob.js';

type Hub = CronJobHub;
type Self = CronJob;

// #region fields
const FIELDS = ['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'] as const satisfies ReadonlyArray<keyof CronSchedule>;

/** `{ minute: '*\/5', hour: '1' }` → `'*\/5 1 * * *'`. */
export function scheduleToString(schedule: CronSchedule): string {
  return FIELDS.map((f) => schedule[f] ?? '*').join(' ');
}

/** `'*\/5 1 * * *'` → `{ minute: '*\/5', hour: '1' }`; `*` fields are left out. */
export function scheduleFromString(schedule: string): CronSchedule {
  const parts = schedule.trim().split(/\s+/);
  if (parts.length !== FIELDS.length) throw new ConversionError(`schedule '${schedule}' is not five cron fields; v2 cannot represent it`);
  const out: CronSchedule = {};
  FIELDS.forEach((f, i) => {
    if (parts[i] !== '*') out[f] = parts[i];
  });
  return out;
}
// #endregion fields

// #region conversion
export const cronJobConversion: Spoke<Self, Hub> = {
  kind: cronJobKind,
  /** v2 → v1: `hub` has apiVersion, kind and metadata set already. */
  convertTo(spoke, hub) {
    if (spoke.spec) {
      const { schedule, ...rest } = structuredClone(spoke.spec);
      hub.spec = { ...rest, schedule: scheduleToString(schedule) };
    }
    hub.status = structuredClone(spoke.status);
  },
  /** v1 → v2: `spoke` has apiVersion, kind and metadata set already. */
  convertFrom(hub, spoke) {
    if (hub.spec) {
      const { schedule, ...rest } = structuredClone(hub.spec);
      spoke.spec = { ...rest, schedule: scheduleFromString(schedule) };
    }
    spoke.status = structuredClone(hub.status);
  },
};
// #endregion conversion
