/**
 * A manager on a test's control plane, set up as tests want one: no metrics port, a metrics
 * registry of its own (so two managers in one process do not collide), logs off. Anything given
 * (a namespace, a logger, leader election...) overrides those defaults.
 */
import { Registry } from 'prom-client';
import { createLogger } from '../log/index.js';
import { createManager, type Manager, type ManagerOptions } from '../manager/index.js';
import type { ControlPlaneEnv } from './control-plane.js';

export function testManager(
  env: { cp: Pick<ControlPlaneEnv['cp'], 'kubeConfig'> },
  options: Partial<ManagerOptions> = {},
): Manager {
  return createManager({
    kubeConfig: env.cp.kubeConfig,
    metricsBindAddress: '0',
    registry: new Registry(),
    logger: createLogger({ level: 'silent' }),
    ...options,
  });
}
