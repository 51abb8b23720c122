/**
 * Import writes a core Kubernetes type by name where a CRD embeds it, as a person writes
 * `jobTemplate: V1JobTemplateSpec` in the Go types: checked on the CronJob of kubebuilder's
 * tutorial as controller-gen v0.21 generates it (test/fixtures/controller-gen/cronjob, its
 * jobTemplate exactly batch/v1 JobTemplateSpec), with descriptions and as `crd:maxDescLen=0`
 * writes it (every description removed, the root apiVersion and kind's included). Either way
 * the file is small, compiles, gives the same CRD back and makes `tsop manifests` warn of nothing
 * the CRD does not deserve. CRDs without descriptions, imported into a project that sets no
 * maxDescLen, make the import infer 0 and say so; without it the losses name the setting. Identical shapes share one class; enums are
 * literal unions.
 */
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../src/codegen/jsonschema.js';
import { coreTypeSchema } from '../../src/codegen/core/index.js';
import type { ProjectManifestOptions } from '../../src/manifests/project-options.js';
import { crdDifferences } from '../../src/import/compare.js';
import { CoreTypeMatcher } from '../../src/import/core-types.js';
import type { Crd } from '../../src/import/crd.js';
import { readCrds } from '../../src/import/documents.js';
import { importCrd, inferMaxDescLen, type ImportedKind } from '../../src/import/import-crd.js';
import { crdObject } from './crds.js';
import { typeErrors } from './type-check.js';

const CASE = 'test/fixtures/controller-gen/cronjob';
const GO_TYPES_LINES = readFileSync(`${CASE}/api/v1/cronjob_types.go`, 'utf8').split('\n').length;
const matcher = new CoreTypeMatcher({});

function tutorialCronJob(): Crd {
  const path = `${CASE}/crd/batch.tsop.dev_cronjobs.yaml`;
  return readCrds([{ name: path, text: readFileSync(path, 'utf8') }]).crds[0]!.crd;
}

/** What controller-gen's `crd:maxDescLen=0` writes: the schema with no description at any depth. */
function withoutDescriptions(s: JSONSchemaProps): JSONSchemaProps {
  const { description: _, ...out } = s;
  if (s.properties)
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, p]) => [k, withoutDescriptions(p)]));
  if (s.items) out.items = withoutDescriptions(s.items);
  if (typeof s.additionalProperties === 'object')
    out.additionalProperties = withoutDescriptions(s.additionalProperties);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) if (s[key]) out[key] = s[key].map(withoutDescriptions);
  return out;
}

function stripped(crd: Crd): Crd {
  const copy = structuredClone(crd);
  for (const v of copy.spec.versions) v.schema.openAPIV3Schema = withoutDescriptions(v.schema.openAPIV3Schema);
  return copy;
}

function run(crd: Crd, manifestOptions: ProjectManifestOptions, dir = 'api'): ImportedKind {
  return importCrd(
    { crd, origin: 'cronjob.yaml' },
    {
      mode: 'own',
      typesPath: (c, v) => `src/${dir}/${v}/${c.spec.names.kind.toLowerCase()}.ts`,
      header: '',
      manifestOptions,
      matcher,
    },
  );
}

/** Every file the imports below wrote (each import in a directory of its own), type-checked once at the end. */
const written = new Map<string, string>();

const only = (k: ImportedKind): string => [...k.rendered.values()][0]!.text;

/** Adds the files of an import, with the group-version file next to each, to the type check. */
function typeCheckLater(k: ImportedKind): void {
  for (const [p, r] of k.rendered) written.set(p, r.text);
  for (const f of k.files)
    written.set(
      posix.join(posix.dirname(f.file.path), 'groupversion.ts'),
      `export const groupVersion = { group: '${f.group}', version: '${f.version}' } as const;\n`,
    );
}

function expectIdentical(source: Crd, k: ImportedKind): void {
  expect(k.roundTrip?.errors).toEqual([]);
  expect(k.roundTrip?.unexplained).toEqual([]);
  expect(k.losses.map((l) => l.loss.what)).toEqual([]);
  expect(crdDifferences(source, k.roundTrip!.generated!)).toEqual([]);
}

describe("the CronJob of kubebuilder's tutorial", () => {
  const cases: Array<[string, Crd, ProjectManifestOptions, string]> = [
    ['with descriptions', tutorialCronJob(), {}, 'described'],
    [
      'generated with crd:maxDescLen=0, into a project with maxDescLen 0',
      stripped(tutorialCronJob()),
      { maxDescLen: 0 },
      'bare',
    ],
  ];
  for (const [what, crd, options, dir] of cases) {
    describe(what, () => {
      const k = run(crd, options, dir);
      typeCheckLater(k);
      const ts = only(k);

      it('names the core types it embeds, as its Go types do', () => {
        expect(ts).toContain('  jobTemplate!: V1JobTemplateSpec;');
        expect(ts).toContain('  active?: V1ObjectReference[];');
        expect(ts).toContain('  conditions?: Condition[];');
        expect(ts).toContain("import type { V1JobTemplateSpec, V1ObjectReference } from '@kubernetes/client-node';");
        expect(ts).toContain("  concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';");
        expect(ts).not.toMatch(/class CronJob(JobTemplate|Container|Volume)\b/);
      });

      it('is at most twice as long as the Go types', () => {
        expect(ts.split('\n').length).toBeLessThanOrEqual(2 * GO_TYPES_LINES);
      });

      it('gives the same CRD back from tsop manifests, with no loss', () => expectIdentical(crd, k));

      it('makes tsop manifests warn only of what the CRD itself has', () => {
        // The CRD with every description is over kubectl's client-side apply limit, which is why
        // kubebuilder's tutorial generates it with maxDescLen=0; without them it is not.
        const overLimit = JSON.stringify(crd).length > 262144;
        expect(overLimit).toBe(options.maxDescLen === undefined);
        const rest = k.roundTrip!.warnings.filter((w) => !(overLimit && /over the 262144-byte limit/.test(w)));
        expect(rest).toEqual([]);
      });
    });
  }
});

describe('a CRD without descriptions, as controller-gen writes with crd:maxDescLen=0', () => {
  const crd = stripped(tutorialCronJob());

  const source = { crd, origin: 'cronjob.yaml' };
  const described = { crd: tutorialCronJob(), origin: 'described.yaml' };

  it('makes the import infer maxDescLen 0 where the project sets none, said in one line, and import with it', () => {
    const inferred = inferMaxDescLen([source], {});
    expect(inferred?.maxDescLen).toBe(0);
    expect(inferred?.note).toMatch(
      /^import crd: cronjob\.yaml: cronjobs\.batch\.tsop\.dev has no description anywhere/,
    );
    expect(inferred?.note).toContain('maxDescLen: 0');
    expect(inferred?.note).not.toContain('\n');
    const k = run(crd, { maxDescLen: inferred!.maxDescLen });
    expect(only(k)).toContain('  jobTemplate!: V1JobTemplateSpec;');
    expectIdentical(crd, k);
  });

  it('infers nothing where the project sets maxDescLen, or where any CRD of the import has a description', () => {
    expect(inferMaxDescLen([source], { maxDescLen: 0 })).toBeUndefined();
    expect(inferMaxDescLen([described], {})).toBeUndefined();
    expect(inferMaxDescLen([source, described], {})).toBeUndefined();
    expect(inferMaxDescLen([source, { ...source, origin: 'again.yaml' }], {})?.note).toMatch(
      /^import crd: the 2 CRDs have no description anywhere/,
    );
  });

  it('is refused without the setting, naming it rather than calling the root fields inexpressible', () => {
    for (const k of [
      run(crd, {}),
      importCrd(source, {
        mode: 'own',
        typesPath: () => 'src/api/v1/cronjob.ts',
        header: '',
        embeddedObjectMeta: false,
        matcher,
      }),
    ]) {
      const what = k.losses.map((l) => l.loss.what);
      expect(what).toHaveLength(2);
      for (const w of what)
        expect(w).toMatch(/has no description, as controller-gen writes it with crd:maxDescLen=0.*set maxDescLen 0/);
    }
  });

  it("writes the root fields' one-line standard text, as older controller-gen wrote it, as their doc comments", () => {
    const older = tutorialCronJob();
    const props = older.spec.versions[0]!.schema.openAPIV3Schema.properties!;
    for (const name of ['apiVersion', 'kind']) {
      const field = props[name]!;
      field.description = field.description!.replace(/\n/g, ' ');
    }
    const k = run(older, {});
    expect(k.losses).toEqual([]);
    expect(only(k)).toMatch(/ \*\/\n {2}apiVersion\?: string;\n {2}\/\*\*\n[\s\S]*\*\/\n {2}kind\?: string;/);
    expectIdentical(older, k);
  });

  it('keeps the standard root fields free of doc comments', () => {
    expect(only(run(tutorialCronJob(), {}))).toMatch(/^ {2}apiVersion\?: string;\n {2}kind\?: string;$/m);
  });

  it('names the setting when only the root fields lack their descriptions, never "not expressible: the schema"', () => {
    const partly = tutorialCronJob();
    const props = partly.spec.versions[0]!.schema.openAPIV3Schema.properties!;
    props['apiVersion'] = { type: 'string' };
    props['kind'] = { type: 'string' };
    const what = run(partly, {}).losses.map((l) => l.loss.what);
    expect(what).toHaveLength(2);
    for (const [i, name] of ['apiVersion', 'kind'].entries()) {
      expect(what[i]).toContain(
        `the root ${name} field has no description, as controller-gen writes it with crd:maxDescLen=0`,
      );
      expect(what[i]).toContain('set maxDescLen 0');
      expect(what[i]).not.toContain('schema');
    }
  });
});

describe('core types inside lists and maps, without descriptions', () => {
  const bare = (name: string): JSONSchemaProps => withoutDescriptions(coreTypeSchema(name)!);
  const crd = crdObject({
    group: 'ops.example.com',
    kind: 'Batch',
    plural: 'batches',
    spec: {
      type: 'object',
      properties: {
        workers: { type: 'array', items: bare('V1Container') },
        volumes: { type: 'array', items: bare('V1Volume') },
        budgets: { type: 'object', additionalProperties: bare('V1ResourceRequirements') },
        template: bare('V1PodTemplateSpec'),
      },
    },
  }) as unknown as Crd;
  crd.spec.versions[0]!.schema.openAPIV3Schema = withoutDescriptions(crd.spec.versions[0]!.schema.openAPIV3Schema);
  const k = run(crd, { maxDescLen: 0 }, 'lists');
  typeCheckLater(k);

  it('writes each by name', () => {
    const ts = only(k);
    for (const line of [
      '  workers?: V1Container[];',
      '  volumes?: V1Volume[];',
      '  budgets?: Record<string, V1ResourceRequirements>;',
      '  template?: V1PodTemplateSpec;',
    ])
      expect(ts).toContain(line);
    expect(ts.split('\n').length).toBeLessThan(60);
  });

  it('gives the same CRD back', () => expectIdentical(crd, k));
});

describe('a small shape that happens to equal a core type', () => {
  // kubebuilder's status, conditions only, is ServiceCIDRStatus's shape; `secretRef` is a
  // LocalObjectReference by name as well as by shape.
  const crd = crdObject({
    group: 'ops.example.com',
    kind: 'Vault',
    plural: 'vaults',
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { secretRef: withoutDescriptions(coreTypeSchema('V1LocalObjectReference')!) },
        },
        status: withoutDescriptions(coreTypeSchema('V1ServiceCIDRStatus')!),
      },
    },
  }) as unknown as Crd;
  crd.spec.versions[0]!.schema.openAPIV3Schema = withoutDescriptions(crd.spec.versions[0]!.schema.openAPIV3Schema);
  const k = run(crd, { maxDescLen: 0 }, 'small');
  typeCheckLater(k);

  it('is the core type only where the field is named for it', () => {
    const ts = only(k);
    expect(ts).toContain('  secretRef?: V1LocalObjectReference;');
    expect(ts).not.toContain('V1ServiceCIDRStatus');
    expect(ts).toContain('  status?: VaultStatus;');
    expect(ts).toContain('  conditions?: Condition[];');
  });

  it('gives the same CRD back', () => expectIdentical(crd, k));
});

describe('shapes a person declares once', () => {
  const endpoint: JSONSchemaProps = {
    type: 'object',
    required: ['host'],
    properties: { host: { type: 'string' }, port: { type: 'integer', format: 'int32' } },
  };
  const crd = crdObject({
    group: 'ops.example.com',
    kind: 'Mirror',
    plural: 'mirrors',
    spec: {
      type: 'object',
      properties: {
        primary: endpoint,
        backup: { ...endpoint, description: 'The endpoint used when the primary fails.' },
        replicas: { type: 'array', items: endpoint },
        byZone: { type: 'object', additionalProperties: endpoint },
        protocol: { type: 'string', enum: ['TCP', 'UDP'] },
        protocols: { type: 'array', items: { type: 'string', enum: ['TCP', 'UDP'] } },
        zoneProtocol: { type: 'object', additionalProperties: { type: 'string', enum: ['TCP', 'UDP'] } },
      },
    },
  }) as unknown as Crd;
  const k = run(crd, {}, 'shapes');
  typeCheckLater(k);
  const ts = only(k);

  it('writes identical sub-structures as one class, wherever they stand', () => {
    expect(ts.match(/^export class \w+ \{$/gm)).toEqual([
      'export class MirrorSpec {',
      'export class MirrorPrimary {',
      'export class Mirror {',
    ]);
    for (const line of [
      '  primary?: MirrorPrimary;',
      '  backup?: MirrorPrimary;',
      '  replicas?: MirrorPrimary[];',
      '  byZone?: Record<string, MirrorPrimary>;',
    ])
      expect(ts).toContain(line);
  });

  it('writes enums as literal unions, in fields, lists and maps', () => {
    expect(ts).toContain("  protocol?: 'TCP' | 'UDP';");
    expect(ts).toContain("  protocols?: ('TCP' | 'UDP')[];");
    expect(ts).toContain("  zoneProtocol?: Record<string, 'TCP' | 'UDP'>;");
    expect(ts).not.toContain('@Enum(');
  });

  it('gives the same CRD back', () => expectIdentical(crd, k));
});

it('every file written above compiles (strict)', () => {
  expect(written.size).toBe(10);
  expect(typeErrors(written)).toEqual([]);
}, 120_000);
