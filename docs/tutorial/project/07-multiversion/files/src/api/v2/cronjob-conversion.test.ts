/**
 * Conversion between CronJob v1 and v2 through a real API server: the CRD's conversion webhook
 * points at a manager started here, so a CronJob written in one version and read in the other is
 * converted by the code in cronjob-conversion.ts, as in a cluster.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronJob } from '../../../test/cronjobs.js';
import { cronJobKind as v1Kind } from '../v1/cronjob.js';
import { createClient, type Client } from '../../runtime/client/index.js';
import { createManager } from '../../runtime/manager/index.js';
import { WebhookServer } from '../../runtime/webhook/index.js';
import { describeWithControlPlane } from 'tsop/testing';
import { setupCronJobWebhookWithManager } from '../../webhooks/v1/cronjob-webhook.js';
import { scheduleFromString, scheduleToString } from './cronjob-conversion.js';
import { cronJobKind as v2Kind, type CronJob } from './cronjob.js';

const crds = fileURLToPath(new URL('../../../config/crd/bases/', import.meta.url));
const webhooks = fileURLToPath(new URL('../../../config/webhook/', import.meta.url));

// #region unit
describe('schedule fields', () => {
  it('turns a cron string into fields and back', () => {
    expect(scheduleFromString('*/5 1 * * MON')).toEqual({ minute: '*/5', hour: '1', dayOfWeek: 'MON' });
    expect(scheduleToString({ minute: '*/5', hour: '1', dayOfWeek: 'MON' })).toBe('*/5 1 * * MON');
    expect(() => scheduleFromString('*/5 * * * * *')).toThrow('not five cron fields');
  });
});
// #endregion unit

// #region round-trip
describeWithControlPlane('CronJob conversion', { crdDirectoryPaths: [crds], webhooks: { manifests: [webhooks], conversionCRDs: ['cronjobs.batch.tutorial.tsop.dev'] } }, (env) => {
  let client: Client & { close(): void };
  const stop = new AbortController();
  let running: Promise<void>;

  beforeAll(async () => {
    const mgr = createManager({ kubeConfig: env.cp.kubeConfig, metricsBindAddress: '0', healthProbeBindAddress: '0', webhookServer: new WebhookServer(env.cp.webhooks!.serverOptions) });
    setupCronJobWebhookWithManager(mgr);
    running = mgr.start(stop.signal);
    client = createClient(env.cp.kubeConfig);
    // The API server learns of new webhook configurations through an informer: wait until it calls them.
    for (let i = 0; ; i++) {
      const probe = await client.create(cronJob('probe'), { dryRun: true }).catch(() => undefined);
      if (probe?.spec?.successfulJobsHistoryLimit !== undefined) break;
      if (i === 100) throw new Error('the API server did not call the webhooks within 10 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    stop.abort();
    await running;
    client.close();
  });

  it('serves a v1 CronJob as v2, with its schedule in fields', async () => {
    await client.create(cronJob('written-as-v1', { schedule: '*/5 1 * * MON' }));
    const asV2 = await client.get(v2Kind, { namespace: 'default', name: 'written-as-v1' });
    expect(asV2.apiVersion).toBe('batch.tutorial.tsop.dev/v2');
    expect(asV2.spec?.schedule).toEqual({ minute: '*/5', hour: '1', dayOfWeek: 'MON' });
    // Everything else comes through unchanged, the webhook's defaults included.
    expect(asV2.spec?.successfulJobsHistoryLimit).toBe(3);
    expect(asV2.spec?.jobTemplate.spec?.template.spec?.containers[0]?.image).toBe('busybox:1.36');
  });

  it('stores a v2 CronJob as v1 and reads it back as it was written', async () => {
    const written: CronJob = {
      apiVersion: 'batch.tutorial.tsop.dev/v2',
      kind: 'CronJob',
      metadata: { name: 'written-as-v2', namespace: 'default' },
      spec: { schedule: { minute: '0', hour: '*/2' }, jobTemplate: cronJob('template').spec!.jobTemplate, successfulJobsHistoryLimit: 5 },
    };
    const created = await client.create(written);
    expect(created.spec?.schedule).toEqual({ minute: '0', hour: '*/2' });
    const asV1 = await client.get(v1Kind, { namespace: 'default', name: 'written-as-v2' });
    expect(asV1.spec?.schedule).toBe('0 */2 * * *');
    const back = await client.get(v2Kind, { namespace: 'default', name: 'written-as-v2' });
    expect(back.spec).toEqual(created.spec);
  });
});
// #endregion round-trip
