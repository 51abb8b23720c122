/**
 * One version of one CRD → the TypeScript file that declares it: the kind's class with the kind
 * markers (`@Resource`, subresources, printer columns, version flags, CRD labels and
 * annotations), the types of its schema (type-writer.ts), and the typed kind constant the runtime's
 * client and builder take. `plain` style (external kinds) writes the same types as interfaces,
 * without markers: the project does not serve the kind, it only reads and writes it.
 */
import { rootFieldSchemas } from '../codegen/known.js';
import { MARKERS } from '../codegen/markers/index.js';
import { KNOWN_TYPE_NAMES } from '../codegen/model.js';
import { pluralOfKind } from '../project/plural.js';
import type { JSONSchemaProps, JSONValue } from '../codegen/jsonschema.js';
import { MANIFESTS_PLUGIN, type ProjectManifestOptions } from '../manifests/project-options.js';
import { kindClassName } from '../project/identifiers.js';
import { camelKind } from '../project/naming.js';
import { sameSchema } from './compare.js';
import { GENERATOR_ANNOTATIONS, type Crd, type CrdVersion } from './crd.js';
import type { CoreTypeMatcher } from './core-types.js';
import { withMaxDescLen } from './descriptions.js';
import { describedAs, docProblem } from './doc-text.js';
import type { Decorator, Loss, TsClass, TsField, TsFile } from './model.js';
import { assignNames, type NameRequest } from './names.js';
import { TypeWriter } from './type-writer.js';

export interface KindFileInput {
  crd: Crd;
  version: CrdVersion;
  /** The CRD-wide settings (labels, annotations, what cannot be said of the CRD) go on one version's class. */
  carriesCrdSettings: boolean;
}

export interface KindFileOptions {
  style: TsFile['style'];
  path: string;
  runtimeDir: string;
  matcher: CoreTypeMatcher;
  /** The project's manifests options the file is generated with (maxDescLen, embedded ObjectMeta). */
  manifestOptions: ProjectManifestOptions;
}

const COLUMN_TYPES = new Set(['integer', 'number', 'string', 'boolean', 'date']);
const COLUMN_FORMATS = new Set(['int32', 'int64', 'float', 'double', 'byte', 'date', 'date-time', 'password']);
const ROOT_FIELDS = rootFieldSchemas();

/** Names a file never gives its own types: what it imports (markers, scalar types, Kind). */
const RESERVED = new Set<string>([
  ...MARKERS.map((m) => m.name),
  ...KNOWN_TYPE_NAMES,
  'Kind',
  'GroupVersion',
  'groupVersion',
]);

export function kindFile(input: KindFileInput, o: KindFileOptions): TsFile {
  const { crd, version } = input;
  const kind = crd.spec.names.kind;
  const root = version.schema.openAPIV3Schema;
  const writer = new TypeWriter({
    kind,
    version: version.name,
    matcher: o.matcher,
    embeddedObjectMeta: o.manifestOptions.generateEmbeddedObjectMeta === true,
    ...(o.manifestOptions.maxDescLen !== undefined ? { maxDescLen: o.manifestOptions.maxDescLen } : {}),
  });
  const className = kindClassName(kind);
  writer.rootName = className;
  const rootRequest: NameRequest = { fixed: className };
  const losses: Loss[] = [];
  const loss = (path: string, what: string): void => void losses.push({ version: version.name, path, what });

  const cls: TsClass = { kind: 'class', name: className, path: '', decorators: [], fields: [], losses };
  if (className !== kind) cls.exportedAs = kind;
  const described =
    root.description === undefined ? undefined : describedAs(root.description, o.manifestOptions.maxDescLen);
  if (described && 'doc' in described) cls.doc = described.doc;
  else if (described && 'problem' in described) loss('', described.problem);
  cls.decorators = [...kindMarkers(input, loss), ...writer.classMarkers(root, '', losses, new Set())];
  if (described && 'marker' in described) cls.decorators.push(described.marker);
  const props = root.properties ?? {};
  const required = new Set(root.required ?? []);
  const standard: TsField[] = [];
  for (const name of ['apiVersion', 'kind', 'metadata'] as const) {
    const given = props[name];
    const doc = name === 'metadata' ? undefined : rootFieldDoc(name, given, o.manifestOptions.maxDescLen);
    standard.push({
      name,
      path: `.${name}`,
      type: name === 'metadata' ? { kind: 'known', name: 'ObjectMeta' } : { kind: 'primitive', name: 'string' },
      // Go's ObjectMeta without omitempty is required; a non-optional metadata says so.
      optional: !(name === 'metadata' && required.has(name)),
      ...(doc !== undefined ? { doc } : {}),
      decorators: [],
      losses: [],
    });
    if (given !== undefined && doc === undefined) {
      const problem = rootFieldProblem(name, given, o.manifestOptions.maxDescLen);
      if (problem) loss(`.${name}`, problem);
    }
    if (required.has(name) && name !== 'metadata')
      loss('', `required lists the root ${name} field (tsop never does; the API server sets it)`);
  }
  const own = {
    ...root,
    properties: Object.fromEntries(Object.entries(props).filter(([k]) => !(k in ROOT_FIELDS))),
    required: [...required].filter((r) => !(r in ROOT_FIELDS)),
  };
  cls.fields = [...standard, ...writer.fields(own, '', rootRequest, losses)];

  assignNames([rootRequest, ...writer.planned.map((p) => p.request)], RESERVED);
  for (const p of writer.planned) p.decl.name = p.ref.name = p.request.name!;

  const kindConst = `${camelKind(kind)}Kind`;
  return {
    path: o.path,
    style: o.style,
    about: wrap(
      o.style === 'decorated'
        ? `The ${kind} API (${crd.spec.group}/${version.name}), imported from the CRD ` +
            `${crd.metadata.name} by \`tsop import\`. \`tsop manifests\` generates the CRD from this ` +
            `file from now on: edit it here. JSDoc becomes the description; \`?\` makes a field optional.`
        : `The ${kind} kind (${crd.spec.group}/${version.name}) of another project, imported from ` +
            `the CRD ${crd.metadata.name} by \`tsop import --external\`: types for reading and writing ` +
            `${kind} objects. This project does not serve the kind, so no CRD is generated from these types.`,
    ),
    runtimeDir: o.runtimeDir,
    sharedPaths: writer.sharedPaths,
    declarations: [
      ...writer.planned.map((p) => p.decl),
      cls,
      {
        kind: 'kindConst',
        name: kindConst,
        typeName: className,
        kindName: kind,
        ...(o.style === 'plain' ? { groupVersion: { group: crd.spec.group, version: version.name } } : {}),
      },
    ],
  };
}

/**
 * The doc comment a root apiVersion or kind needs to come back as given: its description, when
 * that is not the standard text (older controller-gen wrote it on one line, a kind may declare
 * its own) and the rest of its schema is the standard one; undefined otherwise.
 */
function rootFieldDoc(
  name: 'apiVersion' | 'kind',
  given: JSONSchemaProps | undefined,
  maxDescLen: number | undefined,
): string | undefined {
  const text = given?.description;
  if (text === undefined || docProblem(text, maxDescLen) !== undefined) return undefined;
  const cut = withMaxDescLen(ROOT_FIELDS[name], maxDescLen);
  if (text === cut.description || !sameSchema(given!, { ...cut, description: text })) return undefined;
  return text;
}

/**
 * Why a root field's schema is not what `tsop manifests` writes with the project's `maxDescLen`,
 * or undefined. A root field without a description is what controller-gen's `crd:maxDescLen=0`
 * writes, and one with the standard text on one line what older controller-gen wrote: the
 * message says which, rather than call the schema inexpressible.
 */
function rootFieldProblem(
  name: keyof typeof ROOT_FIELDS,
  given: JSONSchemaProps,
  maxDescLen: number | undefined,
): string | undefined {
  const standard = ROOT_FIELDS[name];
  const cut = withMaxDescLen(standard, maxDescLen);
  if (sameSchema(given, cut)) return undefined;
  if (given.description === undefined && sameSchema(given, withMaxDescLen(standard, 0)))
    return (
      `the root ${name} field has no description, as controller-gen writes it with ` +
      `crd:maxDescLen=0, while the project's manifests options keep ` +
      `descriptions${maxDescLen === undefined ? '' : ` (maxDescLen ${maxDescLen})`}: set ` +
      `maxDescLen 0 in them (PROJECT, plugins.${MANIFESTS_PLUGIN}) to write it so`
    );
  const oneLine = (t: string | undefined): string | undefined => t?.replace(/\s+/g, ' ');
  if (
    given.description !== undefined &&
    sameSchema({ ...given, description: oneLine(given.description) }, { ...cut, description: oneLine(cut.description) })
  )
    return (
      `the root ${name} field's description is the standard text on one line, as older ` +
      `controller-gen versions wrote it; tsop writes the same text with the line breaks ` +
      `controller-gen writes today`
    );
  return `the root ${name} field's schema (tsop always writes the standard one: the API server gives ${name} its fixed meaning)`;
}

/** The kind markers of one version: names and scope, subresources, columns, version flags, CRD metadata. */
function kindMarkers(input: KindFileInput, loss: (path: string, what: string) => void): Decorator[] {
  const { crd, version: v } = input;
  const n = crd.spec.names;
  const out: Decorator[] = [];
  const resource: Record<string, JSONValue> = {};
  if (crd.spec.scope === 'Cluster') resource['scope'] = 'Cluster';
  if (n.plural !== pluralOfKind(n.kind)) resource['plural'] = n.plural;
  if (n.singular !== undefined && n.singular !== n.kind.toLowerCase()) resource['singular'] = n.singular;
  if (n.shortNames?.length) resource['shortNames'] = n.shortNames;
  if (n.categories?.length) resource['categories'] = n.categories;
  out.push({ name: 'Resource', args: Object.keys(resource).length > 0 ? [resource] : [] });
  const sub = v.subresources ?? {};
  if (sub.status !== undefined) {
    out.push({ name: 'SubresourceStatus', args: [] });
    if (Object.keys(sub.status).length > 0) loss('crd', 'subresources.status with settings');
  }
  if (sub.scale !== undefined) {
    const s = sub.scale;
    const scale: Record<string, JSONValue> = { specPath: s.specReplicasPath, statusPath: s.statusReplicasPath };
    if (s.labelSelectorPath !== undefined) scale['selectorPath'] = s.labelSelectorPath;
    out.push({ name: 'SubresourceScale', args: [scale] });
  }
  for (const key of Object.keys(sub)) if (key !== 'status' && key !== 'scale') loss('crd', `subresource ${key}`);
  for (const c of v.additionalPrinterColumns ?? []) {
    if (!COLUMN_TYPES.has(c.type) || (c.format !== undefined && !COLUMN_FORMATS.has(c.format))) {
      loss('crd', `printer column ${c.name} of type ${c.type}${c.format ? ` and format ${c.format}` : ''}`);
      continue;
    }
    const column: Record<string, JSONValue> = { name: c.name, type: c.type, jsonPath: c.jsonPath };
    if (c.description !== undefined) column['description'] = c.description;
    if (c.format !== undefined) column['format'] = c.format;
    if (c.priority !== undefined) column['priority'] = c.priority;
    out.push({ name: 'PrintColumn', args: [column] });
  }
  if (crd.spec.versions.length > 1 && v.storage) out.push({ name: 'StorageVersion', args: [] });
  if (!v.served) out.push({ name: 'Unserved', args: [] });
  if (v.deprecated)
    out.push({
      name: 'DeprecatedVersion',
      args: v.deprecationWarning !== undefined ? [{ warning: v.deprecationWarning }] : [],
    });
  else if (v.deprecationWarning !== undefined) loss('crd', 'a deprecationWarning on a version that is not deprecated');
  for (const f of v.selectableFields ?? []) out.push({ name: 'SelectableField', args: [{ jsonPath: f.jsonPath }] });
  if (input.carriesCrdSettings) {
    const meta: Record<string, JSONValue> = {};
    const labels = crd.metadata.labels ?? {};
    const annotations = Object.fromEntries(
      Object.entries(crd.metadata.annotations ?? {}).filter(([k]) => !GENERATOR_ANNOTATIONS.includes(k)),
    );
    if (Object.keys(labels).length > 0) meta['labels'] = labels;
    if (Object.keys(annotations).length > 0) meta['annotations'] = annotations;
    if (Object.keys(meta).length > 0) out.push({ name: 'Metadata', args: [meta] });
    if (n.listKind !== undefined && n.listKind !== `${n.kind}List`)
      loss('crd', `listKind ${n.listKind} (tsop writes ${n.kind}List)`);
    const conversion = crd.spec.conversion;
    if (conversion !== undefined && conversion.strategy !== 'None') {
      loss(
        'crd',
        `the ${conversion.strategy ?? ''} conversion (spec.conversion): in a tsop project \`tsop create webhook --conversion\` adds it through config/crd/patches`,
      );
    }
    if (crd.spec.preserveUnknownFields === true) loss('crd', 'spec.preserveUnknownFields: true');
  }
  return out;
}

/** Text broken into lines of at most about 96 characters, at spaces. */
function wrap(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > 96) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line].join('\n');
}
