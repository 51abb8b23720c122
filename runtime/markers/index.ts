/**
 * markers: the decorators `tsop manifests` reads from API classes and controllers, and the scalar
 * types API classes use. Everything here is a no-op at run time, except `parseTime` (RFC 3339).
 */
export type {
  int32,
  int64,
  Quantity,
  IntOrString,
  Time,
  MicroTime,
  Duration,
  Bytes,
  JSONValue,
  RawExtension,
  ObjectMeta,
  Condition,
  GroupVersion,
} from './types.js';
export { parseTime, InvalidTimeError } from './types.js';
export type { FieldMarker, ClassMarker, FieldOrClassMarker } from './decorator.js';
export * from './validation.js';
export * from './kind.js';
export * from './rbac.js';
export * from './webhook.js';
export * from './csv.js';
