/** Structured JSON logging: root logger, reconcile-scoped child loggers, test helpers. */
export {
  createLogger,
  rootLogger,
  setRootLogger,
  silenceLogs,
  loggerFor,
  newReconcileID,
  parseLogLevel,
  InvalidLogLevelError,
  type Logger,
  type LogLevel,
  type LoggerOptions,
  type ReconcileLogFields,
} from './logger.js';
export { memoryDestination, type MemoryDestination } from './memory.js';
