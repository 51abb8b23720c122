/**
 * Schemas of the core Kubernetes types a CRD may embed (V1Container, V1PodTemplateSpec,
 * V1JobTemplateSpec, V1LabelSelector, …), fully inlined and shaped as controller-gen emits them.
 *
 * Names are @kubernetes/client-node class names. They map to OpenAPI definition names by the
 * client generator's rule: `<Version><Kind>` for io.k8s.api.<group>.<version>.<Kind> and for
 * io.k8s.apimachinery.pkg.apis.meta.<version>.<Kind> (V1Container, V1beta1…, V1LabelSelector),
 * with the group in front when two groups share a version and kind (CoreV1ResourceClaim). The
 * table itself is in the data file, computed by scripts/gen-core-schemas.mjs.
 *
 * The data (~300 KB) is read on the first question that needs it, never at import, so commands
 * that use no core type do not pay for it.
 */
import { readFileSync } from 'node:fs';
import type { JSONSchemaProps } from '../../manifests/jsonschema.js';
import { inlineSchema } from './inline.js';
import type { CoreSchemaData } from './types.js';

export { CoreSchemaError } from './inline.js';

// Resolves from src/codegen/core/ (tests, ts sources) and from dist/codegen/core/ (built CLI).
const DATA_URL = new URL('../../../src/codegen/core/core-schemas.json', import.meta.url);

/** Shape of a client-node model class name; anything else is answered without loading data. */
const CLIENT_NAME = /^(?:[A-Z][a-z]+)?V\d+(?:(?:alpha|beta)\d+)?[A-Z]\w*$/;

let data: CoreSchemaData | undefined;
/** Inlined schemas as JSON text: parsing a fresh copy per call is cheap and shares nothing. */
const inlined = new Map<string, string>();
/** Inlined definitions shared between roots (a job template reuses the pod spec); never handed out. */
const memo = new Map<string, JSONSchemaProps>();

function load(): CoreSchemaData {
  data ??= JSON.parse(readFileSync(DATA_URL, 'utf8')) as CoreSchemaData;
  return data;
}

/** Whether `name` is a client-node class name with a known schema. */
export function isCoreTypeName(name: string): boolean {
  return CLIENT_NAME.test(name) && Object.hasOwn(load().clientNames, name);
}

/** Every client-node class name with a known schema, sorted. */
export function coreTypeNames(): string[] {
  return Object.keys(load().clientNames).sort();
}

/** The OpenAPI definition name behind a client name ('V1Container' → 'io.k8s.api.core.v1.Container'). */
export function coreDefinitionName(clientName: string): string | undefined {
  if (!CLIENT_NAME.test(clientName)) return undefined;
  const names = load().clientNames;
  return Object.hasOwn(names, clientName) ? names[clientName] : undefined;
}

/** Where the schemas came from, e.g. 'k8s.io/kubernetes@v1.36.3 api/openapi-spec/v3'. */
export function coreSchemasSource(): string {
  return load().source;
}

/**
 * The full schema of a core type, or undefined when the name is not known. Each call returns a
 * fresh copy the caller may change (set a field description, add markers).
 */
export function coreTypeSchema(clientName: string): JSONSchemaProps | undefined {
  let text = inlined.get(clientName);
  if (text === undefined) {
    const definition = coreDefinitionName(clientName);
    if (definition === undefined) return undefined;
    const d = load();
    text = JSON.stringify(inlineSchema({ $ref: definition }, d.definitions, memo));
    inlined.set(clientName, text);
  }
  return JSON.parse(text) as JSONSchemaProps;
}
