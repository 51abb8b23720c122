/**
 * The At API of the cnat operator ("Programming Kubernetes"): run a command once, at a given time.
 * The spec holds the schedule and the command; the status holds the phase, PENDING until the
 * schedule is due, RUNNING while its Pod runs, DONE when the Pod has finished.
 */
import { Enum, PrintColumn, Resource, SubresourceStatus, type ObjectMeta } from '../../runtime/markers/index.js';
import { groupVersion } from './groupversion.js';

export const PHASE_PENDING = 'PENDING';
export const PHASE_RUNNING = 'RUNNING';
export const PHASE_DONE = 'DONE';

/** AtSpec defines the desired state of At. */
export class AtSpec {
  /** When to run the command, in UTC as RFC 3339 (e.g. 2026-01-02T15:04:05Z). */
  schedule?: string;
  /** The command to run (in a shell) once the schedule is due. */
  command?: string;
}

/** AtStatus defines the observed state of At. */
export class AtStatus {
  /** PENDING until the command runs, RUNNING while it runs, DONE once it has finished. */
  @Enum('PENDING', 'RUNNING', 'DONE')
  phase?: string;
  /** Why the At cannot go on, e.g. a schedule that does not parse. */
  message?: string;
}

/** At is the Schema for the ats API. */
@Resource()
@SubresourceStatus()
@PrintColumn({ name: 'Schedule', type: 'string', jsonPath: '.spec.schedule' })
@PrintColumn({ name: 'Phase', type: 'string', jsonPath: '.status.phase' })
export class At {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: AtSpec;
  status?: AtStatus;
}

/** Names At objects in client calls and watches. */
export const atKind = { group: groupVersion.group, version: groupVersion.version, kind: 'At' } as const;
