/**
 * Result: what a reconcile asks the controller to do next. Nothing (or `{}`) means "done until
 * the next event"; `requeueAfter` schedules another run after that many milliseconds;
 * `requeue: true` asks for a rate-limited retry without counting as an error.
 */

export type Result = { requeueAfter?: number; requeue?: boolean } | void;

/** The four outcomes a worker distinguishes; also the `result` label of reconcile_total. */
export type Outcome = 'success' | 'error' | 'requeue' | 'requeue_after';
