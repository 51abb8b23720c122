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
 * | `RawExtension` | object, unknown fields preserved |
 * | `JSONValue` | any JSON, unknown fields preserved |
 * | `Condition` | metav1.Condition with its validations |
 * | `ObjectMeta` | `{type: object}` (the API server owns its schema) |
 *
 * They are plain aliases rather than brands so that `spec.replicas = 3` needs no cast.
 */
import type { V1ObjectMeta } from '@kubernetes/client-node';

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
/** A duration in Go syntax: `300ms`, `1.5h`, `2h45m`. */
export type Duration = string;
/** Any JSON value. */
export type JSONValue = string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue };
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
