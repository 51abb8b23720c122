/**
 * Scalar types for API classes. TypeScript has one number type and no notion of a Kubernetes
 * quantity, so API classes name these aliases and `tsop manifests` maps them by name (it reads the
 * syntax, it never evaluates them):
 *
 * | alias | schema |
 * |---|---|
 * | `int32` / `int64` | `integer`, format `int32` / `int64` (plain `number` becomes `type: number`) |
 * | `Quantity` | int-or-string with the resource.Quantity pattern |
 * | `IntOrString` | int-or-string |
 * | `Time` / `MicroTime` | string, format `date-time` |
 * | `Duration` | string (Go duration syntax, e.g. `1h30m`) |
 * | `Bytes` | string, format `byte` (base64 text, Go's `[]byte`) |
 * | `RawExtension` | object, unknown fields preserved |
 * | `JSONValue` | any JSON, unknown fields preserved |
 * | `Condition` | metav1.Condition with its validations |
 * | `ObjectMeta` | `{type: object}` (the API server owns its schema) |
 *
 * They are plain aliases rather than brands so that `spec.replicas = 3` needs no cast.
 * `parseTime` reads a `Time` strictly (Date.parse does not).
 */
import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { JSONValue } from '../shapes/index.js';

/** A 32-bit integer (schema: integer, format int32). */
export type int32 = number;
/** A 64-bit integer (schema: integer, format int64). Values beyond 2^53 lose precision in JS. */
export type int64 = number;
/** A resource quantity such as `500m`, `1Gi` or `2`. */
export type Quantity = string | number;
/** An integer or a string, e.g. a port number or name, or a percentage. */
export type IntOrString = number | string;
/** An RFC 3339 timestamp with second precision, as the API server writes it. */
export type Time = string;
/** An RFC 3339 timestamp with microsecond precision. */
export type MicroTime = string;
/** Raised by `parseTime` for text that is not an RFC 3339 timestamp. */
export class InvalidTimeError extends Error {
  override readonly name = 'InvalidTimeError';
}

// Full date, 'T', time with optional fraction, then 'Z' or a numeric offset (RFC 3339 section 5.6).
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Reads a `Time` or `MicroTime` as the API server (Go's time.RFC3339Nano) does. Date.parse is
 * lenient: it takes '2024-02-30', dates without a zone (read as local time) and free-form text
 * such as 'March 7'; a spec field validated by format `date-time` never holds those, so code
 * that accepts them hides bad input. Digits past milliseconds are dropped (a Date holds no more).
 */
export function parseTime(text: string): Date {
  const m = RFC3339.exec(text);
  const bad = (rule: string): InvalidTimeError =>
    new InvalidTimeError(`invalid time ${JSON.stringify(text)}: ${rule} (RFC 3339, e.g. 2024-03-07T09:30:00Z)`);
  if (!m) throw bad('expected YYYY-MM-DDTHH:MM:SS[.fraction] followed by Z or ±HH:MM');
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12) throw bad('month out of range');
  if (day < 1 || day > daysIn(year, month)) throw bad('day out of range');
  if (hour > 23) throw bad('hour out of range');
  if (minute > 59) throw bad('minute out of range');
  if (second > 59) throw bad('second out of range');
  const zone = m[8]!;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) throw bad('zone offset out of range');
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const millis = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000 + 1e-6) : 0;
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, millis);
  return new Date(d.getTime() - offsetMinutes * 60_000);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A duration in Go syntax: `300ms`, `1.5h`, `2h45m`. */
export type Duration = string;
/**
 * Binary data as JSON carries it: base64 text (schema: string, format byte; Go's `[]byte`).
 * `Buffer.from(value, 'base64')` reads it, `buffer.toString('base64')` writes it.
 */
export type Bytes = string;
export type { JSONValue };
/** An embedded object whose fields the API server keeps as they are. */
export type RawExtension = { [key: string]: JSONValue };
/** Object metadata (name, namespace, labels, …). */
export type ObjectMeta = V1ObjectMeta;

/** metav1.Condition: one aspect of an object's current state. */
export interface Condition {
  /** Condition type in CamelCase or `foo.example.com/CamelCase`. */
  type: string;
  /** `True`, `False` or `Unknown`. */
  status: 'True' | 'False' | 'Unknown';
  /** The .metadata.generation the condition was set for. */
  observedGeneration?: int64;
  /** When the condition last changed from one status to another. */
  lastTransitionTime: Time;
  /** A CamelCase reason for the last transition. */
  reason: string;
  /** A human-readable message about the transition. */
  message: string;
}

/**
 * The group and version of the kinds declared next to it; `tsop manifests` reads the
 * `export const groupVersion = { group, version }` in each API directory (kubebuilder's
 * groupversion_info.go).
 */
export interface GroupVersion {
  readonly group: string;
  readonly version: string;
  /**
   * `'optional'`: fields of the types declared under this directory are optional unless marked
   * `@Required()`, even without `?` (controller-gen's package-level `+kubebuilder:validation:Optional`).
   * `'required'` (the default): a field is required unless declared with `?` or marked `@Optional()`.
   */
  readonly fields?: 'optional' | 'required';
  /** `true`: `tsop manifests` generates nothing for the kinds under this directory (controller-gen's package-level `+kubebuilder:skip`). */
  readonly skip?: boolean;
}
