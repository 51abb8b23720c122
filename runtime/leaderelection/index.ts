/** Lease-based leader election: the elector and its pure decision rules. */
export {
  LeaderElector,
  InvalidLeaderElectionConfigError,
  defaultIdentity,
  type LeaderCallbacks,
  type LeaderElectionOptions,
} from './elector.js';
export {
  decide,
  observe,
  expiresAt,
  releasedRecord,
  validateTiming,
  microTime,
  type Decision,
  type DecideInput,
  type LeaderElectionRecord,
  type Observation,
  type Timing,
} from './record.js';
export { realClock, sleep, type Clock } from './clock.js';
