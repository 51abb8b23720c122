/** Add a metric of your own to the registry the manager serves on /metrics. */
import { Counter } from 'prom-client';
import { registry } from '../../../runtime/metrics/index.js';

export const backups = new Counter({
  name: 'memcached_backups_total',
  help: 'Backups taken, by result.',
  labelNames: ['result'] as const,
  registers: [registry],
});

backups.inc({ result: 'success' });
// Served beside controller-runtime's own: controller_runtime_reconcile_total,
// workqueue_depth, …
console.log(await registry.getSingleMetricAsString('memcached_backups_total'));
