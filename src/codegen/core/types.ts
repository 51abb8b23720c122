/**
 * The shape of src/codegen/core/core-schemas.json: converted upstream definitions that still
 * point at each other by name. index.ts inlines them into plain JSONSchemaProps.
 */
import type { JSONSchemaProps } from '../jsonschema.js';

/** A JSONSchemaProps node that may be a reference to another definition. */
export interface CoreSchema extends Omit<JSONSchemaProps, 'properties' | 'items' | 'additionalProperties' | 'anyOf'> {
  /** A definition name such as 'io.k8s.api.core.v1.Container'; siblings override its fields. */
  $ref?: string;
  properties?: Record<string, CoreSchema>;
  items?: CoreSchema;
  additionalProperties?: CoreSchema | boolean;
  anyOf?: CoreSchema[];
}

export interface CoreSchemaData {
  /** Where the definitions came from, e.g. 'k8s.io/kubernetes@v1.36.3 api/openapi-spec/v3'. */
  source: string;
  /** The definitions a CRD author is expected to embed; everything else is reachable from them. */
  roots: string[];
  /** @kubernetes/client-node class name → definition name. */
  clientNames: Record<string, string>;
  /** Definition name → converted schema. */
  definitions: Record<string, CoreSchema>;
}
