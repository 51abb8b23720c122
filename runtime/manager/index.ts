/**
 * manager: runs an operator's caches, controllers and servers for the life of the process —
 * metrics and health probes, leader election, graceful shutdown on SIGTERM/SIGINT — and the
 * command-line flags and process exit of a generated main.ts. It runs the webhook server and the
 * sharding engine main.ts gives it through small interfaces (webhook-server.ts, sharding-engine.ts),
 * so it never loads webhook/ or sharding/.
 */

export {
  createManager,
  ManagerStartedError,
  ShutdownTimeoutError,
  LeaderElectionLostError,
  ShardLeaseLostError,
} from './manager.js';
export type { Manager } from './types.js';
export type { ManagerOptions, LeaderElectionConfig, MetricsServerOptions } from './options.js';
export { InvalidManagerOptionsError } from './options.js';
export { CacheSyncTimeoutError } from '../cache/index.js';
export type { Runnable } from './runnable.js';
export { runnableFunc } from './runnable.js';
export { setupSignalHandler, SignalHandlerInstalledError } from './signals.js';
export { parseBindAddress, InvalidBindAddressError } from './bind-address.js';
export type { BindAddress } from './bind-address.js';
export { Checks, ping, DuplicateCheckError } from './health.js';
export type { Checker, CheckReport } from './health.js';
export { ControllerDebug, controllerDebugFor, debugControllersRoute } from './debug.js';
export type { ControllerDebugInfo, DebugControllersOptions, DebugResult, DebuggableController } from './debug.js';
export {
  parseManagerFlags,
  readManagerFlags,
  managerOptionsFromFlags,
  managerUsage,
  podNamespace,
  webhookServerOptionsFromFlags,
  InvalidFlagError,
} from './flags.js';
export type { ManagerFlags, FlagContext, FlagManagerOptions } from './flags.js';
export { runManager } from './run.js';
export { exitOnFatalError, isUserError, logFailure } from './fatal.js';
export {
  StartupError,
  KubeConfigContextError,
  ApiServerUnreachableError,
  ApiServerRefusedError,
  KindNotServedError,
  LeaseNamespaceError,
  ListenError,
  checkKubeConfig,
  runStartupChecks,
  type StartupChecks,
} from './startup.js';
export type { RunOptions } from './run.js';
export {
  setDefaultWebhookServer,
  NoWebhookServerError,
  type ManagedWebhookServer,
  type WebhookServerOptions,
  type SelfProvisionOptions,
  type WebhookServerDeps,
  type WebhookHandler,
  type WebhookReply,
  type WebhookRequestContext,
} from './webhook-server.js';
export {
  NoShardingEngineError,
  resolveSharding,
  invalidName,
  defaultShardName,
  DEFAULT_TOKENS_PER_SHARD,
  type ShardingOptions,
  type ResolvedSharding,
  type ShardingEngine,
  type ShardingEngineFactory,
  type ShardingDeps,
  type HoldCallbacks,
  type RingDebugSummary,
} from './sharding-engine.js';
export {
  DEV_CONSOLE_ENV,
  devConsoleURL,
  startDevConsoleSpans,
  postToDevConsole,
  DevObjectReporter,
  type DevObjectsReport,
} from './dev-console.js';
