/** The entry point of an operator: one manager runs the cache, the controllers and the servers until SIGTERM. */
import { loadKubeConfig } from '../../../runtime/kubeconfig/index.js';
import { createLogger } from '../../../runtime/log/index.js';
import {
  createManager,
  exitOnFatalError,
  managerOptionsFromFlags,
  parseManagerFlags,
  ping,
  runManager,
} from '../../../runtime/manager/index.js';
import { setup } from './builder.js';

// --metrics-bind-address, --leader-elect, … (--help lists them)
const flags = parseManagerFlags();
const log = createLogger();
// a problem you can fix ends the process with one line saying how
exitOnFatalError(log);

const mgr = createManager({
  ...managerOptionsFromFlags(flags, {
    leaderElectionId: 'memcached.example.com',
  }),
  kubeConfig: loadKubeConfig(),
  logger: log,
});
mgr.addHealthzCheck('healthz', ping);
mgr.addReadyzCheck('readyz', ping);
setup(mgr);

await runManager(mgr); // exits 0 after SIGTERM, 1 when the manager fails
