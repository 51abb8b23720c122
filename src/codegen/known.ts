/**
 * Schemas of the known Kubernetes scalar types, as controller-gen writes them for their Go
 * counterparts (resource.Quantity, intstr.IntOrString, metav1.Time, …). Condition takes its
 * descriptions from the core-type data and adds the validations metav1.Condition declares.
 */
import type { JSONSchemaProps } from './jsonschema.js';
import { coreTypeSchema } from './core/index.js';
import type { KnownTypeName } from './model.js';

/** resource.Quantity's pattern, as controller-gen emits it. */
export const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

const intOrString = (): JSONSchemaProps => ({
  anyOf: [{ type: 'integer' }, { type: 'string' }],
  'x-kubernetes-int-or-string': true,
});

export function knownTypeSchema(name: KnownTypeName): JSONSchemaProps {
  switch (name) {
    case 'int32':
    case 'int64':
      return { type: 'integer', format: name };
    case 'Quantity':
      return { ...intOrString(), pattern: QUANTITY_PATTERN };
    case 'IntOrString':
      return intOrString();
    case 'Time':
    case 'MicroTime':
      return { type: 'string', format: 'date-time' };
    case 'Duration':
      return { type: 'string' };
    case 'Bytes':
      return { type: 'string', format: 'byte' };
    case 'RawExtension':
      return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    case 'JSONValue':
      return { 'x-kubernetes-preserve-unknown-fields': true };
    case 'ObjectMeta':
      return { type: 'object' };
    case 'Condition':
      return conditionSchema();
  }
}

/** metav1.Condition with the validations its Go markers add. */
function conditionSchema(): JSONSchemaProps {
  const s: JSONSchemaProps = coreTypeSchema('V1Condition') ?? { type: 'object', properties: {} };
  const p = (s.properties ??= {});
  const set = (key: string, extra: JSONSchemaProps): void => {
    p[key] = { ...(p[key] ?? {}), ...extra };
  };
  set('lastTransitionTime', { type: 'string', format: 'date-time' });
  set('message', { type: 'string', maxLength: 32768 });
  set('observedGeneration', { type: 'integer', format: 'int64', minimum: 0 });
  set('reason', { type: 'string', maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' });
  set('status', { type: 'string', enum: ['True', 'False', 'Unknown'] });
  set('type', {
    type: 'string',
    maxLength: 316,
    pattern:
      '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
  });
  s.required = ['lastTransitionTime', 'message', 'reason', 'status', 'type'];
  s.type = 'object';
  return s;
}

/** The standard root fields every kind has, with the descriptions Kubernetes gives them. */
export function rootFieldSchemas(): Record<'apiVersion' | 'kind' | 'metadata', JSONSchemaProps> {
  return {
    apiVersion: {
      type: 'string',
      description:
        'APIVersion defines the versioned schema of this representation of an object.\nServers ' +
        'should convert recognized schemas to the latest internal value, and\nmay reject ' +
        'unrecognized values.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
    },
    kind: {
      type: 'string',
      description:
        'Kind is a string value representing the REST resource this object represents.\nServers ' +
        'may infer this from the endpoint the client submits requests to.\nCannot be updated.\nIn ' +
        'CamelCase.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
    },
    metadata: { type: 'object' },
  };
}

/**
 * An ObjectMeta nested in a spec (a pod template's `metadata`) with controller-gen's
 * `generateEmbeddedObjectMeta`: the allow-listed fields a template may set, so the API server
 * keeps them instead of pruning them. Without the option it is `{type: object}` and its labels
 * and annotations are pruned.
 */
export function embeddedObjectMetaSchema(): JSONSchemaProps {
  return {
    type: 'object',
    properties: {
      annotations: { type: 'object', additionalProperties: { type: 'string' } },
      finalizers: { type: 'array', items: { type: 'string' } },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      name: { type: 'string' },
      namespace: { type: 'string' },
    },
  };
}

/** Gives every `metadata: {type: object}` inside a core type's schema the embedded ObjectMeta fields. */
export function withEmbeddedObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  const meta = s.properties?.['metadata'];
  if (meta && meta.type === 'object' && meta.properties === undefined && meta.additionalProperties === undefined) {
    s.properties!['metadata'] = {
      ...embeddedObjectMetaSchema(),
      ...(meta.description !== undefined ? { description: meta.description } : {}),
    };
  }
  for (const [k, child] of Object.entries(s.properties ?? {})) if (k !== 'metadata') withEmbeddedObjectMeta(child);
  if (s.items && !Array.isArray(s.items)) withEmbeddedObjectMeta(s.items);
  if (s.additionalProperties && typeof s.additionalProperties === 'object')
    withEmbeddedObjectMeta(s.additionalProperties);
  return s;
}
