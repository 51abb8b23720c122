/** Run work on one replica at a time, outside a manager (a manager elects itself with `leaderElection`). */
import { loadKubeConfig } from '../../../runtime/kubeconfig/index.js';
import {
  defaultIdentity,
  LeaderElector,
} from '../../../runtime/leaderelection/index.js';

const elector = new LeaderElector({
  kubeConfig: loadKubeConfig(),
  lease: { namespace: 'memcached-system', name: 'nightly-backup' },
  identity: defaultIdentity(), // hostname and a random suffix
  leaseDurationMs: 15_000,
  callbacks: {
    // `signal` aborts when the lease is lost: stop writing then.
    onStartedLeading: async (signal) => {
      while (!signal.aborted) await new Promise((r) => setTimeout(r, 1_000));
    },
    onNewLeader: (identity) => console.log(`leader is now ${identity}`),
  },
});

const stop = new AbortController();
process.once('SIGTERM', () => stop.abort());
await elector.run(stop.signal);
