/**
 * The At controller (cnat): waits until an At's schedule is due — one requeue timed to the
 * schedule, no polling — then runs its command in a one-shot Pod it owns, and marks the At DONE
 * when that Pod has finished. A schedule that does not parse is reported in the status and as a
 * Warning event, and waits for the spec to change instead of being retried.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { controllerFor } from '../runtime/builder/index.js';
import { isAlreadyExists, isConflict, isNotFound, type Client } from '../runtime/client/index.js';
import { setControllerReference } from '../runtime/controllerutil/index.js';
import type { EventRecorder } from '../runtime/events/index.js';
import type { Manager } from '../runtime/manager/index.js';
import { Rbac } from '../runtime/markers/index.js';
import {
  TerminalError,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from '../runtime/reconcile/index.js';
import { atKind, PHASE_DONE, PHASE_PENDING, PHASE_RUNNING, type At, type AtStatus } from '../api/v1alpha1/at.js';

const podKind = { group: '', version: 'v1', kind: 'Pod' } as const;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Milliseconds until `schedule` (negative once due), or an error saying why it does not parse. */
export function timeUntilSchedule(schedule: string | undefined, now = Date.now()): number | Error {
  const at = schedule !== undefined && RFC3339.test(schedule) ? Date.parse(schedule) : NaN;
  if (Number.isNaN(at))
    return new Error(`schedule ${JSON.stringify(schedule ?? '')} is not an RFC 3339 time such as 2026-01-02T15:04:05Z`);
  return at - now;
}

@Rbac({
  groups: ['cnat.programming-kubernetes.info'],
  resources: ['ats'],
  verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
})
@Rbac({ groups: ['cnat.programming-kubernetes.info'], resources: ['ats/status'], verbs: ['get', 'update', 'patch'] })
@Rbac({ groups: ['cnat.programming-kubernetes.info'], resources: ['ats/finalizers'], verbs: ['update'] })
@Rbac({ groups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create', 'delete'] })
@Rbac({ groups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] })
export class AtReconciler implements Reconciler {
  /** Both set by setupWithManager from the manager: main.ts registers it with `new AtReconciler()`. */
  private deps: { client: Client; recorder: EventRecorder } | undefined;

  private get client(): Client {
    return this.wired().client;
  }

  private get recorder(): EventRecorder {
    return this.wired().recorder;
  }

  private wired(): { client: Client; recorder: EventRecorder } {
    if (!this.deps) throw new TerminalError('AtReconciler: register it with setupWithManager(mgr)');
    return this.deps;
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    let at: At;
    try {
      at = await this.client.get<At>(atKind, req);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const phase = at.status?.phase || PHASE_PENDING;
    ctx.log.info({ phase }, 'reconciling At');

    if (phase === PHASE_PENDING) {
      const due = timeUntilSchedule(at.spec?.schedule);
      if (due instanceof Error) {
        // Retrying cannot fix the spec; an edit of the spec triggers the next reconcile.
        if (at.status?.message !== due.message) {
          this.recorder.event(at, 'Warning', 'InvalidSchedule', 'Scheduling', due.message);
          await this.writeStatus(at, { phase: PHASE_PENDING, message: due.message });
        }
        return;
      }
      if (due > 0) {
        if (at.status?.phase !== PHASE_PENDING || at.status.message)
          await this.writeStatus(at, { phase: PHASE_PENDING });
        ctx.log.info({ inMs: due }, 'waiting for the schedule');
        return { requeueAfter: due };
      }
      // A cache that has not seen our last status write yet brings us here twice: one Pod only.
      try {
        await this.client.create(this.podFor(at));
        this.recorder.event(
          at,
          'Normal',
          'Started',
          'RunCommand',
          `pod ${at.metadata?.name}-pod runs: ${at.spec?.command ?? ''}`,
        );
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
      await this.writeStatus(at, { phase: PHASE_RUNNING });
      return;
    }

    if (phase === PHASE_RUNNING) {
      let pod: V1Pod;
      try {
        pod = await this.client.get<V1Pod>(podKind, { namespace: req.namespace, name: `${req.name}-pod` });
      } catch (err) {
        if (!isNotFound(err)) throw err;
        // Deleted under us (or not in the cache yet): run it again, once.
        await this.client.create(this.podFor(at)).catch((e: unknown) => {
          if (!isAlreadyExists(e)) throw e;
        });
        return;
      }
      // The Pod is owned, so its changes bring us back here: nothing to poll.
      if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') {
        this.recorder.event(at, 'Normal', 'Finished', 'RunCommand', `pod ${pod.metadata?.name} ${pod.status.phase}`);
        await this.writeStatus(at, { phase: PHASE_DONE });
      }
    }
    // DONE: nothing left to do.
  }

  /** Writes the status; a conflict means a newer At is on its way to the cache, which brings us back. */
  private async writeStatus(at: At, status: AtStatus): Promise<void> {
    try {
      await this.client.status().update({ ...at, status });
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }

  /** A one-shot Pod running the command in a shell, owned by the At. */
  private podFor(at: At): V1Pod {
    const pod: V1Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `${at.metadata?.name}-pod`,
        namespace: at.metadata?.namespace,
        labels: { app: at.metadata?.name ?? '' },
      },
      spec: {
        restartPolicy: 'Never',
        containers: [{ name: 'busybox', image: 'busybox', command: ['sh', '-c', at.spec?.command ?? 'true'] }],
      },
    };
    setControllerReference(at, pod);
    return pod;
  }

  setupWithManager(mgr: Manager): void {
    this.deps = { client: mgr.client, recorder: mgr.getEventRecorder('at-controller') };
    controllerFor(mgr, atKind).named('at').owns({ apiVersion: 'v1', kind: 'Pod' }).complete(this);
  }
}
