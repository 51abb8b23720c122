/**
 * What each marker does to the generated manifests, computed by the real generator: the marker's
 * catalog example is placed in a small project (on a field, a type, a kind, a controller or a
 * webhook class, by its target), `readApiModel` + `generateManifests` run on it in memory, and
 * the part of the output the marker changed is returned as YAML. Nothing here knows a marker by
 * name: a marker added to the catalog gets its example realised the same way, and one whose
 * example fits no placement fails the docs build with its name.
 */
import { parse, stringify } from 'yaml';
import { readApiModel } from '../../../src/codegen/reader/index.js';
import type { MarkerDef } from '../../../src/codegen/markers/index.js';
import { generateManifests } from '../../../src/manifests/generate.js';

const PRELUDE = `import type { int32, int64, Quantity, IntOrString, Time, Duration, RawExtension, JSONValue, Condition, ObjectMeta } from '../../runtime/markers/index.js';`;
const GROUP_VERSION = (v: string) => `export const groupVersion = { group: 'batch.example.com', version: '${v}' };`;

/**
 * Field types tried, in order, for an example that is only decorators; an example whose CEL rule
 * names `self.<field>` tries the object types that have those fields first.
 */
const FIELD_CANDIDATES: ReadonlyArray<readonly [string, string]> = [
  ['string', 'f?: string'],
  ['int32', 'f?: int32'],
  ['string[]', 'f?: string[]'],
  ['int32[]', 'f?: int32[]'],
  ['map', 'f?: Record<string, string>'],
  ['Bounds', 'f?: Bounds'],
  ['Bounds[]', 'f?: Bounds[]'],
  ['Port[]', 'f?: Port[]'],
  ['string[][]', 'f?: string[][]'],
];
/** The element and object types the candidates use, declared beside the field. */
const HELPERS: Readonly<Record<string, string>> = {
  Bounds: 'export class Bounds { minReplicas?: int32; maxReplicas?: int32 }',
  Port: 'export class Port { name!: string; protocol!: string; port?: int32 }',
};

export interface MarkerExample {
  /** The TypeScript shown: the example as it stands in the realised source. */
  source: string;
  /** Which file of the generated output the fragment comes from. */
  output: string;
  /** The part of that output the marker adds or changes, as YAML. */
  yaml: string;
}

export class MarkerExampleError extends Error {}

type Generated = { files: Record<string, string>; errors: string[] };

function generate(files: Record<string, string>): Generated {
  const result = generateManifests(readApiModel(files), { tsopVersion: '0.0.0-docs' });
  return { files: result.files, errors: result.errors.map((e) => e.message) };
}

/** `@A(...) @B(...) rest` split into its decorators and what follows them. */
function splitDecorators(example: string): { decorators: string; rest: string } {
  let i = 0;
  const s = example.trim();
  let decorators = '';
  while (s[i] === '@') {
    const open = s.indexOf('(', i);
    let depth = 0;
    let j = open;
    for (; j < s.length; j++) {
      if (s[j] === '(') depth++;
      else if (s[j] === ')' && --depth === 0) break;
    }
    decorators += `${s.slice(i, j + 1)} `;
    i = j + 1;
    while (s[i] === ' ') i++;
  }
  return {
    decorators: decorators.trim(),
    rest: s
      .slice(i)
      .replace(/\s*\/\/.*$/, '')
      .trim(),
  };
}

function kindFile(spec: string, extra: string, kindDecorators = '@Resource() @SubresourceStatus()'): string {
  return (
    `${PRELUDE}\n${extra}\nexport class CronJobSpec {\n  schedule!: string;\n  replicas?: ` +
    `int32;\n  color?: string;\n${spec}\n}\nexport class CronJobStatus { replicas?: int32; ` +
    `selector?: string }\n${kindDecorators}\nexport class CronJob { apiVersion?: string; ` +
    `kind?: string; metadata?: ObjectMeta; spec?: CronJobSpec; status?: CronJobStatus }\n`
  );
}

function crdOf(g: Generated): Record<string, unknown> {
  const path = Object.keys(g.files).find((p) => p.startsWith('crd/'));
  if (!path) throw new MarkerExampleError('no CRD generated');
  return parse(g.files[path] ?? '') as Record<string, unknown>;
}

function specField(g: Generated, field: string): unknown {
  const crd = crdOf(g) as {
    spec: {
      versions: Array<{
        schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } };
      }>;
    };
  };
  return crd.spec.versions[0]?.schema.openAPIV3Schema.properties.spec.properties[field];
}

function schemaExample(m: MarkerDef): MarkerExample {
  const { decorators, rest } = splitDecorators(m.example);
  const classMatch = /class\s+(\w+)/.exec(rest);
  if (classMatch) {
    // On a type: the example declares the class; a spec field uses it.
    const source = `${decorators}\nexport ${rest}`;
    const g = generate(project(kindFile(`  source?: ${classMatch[1]};`, source)));
    if (g.errors.length === 0)
      return { source, output: 'the field `source` of that type', yaml: stringify({ source: specField(g, 'source') }) };
    throw new MarkerExampleError(g.errors.join('; '));
  }
  const field = /^(\w+)([?!]?):\s*(.+)$/.exec(rest);
  if (field) {
    const source = `${decorators}\n${rest}${rest.endsWith(';') ? '' : ';'}`;
    const g = generate(project(kindFile(`  ${source}`, '')));
    if (g.errors.length === 0)
      return {
        source,
        output: `the field \`${field[1]}\``,
        yaml: stringify({ [field[1] ?? '']: specField(g, field[1] ?? '') }),
      };
    throw new MarkerExampleError(g.errors.join('; '));
  }
  const tried: string[] = [];
  const named = [...m.example.matchAll(/\bself\.(\w+)/g)].map((x) => x[1] ?? '');
  const fits = (type: string): boolean =>
    named.length > 0 && named.every((f) => new RegExp(`\\b${f}[?!]?:`).test(HELPERS[type.replace('[]', '')] ?? ''));
  const ordered = [...FIELD_CANDIDATES.filter(([t]) => fits(t)), ...FIELD_CANDIDATES.filter(([t]) => !fits(t))];
  for (const [type, decl] of ordered) {
    const source = `${decorators}\n${decl};`;
    const g = generate(project(kindFile(`  ${source}`, Object.values(HELPERS).join('\n'))));
    const helper = HELPERS[type.replace('[]', '')];
    if (g.errors.length === 0)
      return {
        source: helper ? `${helper}\n\n${source}` : source,
        output: 'the field `f`',
        yaml: stringify({ f: specField(g, 'f') }),
      };
    tried.push(`${decl}: ${g.errors[0]}`);
  }
  throw new MarkerExampleError(`its example fits no field type (${tried.join('; ')})`);
}

function project(v1: string, v2?: string): Record<string, string> {
  const files: Record<string, string> = {
    'src/api/v1/groupversion.ts': GROUP_VERSION('v1'),
    'src/api/v1/cronjob.ts': v1,
  };
  if (v2 !== undefined)
    Object.assign(files, { 'src/api/v2/groupversion.ts': GROUP_VERSION('v2'), 'src/api/v2/cronjob.ts': v2 });
  return files;
}

const named = (x: unknown): string | undefined => {
  const name = (x as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
};

/**
 * Only what differs from `before`. List entries with a `name` (CRD versions, columns) are matched
 * by it and keep it beside their changes; a removed entry shows as `{ name, removed: true }`.
 */
export function changed(before: unknown, after: unknown): unknown {
  if (JSON.stringify(before) === JSON.stringify(after)) return undefined;
  if (Array.isArray(after) && Array.isArray(before)) {
    if (![...before, ...after].every((x) => named(x) !== undefined)) return after;
    const out: unknown[] = [];
    for (const a of after) {
      const d = changed(
        before.find((b) => named(b) === named(a)),
        a,
      );
      if (d !== undefined) out.push(typeof d === 'object' && !Array.isArray(d) ? { name: named(a), ...d } : d);
    }
    for (const b of before) if (!after.some((a) => named(a) === named(b))) out.push({ name: named(b), removed: true });
    return out;
  }
  if (
    after &&
    before &&
    typeof after === 'object' &&
    typeof before === 'object' &&
    !Array.isArray(after) &&
    !Array.isArray(before)
  ) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(after)) {
      const d = changed((before as Record<string, unknown>)[k], v);
      if (d !== undefined) out[k] = d;
    }
    for (const k of Object.keys(before)) if (!(k in after)) out[k] = null;
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return after;
}

function kindExample(m: MarkerDef): MarkerExample {
  const { decorators, rest } = splitDecorators(m.example);
  // Two versions, so the version markers have something to act on: the marker stands on v1, and
  // v2 is the storage version unless the example moves that to v1.
  const movesStorage = /@StorageVersion\(/.test(decorators);
  const withResource = /@Resource\(/.test(decorators) ? decorators : `@Resource() ${decorators}`;
  const before = generate(project(kindFile('', '', '@Resource()'), kindFile('', '', '@Resource() @StorageVersion()')));
  const after = generate(
    project(kindFile('', '', withResource), kindFile('', '', `@Resource()${movesStorage ? '' : ' @StorageVersion()'}`)),
  );
  if (before.errors.length > 0)
    throw new MarkerExampleError(`the project without the marker: ${before.errors.join('; ')}`);
  if (after.errors.length > 0) throw new MarkerExampleError(after.errors.join('; '));
  const diff = changed(crdOf(before), crdOf(after));
  const source = `${decorators}\n${rest || 'export class CronJob { … }'}`;
  return {
    source,
    output: 'the CustomResourceDefinition (what the marker adds or changes)',
    yaml: diff === undefined ? '' : stringify(diff),
  };
}

function classExample(m: MarkerDef, dir: string, output: string): MarkerExample {
  const { decorators } = splitDecorators(m.example);
  const imports = `import { Rbac, Webhook, WebhookConfiguration } from '../runtime/markers/index.js';`;
  const body =
    m.target === 'webhook' && !/@Webhook\(/.test(decorators)
      ? `${decorators}\n@Webhook({ path: '/mutate-batch-example-com-v1-cronjob', mutating: true, ` +
        `failurePolicy: 'fail', sideEffects: 'None', groups: ['batch.example.com'], resources: ` +
        `['cronjobs'], verbs: ['create', 'update'], versions: ['v1'], name: 'mcronjob-v1.kb.io', ` +
        `admissionReviewVersions: ['v1'] })`
      : decorators;
  const source = `${body}\nexport class ${m.target === 'webhook' ? 'CronJobDefaulter' : 'CronJobReconciler'} {}`;
  const g = generate({ ...project(kindFile('', '')), [`src/${dir}/cronjob.ts`]: `${imports}\n${source}\n` });
  if (g.errors.length > 0) throw new MarkerExampleError(g.errors.join('; '));
  const path = Object.keys(g.files).find((p) => p === output);
  if (!path) throw new MarkerExampleError(`nothing written to ${output}`);
  return { source, output: `config/${output}`, yaml: g.files[path] ?? '' };
}

/** The realised example of one marker, or a MarkerExampleError saying why it could not be. */
export function markerExample(m: MarkerDef): MarkerExample {
  switch (m.target) {
    case 'schema':
      return schemaExample(m);
    case 'kind':
      return kindExample(m);
    case 'controller':
      return classExample(m, 'controllers', 'rbac/role.yaml');
    case 'webhook':
      return classExample(m, 'webhooks', 'webhook/manifests.yaml');
  }
}
