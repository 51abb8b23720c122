/**
 * Kind-level markers (controller-gen's `+kubebuilder:resource`, `subresource`, `printcolumn`,
 * `storageversion`, `unservedversion`, `deprecatedversion`, `selectablefield`, `metadata`).
 *
 * A class decorated `@Resource(...)` is a kind; its group and version come from the
 * `export const groupVersion = { group, version }` in a file of the same directory.
 */
import { marker, type ClassMarker } from './decorator.js';

export interface ResourceOptions {
  /** `Namespaced` (default) or `Cluster`. */
  scope?: 'Namespaced' | 'Cluster';
  /** Resource plural; default: controller-gen's, the lower-cased flect plural of the kind (`ExternalDNS` → `externaldnses`). */
  plural?: string;
  /** Default: the lower-cased kind. */
  singular?: string;
  shortNames?: string[];
  /** e.g. `['all']`. */
  categories?: string[];
}

export interface PrintColumnOptions {
  name: string;
  type: 'integer' | 'number' | 'string' | 'boolean' | 'date';
  /** A simple JSONPath into the object, e.g. `.spec.replicas`. */
  jsonPath: string;
  description?: string;
  format?: 'int32' | 'int64' | 'float' | 'double' | 'byte' | 'date' | 'date-time' | 'password';
  /** 0 shows the column in the standard view; higher numbers only in `-o wide`. */
  priority?: number;
}

export interface ScaleOptions {
  /** e.g. `.spec.replicas`. */
  specPath: string;
  /** e.g. `.status.replicas`. */
  statusPath: string;
  /** e.g. `.status.selector` (a string label selector). */
  selectorPath?: string;
}

/** `@Resource({ scope: 'Cluster', shortNames: ['cj'] })`: this class is a kind. */
export const Resource = (_options: ResourceOptions = {}): ClassMarker => marker;
/** `@SubresourceStatus()`: enable the status subresource. */
export const SubresourceStatus = (): ClassMarker => marker;
/** `@SubresourceScale({ specPath: '.spec.replicas', statusPath: '.status.replicas' })`. */
export const SubresourceScale = (_options: ScaleOptions): ClassMarker => marker;
/** `@PrintColumn({ name: 'Ready', type: 'string', jsonPath: '.status.ready' })`, once per column. */
export const PrintColumn = (_options: PrintColumnOptions): ClassMarker => marker;
/** `@StorageVersion()`: this version is stored in etcd (required when a kind has several versions). */
export const StorageVersion = (): ClassMarker => marker;
/** `@SkipVersion()`: this version is left out of the CRD (an internal version; the kind needs another). */
export const SkipVersion = (): ClassMarker => marker;
/** `@Unserved()`: this version is not served by the API server. */
export const Unserved = (): ClassMarker => marker;
/** `@DeprecatedVersion({ warning: 'use v2' })`: requests to this version get a warning. */
export const DeprecatedVersion = (_options: { warning?: string } = {}): ClassMarker => marker;
/** `@SelectableField({ jsonPath: '.spec.type' })`: a field usable in field selectors. */
export const SelectableField = (_options: { jsonPath: string }): ClassMarker => marker;
/** `@Metadata({ labels: {...}, annotations: {...} })`: extra labels and annotations on the CRD. */
export const Metadata = (_options: {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}): ClassMarker => marker;
