/**
 * The CronJob API as the API server enforces it: the CRD from config/crd/bases is installed on a
 * real control plane, and what the decorators promise is checked there: defaults filled in,
 * invalid values refused, status written only through its subresource.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, isInvalid, type Client } from '../../runtime/client/index.js';
import { describeWithControlPlane } from 'tsop/testing';
import { cronJob } from '../../../test/cronjobs.js';
import { cronJobKind } from './cronjob.js';

const crds = fileURLToPath(new URL('../../../config/crd/bases', import.meta.url));


describeWithControlPlane('the CronJob API', { crdDirectoryPaths: [crds] }, (env) => {
  let client: Client & { close(): void };
  beforeAll(() => {
    client = createClient(env.cp.kubeConfig);
  });
  afterAll(() => client.close());

  // #region tests
  it('fills in the defaults', async () => {
    const created = await client.create(cronJob('defaults'));
    expect(created.spec?.concurrencyPolicy).toBe('Allow');
    expect(created.spec?.suspend).toBe(false);
  });

  it('refuses a concurrency policy it does not know, and a negative history limit', async () => {
    const policy = await client.create(cronJob('bad-policy', { concurrencyPolicy: 'Sometimes' as 'Allow' })).catch((e: unknown) => e);
    expect(isInvalid(policy)).toBe(true);
    expect(String(policy)).toContain('spec.concurrencyPolicy');
    const limit = await client.create(cronJob('bad-limit', { successfulJobsHistoryLimit: -1 })).catch((e: unknown) => e);
    expect(isInvalid(limit)).toBe(true);
    expect(String(limit)).toContain('spec.successfulJobsHistoryLimit');
  });

  it('takes the status only through the status subresource', async () => {
    const created = await client.create(cronJob('status'));
    const lastScheduleTime = '2026-01-01T00:00:00Z';
    // A plain update drops the status; the status subresource keeps it.
    const updated = await client.update({ ...created, status: { lastScheduleTime } });
    expect(updated.status?.lastScheduleTime).toBeUndefined();
    const written = await client.status().update({ ...updated, status: { lastScheduleTime } });
    expect(written.status?.lastScheduleTime).toBe(lastScheduleTime);
    expect((await client.get(cronJobKind, { namespace: 'default', name: 'status' })).status?.lastScheduleTime).toBe(lastScheduleTime);
  });
  // #endregion tests
});
