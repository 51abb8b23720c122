/**
 * The reconciler the acceptance tests and the benchmark run: each Gizmo gets one Deployment of
 * the same name (controller-owned by the Gizmo) and a Ready condition with observedGeneration.
 * Written the way a generated operator would be, on the runtime's public modules only.
 */

import type { V1Deployment } from '@kubernetes/client-node';
import type { KubeObject } from '../apimachinery/index.js';
import { isNotFound, type Client } from '../client/index.js';
import { setStatusCondition, type Condition } from '../conditions/index.js';
import { createOrUpdate, setControllerReference } from '../controllerutil/index.js';
import type { EventRecorder } from '../events/index.js';
import { requestKey, type Reconciler } from '../reconcile/index.js';
import type { ConcurrencyProbe } from './probe.js';

export const GIZMO = { apiVersion: 'fixtures.tsop.dev/v1', kind: 'Gizmo' } as const;
export const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;

export interface Gizmo extends KubeObject {
  spec?: { replicas?: number; image?: string };
  status?: { observedGeneration?: number; conditions?: Condition[] };
}

export interface GizmoReconcilerOptions {
  /** Called with the key at the start and end of every reconcile. */
  probe?: ConcurrencyProbe;
  /** Extra time spent inside each reconcile (graceful-shutdown tests). */
  delayMs?: number;
  /** Called when a reconcile finishes its writes (child-process tests report it). */
  onReconciled?: (key: string) => void;
  /** Records a Normal event when the Deployment is created. */
  recorder?: EventRecorder;
}

export function gizmoReconciler(client: Client, opts: GizmoReconcilerOptions = {}): Reconciler {
  return {
    async reconcile(req, ctx) {
      const key = requestKey(req);
      opts.probe?.enter(key);
      try {
        let gizmo: Gizmo;
        try {
          gizmo = await client.get<Gizmo>(GIZMO, req);
        } catch (err) {
          if (isNotFound(err)) return; // deleted; owner references clean up children
          throw err;
        }
        if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
        const labels = { 'fixtures.tsop.dev/gizmo': req.name };
        const dep: V1Deployment & KubeObject = { ...DEPLOYMENT, metadata: { name: req.name, namespace: req.namespace } };
        const op = await createOrUpdate(client, dep, (d) => {
          setControllerReference(gizmo, d);
          // Only the fields we own are set, so server defaults do not read as drift.
          d.spec ??= { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [] } } };
          d.spec.replicas = gizmo.spec?.replicas ?? 1;
          const containers = d.spec.template.spec!.containers;
          if (containers.length === 0) containers.push({ name: 'app' });
          containers[0]!.image = gizmo.spec?.image ?? 'registry.k8s.io/pause:3.10';
        });
        if (op === 'created') opts.recorder?.event(gizmo, 'Normal', 'DeploymentCreated', 'Create', `created deployment ${req.name}`, dep);
        const generation = gizmo.metadata?.generation;
        const conditions = structuredClone(gizmo.status?.conditions ?? []);
        const changed = setStatusCondition(conditions, {
          type: 'Ready',
          status: 'True',
          reason: 'DeploymentCreated',
          message: `deployment ${req.name} exists`,
          observedGeneration: generation,
        });
        if (changed || gizmo.status?.observedGeneration !== generation) {
          await client.status().update({ ...gizmo, status: { ...gizmo.status, observedGeneration: generation, conditions } });
          ctx.log.debug('status updated');
        }
        opts.onReconciled?.(key);
      } finally {
        opts.probe?.exit(key);
      }
    },
  };
}
