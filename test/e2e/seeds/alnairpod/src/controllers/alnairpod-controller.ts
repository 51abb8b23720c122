/**
 * The AlnairPod controller: runs each AlnairPod's containers and volumes in a Pod it owns and
 * reports that Pod's phase in the status. Three habits from the tutorial keep it quiet:
 * - status is written through the status subresource only, and the AlnairPod watch passes only
 *   generation changes, so its own status writes never bring it back;
 * - the Pod watch passes only changes of a Pod's phase;
 * - the cache holds only Pods carrying OWNER_LABEL (main.ts: `cache.byObject`), so the manager
 *   neither lists, watches nor stores the cluster's other Pods.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { controllerFor } from '../runtime/builder/index.js';
import type { ByObject } from '../runtime/cache/index.js';
import { isNotFound, type Client } from '../runtime/client/index.js';
import { setControllerReference } from '../runtime/controllerutil/index.js';
import type { Manager } from '../runtime/manager/index.js';
import { Rbac } from '../runtime/markers/index.js';
import { generationChanged, predicateFuncs } from '../runtime/predicate/index.js';
import {
  TerminalError,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from '../runtime/reconcile/index.js';
import { alnairPodKind, type AlnairPod } from '../api/v1alpha1/alnairpod.js';

/** Names the AlnairPod that a Pod runs for; the cache keeps only Pods that carry it. */
export const OWNER_LABEL = 'alnair.centaurusinfra.io/alnairpod';
const podKind = { group: '', version: 'v1', kind: 'Pod' } as const;

@Rbac({
  groups: ['alnair.centaurusinfra.io'],
  resources: ['alnairpods'],
  verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
})
@Rbac({ groups: ['alnair.centaurusinfra.io'], resources: ['alnairpods/status'], verbs: ['get', 'update', 'patch'] })
@Rbac({ groups: ['alnair.centaurusinfra.io'], resources: ['alnairpods/finalizers'], verbs: ['update'] })
@Rbac({ groups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create', 'delete'] })
export class AlnairPodReconciler implements Reconciler {
  /** The manager's cache option for Pods (main.ts): only those carrying OWNER_LABEL. */
  static readonly podCache: ByObject = { gvk: podKind, labelSelector: OWNER_LABEL };

  /** Set by setupWithManager from the manager: main.ts registers it with `new AlnairPodReconciler()`. */
  private manager: Manager | undefined;

  private get client(): Client {
    if (!this.manager) throw new TerminalError('AlnairPodReconciler: register it with setupWithManager(mgr)');
    return this.manager.client;
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    let alnair: AlnairPod;
    try {
      alnair = await this.client.get<AlnairPod>(alnairPodKind, req);
    } catch (err) {
      if (isNotFound(err)) return; // its Pod goes with it (owner reference)
      throw err;
    }
    ctx.log.info('reconciling AlnairPod');

    const pods = await this.client.list<V1Pod>(podKind, {
      namespace: req.namespace,
      labelSelector: `${OWNER_LABEL}=${req.name}`,
    });
    let pod = pods.items.find((p) => p.metadata?.name === `${req.name}-pod`);
    if (!pod) {
      pod = await this.client.create(this.podFor(alnair));
      ctx.log.info({ pod: pod.metadata?.name }, 'created pod');
    }

    const status = { podName: pod.metadata?.name, phase: pod.status?.phase ?? 'Pending' };
    if (alnair.status?.podName !== status.podName || alnair.status?.phase !== status.phase) {
      await this.client.status().update({ ...alnair, status });
    }
  }

  private podFor(alnair: AlnairPod): V1Pod {
    const name = alnair.metadata?.name ?? '';
    const pod: V1Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${name}-pod`, namespace: alnair.metadata?.namespace, labels: { [OWNER_LABEL]: name } },
      spec: { containers: alnair.spec?.containers ?? [], volumes: alnair.spec?.volumes },
    };
    setControllerReference(alnair, pod);
    return pod;
  }

  setupWithManager(mgr: Manager): void {
    this.manager = mgr;
    const phaseChanged = predicateFuncs<V1Pod>({
      update: (e) => e.objectOld.status?.phase !== e.objectNew.status?.phase,
    });
    controllerFor(mgr, alnairPodKind, generationChanged())
      .named('alnairpod')
      .owns({ apiVersion: 'v1', kind: 'Pod' }, { predicates: [phaseChanged] })
      .complete(this);
  }
}
