/**
 * The apiextensions.k8s.io/v1 JSONSchemaProps shape: what a CRD's openAPIV3Schema holds. Shared
 * by the schema builder (src/codegen), the core-type data (src/codegen/core) and the emitters.
 */
import type { JSONValue, ValidationRule } from '../../runtime/shapes/index.js';

/** The shapes users write in markers are the runtime's (runtime/shapes). */
export type { JSONValue, ValidationRule };

export interface JSONSchemaProps {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  title?: string;
  description?: string;
  externalDocs?: { url: string; description?: string };
  default?: JSONValue;
  example?: JSONValue;
  enum?: JSONValue[];
  nullable?: boolean;

  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: boolean;
  exclusiveMinimum?: boolean;
  multipleOf?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  minProperties?: number;

  required?: string[];
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps;

  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;

  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-validations'?: ValidationRule[];
}
