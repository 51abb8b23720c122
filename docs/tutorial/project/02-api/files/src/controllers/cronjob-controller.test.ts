/**
 * The reconcile contract of the CronJob controller on a real control plane: a CronJob that does
 * not exist is no error, and reconciling the same CronJob twice changes nothing the second time.
 * Chapter 4 replaces this file with tests of what the controller does.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cronJob } from '../../test/cronjobs.js';
import { cronJobKind } from '../api/v1/cronjob.js';
import { KindRegistry } from '../runtime/apimachinery/index.js';
import { createClient, type Client } from '../runtime/client/index.js';
import { createLogger } from '../runtime/log/index.js';
import type { ReconcileContext, Request } from '../runtime/reconcile/index.js';
import { describeWithControlPlane } from 'tsop/testing';
import { CronJobReconciler } from './cronjob-controller.js';

const crds = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));

describeWithControlPlane('CronJob controller', { crdDirectoryPaths: [crds] }, (env) => {
  let client: Client & { close(): void };
  let reconciler: CronJobReconciler;
  const ctx = (): ReconcileContext => ({ log: createLogger({ level: 'silent' }), signal: AbortSignal.timeout(30_000), reconcileID: 'test', controller: 'cronjob' });

  beforeAll(() => {
    client = createClient(env.cp.kubeConfig);
    reconciler = new CronJobReconciler({ client, kinds: new KindRegistry([cronJobKind]) });
  });
  afterAll(() => client.close());

  it('returns without error for a CronJob that does not exist', async () => {
    expect(await reconciler.reconcile({ namespace: 'default', name: 'missing' }, ctx())).toBeFalsy();
  });

  it('reconciles a new CronJob, and a second reconcile changes nothing', async () => {
    await client.create(cronJob('contract'));
    const req: Request = { namespace: 'default', name: 'contract' };
    await reconciler.reconcile(req, ctx());
    const settled = await client.get(cronJobKind, req);
    await reconciler.reconcile(req, ctx());
    expect((await client.get(cronJobKind, req)).metadata?.resourceVersion).toBe(settled.metadata?.resourceVersion);
  });
});
