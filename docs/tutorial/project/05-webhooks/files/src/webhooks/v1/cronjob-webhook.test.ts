/**
 * The CronJob webhooks through a real API server: the harness installs config/webhook's
 * configurations pointing at a manager started here, so every create and update below goes
 * API server → webhook → API server, as in a cluster.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cronJob } from '../../../test/cronjobs.js';
import { createClient, isInvalid, type Client } from '../../runtime/client/index.js';
import { createManager } from '../../runtime/manager/index.js';
import { WebhookServer } from '../../runtime/webhook/index.js';
import { describeWithControlPlane } from 'tsop/testing';
import { setupCronJobWebhookWithManager } from './cronjob-webhook.js';

const crds = fileURLToPath(new URL('../../../config/crd/bases/', import.meta.url));
const webhooks = fileURLToPath(new URL('../../../config/webhook/', import.meta.url));

describeWithControlPlane('CronJob v1 webhooks', { crdDirectoryPaths: [crds], webhooks: { manifests: [webhooks] } }, (env) => {
  let client: Client & { close(): void };
  const stop = new AbortController();
  let running: Promise<void>;

  beforeAll(async () => {
    const installed = env.cp.webhooks;
    if (!installed) throw new Error('the harness installed no webhooks: is config/webhook/manifests.yaml there? (npm run manifests)');
    const mgr = createManager({ kubeConfig: env.cp.kubeConfig, metricsBindAddress: '0', healthProbeBindAddress: '0', webhookServer: new WebhookServer(installed.serverOptions) });
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

  // #region tests
  it('fills in the history limits and the pods\' restart policy', async () => {
    const sample = cronJob('defaulted');
    delete sample.spec!.jobTemplate.spec!.template.spec!.restartPolicy;
    const created = await client.create(sample);
    expect(created.spec).toMatchObject({ successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    expect(created.spec?.jobTemplate.spec?.template.spec?.restartPolicy).toBe('OnFailure');
    // What the user set is kept.
    const kept = await client.create(cronJob('kept', { successfulJobsHistoryLimit: 0 }));
    expect(kept.spec?.successfulJobsHistoryLimit).toBe(0);
  });

  it('refuses a schedule that is not five cron fields, and a name too long for its Jobs', async () => {
    for (const schedule of ['every minute', '*/5 * * * * *', '61 * * * *']) {
      const refused = await client.create(cronJob('bad-schedule', { schedule })).catch((e: unknown) => e);
      expect(isInvalid(refused), schedule).toBe(true);
      expect(String(refused)).toContain('spec.schedule');
    }
    const long = await client.create(cronJob('x'.repeat(53))).catch((e: unknown) => e);
    expect(isInvalid(long)).toBe(true);
    expect(String(long)).toContain('must be no more than 52 characters');
  });

  it('checks updates too', async () => {
    const created = await client.create(cronJob('updated'));
    const refused = await client.update({ ...created, spec: { ...created.spec!, schedule: 'never' } }).catch((e: unknown) => e);
    expect(isInvalid(refused)).toBe(true);
  });
  // #endregion tests
});
