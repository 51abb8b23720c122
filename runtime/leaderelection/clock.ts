/**
 * Time for the elector. Expiry and deadlines run on the runtime's monotonic, injectable Clock
 * (queue/), so a wall-clock step (NTP) can neither expire a live lease nor keep a dead one;
 * wall time is used only for the timestamps written into the Lease.
 */
export { realClock, sleep, type Clock } from '../queue/index.js';
