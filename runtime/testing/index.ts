/**
 * The test harness as a generated project imports it: `import { describeWithControlPlane } from
 * 'tsop/testing'` (package.json "exports"). It ships with tsop, the project's dev dependency, and
 * is never embedded: the operator does not run it, as envtest reaches a Go operator only in its
 * test binaries. What it hands a test is plain data or @kubernetes/client-node's own types (the
 * project's copy of that package), so the embedded runtime takes it as it is
 * (`createClient(env.cp.kubeConfig)`).
 */
export {
  apiServerOutage,
  describeWithControlPlane,
  skipReason,
  SKIPPED_ENV,
  type ControlPlaneEnv,
  type SuiteOptions,
} from './control-plane.js';
export type {
  BinaryAssets,
  ControlPlane,
  ControlPlaneOptions,
  InstalledWebhooks,
  WebhookInstallOptions,
} from '../envtest/index.js';
