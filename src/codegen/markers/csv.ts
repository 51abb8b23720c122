/**
 * CSV descriptor markers (operator-sdk's `+operator-sdk:csv:customresourcedefinitions`): they
 * change no CRD; `tsop generate kustomize manifests` reads them into the ClusterServiceVersion's
 * owned CRD descriptions (src/olm/descriptors.ts). Listed here so `tsop manifests` checks their
 * arguments and `manifests --help` documents them.
 */
import type { JSONValue } from '../jsonschema.js';
import { options, type ArgShape, type Parsed } from './args.js';
import { kindMarker, schemaMarker, type MarkerDef } from './define.js';

export interface CsvDescriptionArgs {
  displayName?: string;
  resources?: Array<{ kind: string; version: string; name?: string }>;
  order?: number;
}

export interface CsvDescriptorArgs {
  type: 'spec' | 'status';
  displayName?: string;
  xDescriptors?: string[];
  order?: number;
}

const descriptorArgs = options<CsvDescriptorArgs>({
  type: { type: ['spec', 'status'], required: true },
  displayName: { type: 'string' },
  xDescriptors: { type: 'string[]' },
  order: { type: 'integer' },
});

const scalarsOfDescription = options<Omit<CsvDescriptionArgs, 'resources'>>(
  { displayName: { type: 'string' }, order: { type: 'integer' } },
  true,
);

/** `{ displayName?, resources?: [{ kind, version, name? }], order? }`: the resource list needs its own check. */
const descriptionArgs: ArgShape<CsvDescriptionArgs> = {
  usage:
    '({ displayName?: string; resources?: { kind: string; version: string; name?: string }[]; order?: integer } = {})',
  parse(args): Parsed<CsvDescriptionArgs> {
    const given = args[0];
    if (
      args.length === 1 &&
      typeof given === 'object' &&
      given !== null &&
      !Array.isArray(given) &&
      'resources' in given
    ) {
      const { resources, ...rest } = given;
      const scalars = scalarsOfDescription.parse([rest]);
      if (!scalars.ok) return scalars;
      const checked = resourceList(resources);
      return typeof checked === 'string'
        ? { ok: false, error: checked }
        : { ok: true, value: { ...scalars.value, resources: checked } };
    }
    return scalarsOfDescription.parse(args);
  },
};

function resourceList(value: JSONValue | undefined): NonNullable<CsvDescriptionArgs['resources']> | string {
  if (!Array.isArray(value)) return "option 'resources' must be a list of { kind, version, name? }";
  const out: NonNullable<CsvDescriptionArgs['resources']> = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return "each of 'resources' must be an object { kind, version, name? }";
    const unknown = Object.keys(item).find((k) => !['kind', 'version', 'name'].includes(k));
    if (unknown !== undefined) return `resources: unknown option '${unknown}'; known: kind, version, name`;
    const { kind, version, name } = item;
    if (typeof kind !== 'string' || kind === '' || typeof version !== 'string' || version === '')
      return "each of 'resources' needs a kind and a version (strings), as { kind: 'Deployment', version: 'v1' }";
    if (name !== undefined && typeof name !== 'string') return "resources: 'name' must be a string";
    out.push(name === undefined ? { kind, version } : { kind, version, name });
  }
  return out;
}

export const CSV_MARKERS: MarkerDef[] = [
  kindMarker<CsvDescriptionArgs>({
    name: 'CsvDescription',
    controllerGen: '+operator-sdk:csv:customresourcedefinitions (on a type)',
    args: descriptionArgs,
    doc: "The kind's owned-CRD entry in the ClusterServiceVersion (tsop generate kustomize manifests): its display name, the resources it owns, its order. No effect on the CRD.",
    example:
      "@CsvDescription({ displayName: 'Memcached', resources: [{ kind: 'Deployment', version: 'v1', name: 'memcached-deployment' }] })",
    apply: () => undefined,
  }),
  schemaMarker<CsvDescriptorArgs>({
    name: 'CsvDescriptor',
    controllerGen: '+operator-sdk:csv:customresourcedefinitions (on a field)',
    on: 'field',
    args: descriptorArgs,
    doc: 'Lists a field under spec or status as a spec or status descriptor of its kind in the ClusterServiceVersion, with its display name and UI x-descriptors. No effect on the CRD.',
    example:
      "@CsvDescriptor({ type: 'spec', displayName: 'Size', xDescriptors: ['urn:alm:descriptor:com.tectonic.ui:podCount'] })",
    apply: () => undefined,
  }),
];
