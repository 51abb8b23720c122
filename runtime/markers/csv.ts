/**
 * CSV descriptors: what `tsop generate kustomize manifests` writes into the ClusterServiceVersion's
 * owned CRD descriptions (operator-sdk's `+operator-sdk:csv:customresourcedefinitions` markers).
 * `@CsvDescription` stands on a kind, `@CsvDescriptor` on a field anywhere under its spec or status.
 */
import { marker, type ClassMarker, type FieldMarker } from './decorator.js';

/** A Kubernetes resource the kind creates or manages, shown in the OLM console. */
export interface CsvResource {
  kind: string;
  version: string;
  /** The name the operator gives it, when fixed. */
  name?: string;
}

export interface CsvDescriptionOptions {
  /** The kind's name in the console (default: the kind split into words, `MemcachedCluster` → `Memcached Cluster`). */
  displayName?: string;
  /** The resources an instance of the kind owns (Deployments, Services, …). */
  resources?: CsvResource[];
  /** Its place among the owned CRDs: lower first; kinds without one come last, by name. */
  order?: number;
}

export interface CsvDescriptorOptions {
  /** A spec descriptor (a field the user sets) or a status descriptor (a field the operator reports). */
  type: 'spec' | 'status';
  /** The field's name in the console (default: the field name split into words). */
  displayName?: string;
  /** The console widgets for it, e.g. `urn:alm:descriptor:com.tectonic.ui:podCount`. */
  xDescriptors?: string[];
  /** Its place among the kind's descriptors: lower first; fields without one come last, by path. */
  order?: number;
}

/** The kind's owned-CRD description in the CSV: display name and the resources it owns. */
export const CsvDescription = (_options: CsvDescriptionOptions = {}): ClassMarker => marker;

/** Lists the field as a spec or status descriptor of its kind in the CSV. */
export const CsvDescriptor = (_options: CsvDescriptorOptions): FieldMarker => marker;
