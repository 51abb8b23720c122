/**
 * leader_election_master_status{name}: 1 while this process holds the lease named `name`, 0
 * otherwise — the gauge client-go's leader election exports and alerts are written against.
 */

import { Gauge, type Registry } from './prom.js';

export class LeaderElectionMetrics {
  readonly masterStatus: Gauge<'name'>;

  constructor(reg: Registry) {
    this.masterStatus = new Gauge({
      name: 'leader_election_master_status',
      help: '1 while this process holds the named lease, 0 while it is a candidate',
      labelNames: ['name'] as const,
      registers: [reg],
    });
  }

  /** Records whether this process currently leads `name`. */
  setLeading(name: string, leading: boolean): void {
    this.masterStatus.set({ name }, leading ? 1 : 0);
  }
}
