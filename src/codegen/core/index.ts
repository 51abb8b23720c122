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
 * The data holds every type of k8s.io/api of the pinned release (~1.2 MB). It is read on the first
 * question that needs it, never at import, and only what a question needs is parsed: the file has
 * one definition per line, so the text is indexed by line and each definition is parsed the first
 * time an inlined schema reaches it. A project embedding a pod template parses a few dozen of them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JSONSchemaProps } from '../jsonschema.js';
import { inlineSchema } from './inline.js';
import type { CoreSchemaData } from './types.js';
import { TSOP_ROOT } from '../../version.js';

export { CoreSchemaError } from './inline.js';

// The data file stays in src/ (the package ships it there), whether this code runs from src/, dist/ or the bundle.
const DATA_FILE = join(TSOP_ROOT, 'src/codegen/core/core-schemas.json');

/** Shape of a client-node model class name; anything else is answered without loading data. */
const CLIENT_NAME = /^(?:[A-Z][a-z]+)?V\d+(?:(?:alpha|beta)\d+)?[A-Z]\w*$/;

/** The data file, indexed: the small header parsed, each definition kept as its JSON text until asked for. */
interface LazyData {
  source: string;
  clientNames: Record<string, string>;
  definition(name: string): CoreSchemaData['definitions'][string] | undefined;
}

let data: LazyData | undefined;
/** Inlined schemas as JSON text: parsing a fresh copy per call is cheap and shares nothing. */
const inlined = new Map<string, string>();
/** Inlined definitions shared between roots (a job template reuses the pod spec); never handed out. */
const memo = new Map<string, JSONSchemaProps>();

function load(): LazyData {
  data ??= index(readFileSync(DATA_FILE));
  return data;
}

const NEWLINE = 0x0a;
const QUOTE = 0x22;

/**
 * Indexes the file scripts/gen-core-schemas.mjs writes: `"source":…,`, `"roots":…,` and
 * `"clientNames":…,` on a line each, then `"definitions":{` with one `"name":{…}` per line. Works on
 * the bytes: decoding the whole file (a few non-ASCII characters make V8 build a two-byte string)
 * costs more than everything a run asks of it.
 */
function index(buf: Buffer): LazyData {
  const header: Record<string, unknown> = {};
  const raw = new Map<string, [number, number]>();
  const parsed = new Map<string, CoreSchemaData['definitions'][string]>();
  let inDefinitions = false;
  for (let start = 0; start < buf.length; ) {
    let end = buf.indexOf(NEWLINE, start);
    if (end < 0) end = buf.length;
    if (buf[start] === QUOTE) {
      const colon = buf.indexOf('":', start);
      const key = buf.toString('latin1', start + 1, colon);
      const valueEnd = buf[end - 1] === 0x2c ? end - 1 : end; // the trailing comma
      if (inDefinitions) raw.set(key, [colon + 2, valueEnd]);
      else if (key === 'definitions') inDefinitions = true;
      else header[key] = JSON.parse(buf.toString('utf8', colon + 2, valueEnd));
    }
    start = end + 1;
  }
  if (typeof header['source'] !== 'string' || typeof header['clientNames'] !== 'object' || raw.size === 0) {
    throw new Error(`${DATA_FILE}: not the layout scripts/gen-core-schemas.mjs writes; regenerate it`);
  }
  return {
    source: header['source'],
    clientNames: header['clientNames'] as Record<string, string>,
    definition(name) {
      let d = parsed.get(name);
      if (d === undefined) {
        const at = raw.get(name);
        if (at === undefined) return undefined;
        parsed.set(name, (d = JSON.parse(buf.toString('utf8', at[0], at[1])) as CoreSchemaData['definitions'][string]));
      }
      return d;
    },
  };
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

/**
 * The property names of a core type's schema, without inlining it: a cheap first test for
 * `tsop import`, which looks for the core type a CRD's sub-schema is.
 */
export function coreTypePropertyNames(clientName: string): string[] | undefined {
  const definition = coreDefinitionName(clientName);
  if (definition === undefined) return undefined;
  return Object.keys(load().definition(definition)?.properties ?? {});
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
    text = JSON.stringify(inlineSchema({ $ref: definition }, (name) => d.definition(name), memo));
    inlined.set(clientName, text);
  }
  return JSON.parse(text) as JSONSchemaProps;
}
