/**
 * Test helpers: generate manifests from in-memory sources (no disk), and pull out the schema of
 * a test kind's spec — the "input class → schema fragment" shape of the golden tests.
 */
import { parse } from 'yaml';
import type { JSONSchemaProps } from '../../src/codegen/jsonschema.js';
import { readApiModel } from '../../src/codegen/reader/index.js';
import { generateManifests, type ManifestOptions, type ManifestResult } from '../../src/manifests/generate.js';

export const PRELUDE = `
import type { int32, int64, Quantity, IntOrString, Time, MicroTime, Duration, RawExtension, JSONValue, Condition, ObjectMeta } from '../../runtime/markers/index.js';
import type { V1Container, V1PodTemplateSpec, V1ObjectMeta } from '@kubernetes/client-node';
import * as k8s from '@kubernetes/client-node';
`;

export const GROUP_VERSION = `export const groupVersion = { group: 'test.example.com', version: 'v1' };`;

export function run(files: Record<string, string>, opts: Omit<ManifestOptions, 'tsopVersion'> = {}): ManifestResult {
  return generateManifests(readApiModel(files), { tsopVersion: '0.0.0-test', ...opts });
}

/** The CRD objects (parsed back from the YAML files), by file path. */
export function crds(result: ManifestResult): Record<string, Record<string, any>> {
  const out: Record<string, Record<string, any>> = {};
  for (const [path, text] of Object.entries(result.files))
    if (path.startsWith('crd/')) out[path] = parse(text) as Record<string, any>;
  return out;
}

/** One kind `T` whose `spec` is `TSpec { <body> }`; `extra` is more declarations in the same file. */
export function specFiles(body: string, extra = ''): Record<string, string> {
  return {
    'src/api/v1/groupversion.ts': GROUP_VERSION,
    'src/api/v1/t.ts': `${PRELUDE}\n${extra}\nexport class TSpec {\n${body}\n}\n@Resource()\nexport class T { spec?: TSpec; }\n`,
  };
}

/** The schema of `spec` (throws with the error lines when generation failed). */
export function spec(body: string, extra = ''): JSONSchemaProps {
  const result = run(specFiles(body, extra));
  if (result.errors.length > 0) throw new Error(result.errors.map((e) => e.message).join('\n'));
  const crd = Object.values(crds(result))[0];
  return crd?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec as JSONSchemaProps;
}

/** The one field `f` of the spec. */
export function field(decl: string, extra = ''): JSONSchemaProps {
  const s = spec(decl, extra).properties?.['f'];
  if (!s) throw new Error('no field f');
  return s;
}

/** The error lines generating `spec { body }` produces. */
export function errors(body: string, extra = ''): string[] {
  return run(specFiles(body, extra)).errors.map((e) => e.message);
}
