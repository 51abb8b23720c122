/**
 * The CRD emitter: the versions of one kind (settings + finished schema) → one
 * apiextensions.k8s.io/v1 CustomResourceDefinition object. Pure; checks that need the whole kind
 * (one storage version, settings that agree across versions, the api-approved annotation,
 * selectable fields that exist) are reported as messages for the caller to place.
 */
import type { KindSettings } from '../codegen/markers/index.js';
import { pluralOfKind } from '../project/plural.js';
import { isDns1035Label } from '../project/naming.js';
import type { JSONSchemaProps } from '../codegen/jsonschema.js';

export const VERSION_ANNOTATION = 'tsop.dev/version';

export interface CrdVersion {
  name: string;
  settings: KindSettings;
  schema: JSONSchemaProps;
}

export interface CrdInput {
  group: string;
  kind: string;
  versions: CrdVersion[];
  tsopVersion: string;
}

export interface CrdOutput {
  plural: string;
  crd: Record<string, unknown>;
  /** Problems, each naming the version it concerns ('' for the kind as a whole). */
  problems: Array<{ version: string; message: string }>;
  /** What is written as asked but is likely not what was meant, each naming its version. */
  warnings: Array<{ version: string; message: string }>;
}

export function buildCrd(input: CrdInput): CrdOutput {
  const problems: CrdOutput['problems'] = [];
  const warnings: CrdOutput['warnings'] = [];
  const all = [...input.versions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const versions = all.filter((v) => v.settings.skip !== true);
  if (versions.length === 0) {
    problems.push({
      version: all[0]?.name ?? '',
      message: `${input.kind}: @SkipVersion() on its only version leaves the CRD with none; remove it, or add the version to serve`,
    });
    versions.push(...all); // still build the CRD, so the other checks report too
  }
  const agreed = agree(input.kind, versions, problems);
  const plural = agreed.plural ?? pluralOfKind(input.kind);
  if (agreed.plural === undefined && !isDns1035Label(plural)) {
    problems.push({
      version: '',
      message: `${input.kind}: the derived plural '${plural}' is not a DNS-1035 label, which the API server requires; name one with @Resource({ plural: '…' })`,
    });
  }
  const storageCount = versions.filter((v) => v.settings.storage).length;
  if (versions.length > 1 && storageCount !== 1) {
    problems.push({
      version: '',
      message: `${input.kind} has versions ${versions.map((v) => v.name).join(', ')} and ${storageCount === 0 ? 'none' : storageCount} marked @StorageVersion(); mark exactly one`,
    });
  }
  const labels: Record<string, string> = {};
  const annotations: Record<string, string> = {};
  for (const v of versions) {
    Object.assign(labels, v.settings.labels);
    Object.assign(annotations, v.settings.annotations);
  }
  annotations[VERSION_ANNOTATION] = `v${input.tsopVersion}`;
  if (/(^|\.)(k8s\.io|kubernetes\.io)$/.test(input.group) && !annotations['api-approved.kubernetes.io']) {
    problems.push({
      version: '',
      message: `${input.kind}: group ${input.group} is protected; add @Metadata({ annotations: { 'api-approved.kubernetes.io': '<URL of the approved API review>' } }) or use a group you own`,
    });
  }

  const names: Record<string, unknown> = {
    kind: input.kind,
    listKind: `${input.kind}List`,
    plural,
    singular: agreed.singular ?? input.kind.toLowerCase(),
  };
  if (agreed.shortNames?.length) names['shortNames'] = agreed.shortNames;
  if (agreed.categories?.length) names['categories'] = agreed.categories;

  const metadata: Record<string, unknown> = { annotations, name: `${plural}.${input.group}` };
  if (Object.keys(labels).length > 0) metadata['labels'] = labels;
  return {
    plural,
    problems,
    warnings,
    crd: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata,
      spec: {
        group: input.group,
        names,
        scope: agreed.scope ?? 'Namespaced',
        versions: versions.map((v) => versionEntry(v, versions.length === 1, problems, warnings)),
      },
    },
  };
}

function versionEntry(
  v: CrdVersion,
  only: boolean,
  problems: CrdOutput['problems'],
  warnings: CrdOutput['warnings'],
): Record<string, unknown> {
  const s = v.settings;
  const out: Record<string, unknown> = {
    name: v.name,
    schema: { openAPIV3Schema: v.schema },
    served: s.served,
    storage: only || s.storage,
  };
  if (s.printColumns.length > 0) out['additionalPrinterColumns'] = s.printColumns.map((c) => ({ ...c }));
  if (s.deprecated) out['deprecated'] = true;
  if (s.deprecationWarning !== undefined) out['deprecationWarning'] = s.deprecationWarning;
  const sub: Record<string, unknown> = {};
  if (s.status) sub['status'] = {};
  if (s.scale) sub['scale'] = { ...s.scale };
  // controller-gen's @PrintColumn makes an empty subresources block where there is none; written alike.
  if (Object.keys(sub).length > 0 || s.printColumns.length > 0) out['subresources'] = sub;
  if (s.selectableFields.length > 0) {
    out['selectableFields'] = s.selectableFields.map((f) => ({ ...f }));
    for (const f of s.selectableFields) {
      const node = schemaAt(v.schema, f.jsonPath);
      if (!node)
        problems.push({ version: v.name, message: `@SelectableField: ${f.jsonPath} is not a field of the schema` });
      else if (!['string', 'integer', 'boolean'].includes(node.type ?? ''))
        problems.push({
          version: v.name,
          message: `@SelectableField: ${f.jsonPath} must be a string, integer or boolean field`,
        });
    }
  }
  if (s.status && !v.schema.properties?.['status']) {
    // controller-gen writes the subresource anyway; the API server then drops any status sent.
    warnings.push({
      version: v.name,
      message:
        '@SubresourceStatus: the kind has no status field, so the status subresource holds nothing; declare one (status?: <Kind>Status) or remove the marker',
    });
  }
  return out;
}

/** Names and scope must agree across versions (they belong to the CRD, not a version). */
function agree(kind: string, versions: CrdVersion[], problems: CrdOutput['problems']): Partial<KindSettings> {
  const out: Partial<KindSettings> = {};
  for (const key of ['scope', 'plural', 'singular', 'shortNames', 'categories'] as const) {
    for (const v of versions) {
      const value = v.settings[key];
      if (value === undefined) continue;
      const prev = out[key];
      if (prev !== undefined && JSON.stringify(prev) !== JSON.stringify(value)) {
        problems.push({
          version: v.name,
          message: `${kind}: @Resource ${key} ${JSON.stringify(value)} differs from another version's ${JSON.stringify(prev)}; versions of a kind share names and scope`,
        });
      } else (out as Record<string, unknown>)[key] = value;
    }
  }
  return out;
}

/** The schema node at a simple JSON path such as `.spec.color`. */
function schemaAt(root: JSONSchemaProps, path: string): JSONSchemaProps | undefined {
  let node: JSONSchemaProps | undefined = root;
  for (const part of path.split('.').slice(1)) node = node?.properties?.[part];
  return node;
}
