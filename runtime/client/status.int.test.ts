/**
 * patchStatus against the real API server: a status write from an object read before one's own
 * last write (what a lagging cache hands a reconciler) succeeds instead of failing with 409, only
 * `.status` is sent, and an unchanged status sends nothing.
 */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { kindFor } from '../apimachinery/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { GADGET, type Gadget } from './client.contract.js';
import { ConflictError, createClient, patchStatus } from './index.js';

const crds = fileURLToPath(new URL('./testdata/', import.meta.url));
const gadgetKind = kindFor<Gadget>({ group: 'clienttest.tsop.dev', version: 'v1', kind: 'Gadget' });

describeWithControlPlane('patchStatus', { shared: true, crdDirectoryPaths: [crds] }, (env) => {
  it('writes from a stale read without a conflict, sends only the status, and nothing when unchanged', async () => {
    const client = createClient(env.cp.kubeConfig, { fieldOwner: 'status-test' });
    await client.create<Gadget>({
      ...GADGET,
      metadata: { name: 'stale', namespace: env.namespace },
      spec: { size: 2 },
    });
    const stale = await client.get(gadgetKind, { namespace: env.namespace, name: 'stale' });

    const first = await patchStatus(client, stale, { ...stale.status, phase: 'Ready', observedSize: 2 });
    expect(first.status).toEqual({ phase: 'Ready', observedSize: 2 });
    // The same stale object again: an update would be refused, the patch is not.
    await expect(client.status().update({ ...stale, status: { phase: 'Busy' } })).rejects.toBeInstanceOf(ConflictError);
    const second = await patchStatus(client, stale, { phase: 'Busy', observedSize: 2 });
    expect(second.status).toEqual({ phase: 'Busy', observedSize: 2 });
    // A spec change in the object is not sent: the status subresource and the patch hold status only.
    const third = await patchStatus(client, { ...second, spec: { size: 9 } }, { phase: 'Busy' });
    expect(third.spec).toEqual({ size: 2 });
    expect(third.status).toEqual({ phase: 'Busy' });
    // Unchanged: no request, the same object back, the resourceVersion where it was.
    expect(await patchStatus(client, third, { phase: 'Busy' })).toBe(third);
    expect((await client.get(gadgetKind, { namespace: env.namespace, name: 'stale' })).metadata?.resourceVersion).toBe(
      third.metadata?.resourceVersion,
    );
    await client.delete(third);
  });
});
