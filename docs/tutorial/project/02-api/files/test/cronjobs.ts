/** Test helpers shared by the CronJob tests: a valid CronJob to start from. */
import type { CronJob } from '../src/api/v1/cronjob.js';

/** A CronJob in `default` that runs every minute: a schedule and a Job template are all it needs. */
export function cronJob(name: string, spec: Partial<NonNullable<CronJob['spec']>> = {}): CronJob {
  return {
    apiVersion: 'batch.tutorial.tsop.dev/v1',
    kind: 'CronJob',
    metadata: { name, namespace: 'default' },
    spec: {
      schedule: '*/1 * * * *',
      jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox:1.36' }] } } } },
      ...spec,
    },
  };
}
