/**
 * What `tsop import` writes for each thing a CRD can say, checked by the round trip through
 * tsop's reader and generator (import-crd.ts): a CRD using every feature tsop can express comes
 * back identical, with the markers and types a person would write; each thing tsop cannot express
 * is named as a loss where it stands, with nothing else changed; names are short where that is
 * unambiguous and stable between runs.
 */
import { describe, expect, it } from 'vitest';
import { knownTypeSchema } from '../../src/codegen/known.js';
import { coreTypeSchema } from '../../src/codegen/core/index.js';
import { CoreTypeMatcher } from '../../src/import/core-types.js';
import type { Crd } from '../../src/import/crd.js';
import { importCrd, type ImportedKind } from '../../src/import/import-crd.js';
import { assignNames, singular, type NameRequest } from '../../src/import/names.js';
import type { JSONSchemaProps } from '../../src/codegen/jsonschema.js';
import { crdObject } from './crds.js';

const matcher = new CoreTypeMatcher({});

function run(crd: Crd): ImportedKind {
  return importCrd(
    { crd, origin: 'test.yaml' },
    {
      mode: 'own',
      typesPath: (c, v) => `src/api/${v}/${c.spec.names.kind.toLowerCase()}.ts`,
      header: '',
      manifestOptions: {},
      matcher,
    },
  );
}

const text = (k: ImportedKind, version = 'v1'): string =>
  k.rendered.get(`src/api/${version}/${k.source.crd.spec.names.kind.toLowerCase()}.ts`)!.text;

const ref = coreTypeSchema('V1LocalObjectReference')!;

const spec: JSONSchemaProps = {
  type: 'object',
  description: 'BackupSpec defines the desired state.',
  required: ['schedule', 'targets'],
  'x-kubernetes-validations': [
    {
      rule: 'self.minRetained <= self.maxRetained',
      message: 'min must not exceed max',
      reason: 'FieldValueInvalid',
      fieldPath: '.minRetained',
    },
  ],
  properties: {
    schedule: { type: 'string', description: 'Cron schedule.', minLength: 1, maxLength: 64, pattern: '^[0-9*/ ,-]+$' },
    mode: { type: 'string', enum: ['Full', 'Incremental'], default: 'Full' },
    // Defaults that apply only when retry is present, as the CRD means them.
    retry: { type: 'object', properties: { limit: { type: 'integer', format: 'int32', default: 3 } } },
    minRetained: { type: 'integer', format: 'int32', minimum: 0, exclusiveMinimum: true, multipleOf: 1 },
    maxRetained: { type: 'integer', format: 'int64', maximum: 1000 },
    retries: { type: 'integer', minimum: 1 },
    ratio: { type: 'number', format: 'double' },
    enabled: { type: 'boolean', default: true, title: 'Enabled', example: false },
    startAt: { type: 'string', format: 'date-time' },
    port: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
    size: {
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      pattern: knownTypeSchema('Quantity').pattern!,
      'x-kubernetes-int-or-string': true,
    },
    labels: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 10 },
    annotations: {
      type: 'object',
      additionalProperties: { type: 'string', description: 'AnnotationValue is an annotation value.', maxLength: 4096 },
    },
    tags: {
      type: 'array',
      items: { type: 'string', pattern: '^[a-z]+$' },
      'x-kubernetes-list-type': 'set',
      maxItems: 8,
    },
    hosts: { type: 'array', items: { type: 'string', description: 'Hostname is a DNS name.', maxLength: 253 } },
    targets: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      minItems: 1,
      items: {
        type: 'object',
        description: 'BackupTarget is one thing to back up.',
        required: ['name'],
        'x-kubernetes-validations': [
          {
            rule: 'has(self.path) || has(self.volume)',
            messageExpression: "'target ' + self.name + ' needs a path or a volume'",
          },
        ],
        properties: {
          name: { type: 'string' },
          path: { type: 'string' },
          volume: { type: 'string' },
          secretRef: { ...ref, description: 'The secret with credentials.' },
        },
      },
    },
    note: { type: 'string', nullable: true },
    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    anything: { 'x-kubernetes-preserve-unknown-fields': true, description: 'Any JSON.' },
    template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    opaque: { type: 'object' },
    window: {
      type: 'object',
      default: {},
      properties: { days: { type: 'integer', format: 'int32', default: 7 } },
      'x-kubernetes-map-type': 'atomic',
    },
    docs: { type: 'string', externalDocs: { url: 'https://example.com/docs', description: 'Guide' } },
  },
};

function featureCrd(): Crd {
  const crd = crdObject({
    group: 'ops.example.com',
    kind: 'Backup',
    plural: 'backupsets',
    versions: ['v1', 'v1beta1'],
    scope: 'Cluster',
    spec,
  }) as unknown as Crd;
  crd.metadata.labels = { 'app.kubernetes.io/part-of': 'ops' };
  crd.metadata.annotations = { 'controller-gen.kubebuilder.io/version': 'v0.21.0', 'ops.example.com/owner': 'team-a' };
  crd.spec.names = { ...crd.spec.names, singular: 'backupset', shortNames: ['bk'], categories: ['all', 'ops'] };
  const [v1, v1beta1] = crd.spec.versions as [Crd['spec']['versions'][number], Crd['spec']['versions'][number]];
  const root = v1.schema.openAPIV3Schema;
  root.description = 'Backup is the Schema for the backups API.';
  root['x-kubernetes-validations'] = [
    { rule: "self.metadata.name.startsWith('bk-')", message: 'names start with bk-' },
  ];
  root.properties!['status'] = {
    type: 'object',
    properties: {
      conditions: {
        type: 'array',
        items: knownTypeSchema('Condition'),
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      },
      count: { type: 'integer', format: 'int32' },
    },
  };
  v1.subresources = {
    status: {},
    scale: { specReplicasPath: '.spec.minRetained', statusReplicasPath: '.status.count' },
  };
  v1.additionalPrinterColumns = [
    { name: 'Schedule', type: 'string', jsonPath: '.spec.schedule', description: 'When it runs' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', priority: 1 },
  ];
  v1.selectableFields = [{ jsonPath: '.spec.mode' }];
  v1beta1.served = false;
  v1beta1.deprecated = true;
  v1beta1.deprecationWarning = 'ops.example.com/v1beta1 Backup is deprecated; use v1';
  return crd;
}

describe('import of a CRD using every feature tsop expresses', () => {
  const k = run(featureCrd());

  it('comes back identical from tsop manifests, with no loss', () => {
    expect(k.roundTrip?.errors).toEqual([]);
    expect(k.roundTrip?.unexplained).toEqual([]);
    expect(k.losses).toEqual([]);
  });

  it('makes tsop manifests print no warning (a float the CRD declares is said to be one)', () => {
    expect(k.roundTrip?.warnings).toEqual([]);
    expect(text(k)).toContain("  @Type('number')\n  @Format('double')\n  ratio?: number;");
  });

  it('writes the types and markers a person would', () => {
    const ts = text(k);
    for (const line of [
      "@Resource({ scope: 'Cluster', plural: 'backupsets', singular: 'backupset', shortNames: ['bk'], categories: ['all', 'ops'] })",
      '@SubresourceStatus()',
      "@SubresourceScale({ specPath: '.spec.minRetained', statusPath: '.status.count' })",
      "@PrintColumn({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', priority: 1 })",
      '@StorageVersion()',
      "@SelectableField({ jsonPath: '.spec.mode' })",
      "@Metadata({ labels: { 'app.kubernetes.io/part-of': 'ops' }, annotations: { 'ops.example.com/owner': 'team-a' } })",
      "@XValidation({ rule: 'self.minRetained <= self.maxRetained', message: 'min must not exceed max', reason: 'FieldValueInvalid', fieldPath: '.minRetained' })",
      'export class BackupSpec {',
      "  @Default('Full')",
      "  mode?: 'Full' | 'Incremental';",
      '  @DefaultsWhenPresent()\n  retry?: ',
      '  @ExclusiveMinimum()',
      '  minRetained?: int32;',
      "  @Type('integer')",
      '  retries?: number;',
      '  startAt?: Time;',
      '  port?: IntOrString;',
      '  size?: Quantity;',
      '  annotations?: Record<string, AnnotationValue>;',
      "  @ItemsPattern('^[a-z]+$')",
      '  hosts?: Hostname[];',
      "  @ListMapKey('name')",
      '  targets!: BackupTarget[];',
      '  note?: string | null;',
      '  extra?: RawExtension;',
      '  anything?: JSONValue;',
      '  @XEmbeddedResource()',
      "  @Type('object')",
      '  opaque?: JSONValue;',
      '  secretRef?: V1LocalObjectReference;',
      '  conditions?: Condition[];',
      ' * @maxLength 4096',
      'export type Hostname = string;',
      "@StructType('atomic')",
      'export class BackupWindow {',
      "export const backupKind: Kind<Backup> = { group: groupVersion.group, version: groupVersion.version, kind: 'Backup' };",
    ]) {
      expect(ts, line).toContain(line);
    }
    const beta = text(k, 'v1beta1');
    expect(beta).toContain('@Unserved()');
    expect(beta).toContain("@DeprecatedVersion({ warning: 'ops.example.com/v1beta1 Backup is deprecated; use v1' })");
    expect(beta).not.toContain('@StorageVersion()');
    expect(beta).not.toContain('@Metadata(');
  });

  it('writes the same files again for the same CRD', () => {
    const again = run(featureCrd());
    expect([...again.rendered].map(([p, r]) => [p, r.text])).toEqual([...k.rendered].map(([p, r]) => [p, r.text]));
  });
});

describe('import of descriptions a doc comment cannot carry', () => {
  // Older controller-gen wrote ' \n ' paragraph breaks and kept TODO lines; Gateway API leaves runs of blank lines.
  const texts = [
    'every */5 minutes',
    'Notes.\n@see the guide',
    'A rule matches. \n Each criterion has a negated version.',
    'Port of the parent.\n\n\nSupport: Core',
    'Field path.\nTODO: this design is not final.',
  ];
  const crd = crdObject({
    group: 'ops.example.com',
    kind: 'Job',
    plural: 'jobs',
    spec: {
      type: 'object',
      description: texts[3],
      properties: {
        ...Object.fromEntries(texts.map((description, i) => [`f${i}`, { type: 'string', description }])),
        rules: {
          type: 'array',
          items: { type: 'object', description: texts[2], properties: { a: { type: 'string' } } },
        },
      },
    },
  }) as unknown as Crd;
  const k = run(crd);

  it('writes them as @Description, and they come back identical with no loss and no warning', () => {
    expect(k.roundTrip?.errors).toEqual([]);
    expect(k.roundTrip?.unexplained).toEqual([]);
    expect(k.losses).toEqual([]);
    expect(k.roundTrip?.warnings).toEqual([]);
    expect(text(k)).toContain(`  @Description(${JSON.stringify(texts[4]).replace(/"/g, "'")})\n  f4?: string;`);
  });

  it('keeps a doc comment where one carries the text', () => {
    const plain = run(
      crdObject({
        group: 'ops.example.com',
        kind: 'Job',
        plural: 'jobs',
        spec: { type: 'object', properties: { f: { type: 'string', description: 'Plain.' } } },
      }) as unknown as Crd,
    );
    expect(text(plain)).toContain('  /** Plain. */\n  f?: string;');
    expect(text(plain)).not.toContain('@Description');
  });
});

describe('import names each thing tsop cannot express, where it stands, and changes nothing else', () => {
  const one = (prop: JSONSchemaProps, patch?: (crd: Crd) => void): ImportedKind => {
    const crd = crdObject({
      group: 'ops.example.com',
      kind: 'Job',
      plural: 'jobs',
      spec: { type: 'object', properties: { field: prop } },
    }) as unknown as Crd;
    patch?.(crd);
    return run(crd);
  };
  const rows: Array<[string, JSONSchemaProps, RegExp, ((crd: Crd) => void)?]> = [
    [
      'oneOf',
      { type: 'string', oneOf: [{ pattern: '^a' }, { pattern: '^b' }] },
      /^oneOf \(no tsop marker writes it\)$/,
    ],
    ['allOf', { type: 'string', allOf: [{ minLength: 1 }] }, /^allOf/],
    ['not', { type: 'string', not: { pattern: '^x' } }, /^not/],
    ['anyOf', { type: 'string', anyOf: [{ pattern: '^a' }] }, /^anyOf \(no tsop marker writes it\)$/],
    ['uniqueItems', { type: 'array', items: { type: 'string' }, uniqueItems: true }, /^uniqueItems/],
    ['additionalProperties: false', { type: 'object', additionalProperties: false }, /^additionalProperties: false$/],
    ['a nullable enum', { type: 'string', enum: ['a', 'b'], nullable: true }, /^a nullable enum/],
    [
      'a default on list elements',
      { type: 'array', items: { type: 'string', default: 'x' } },
      /^default on the elements of a list \(there is no @ItemsDefault\)$/,
    ],
    [
      'a list bound inside a map',
      { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' }, maxItems: 3 } },
      /^maxItems on a value inside a list or map/,
    ],
    [
      'a pattern the API server cannot run (RE2)',
      { type: 'string', pattern: '^(?=a)b$' },
      /^@Pattern \(tsop manifests refuses it: /,
    ],
    [
      'a list kind of its own',
      { type: 'string' },
      /^listKind JobCollection/,
      (crd) => void (crd.spec.names.listKind = 'JobCollection'),
    ],
    [
      'a conversion webhook',
      { type: 'string' },
      /the Webhook conversion \(spec\.conversion\)/,
      (crd) =>
        void (crd.spec.conversion = {
          strategy: 'Webhook',
          webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { name: 'w', namespace: 'n' } } },
        }),
    ],
    [
      'a schema for metadata',
      { type: 'string' },
      /the root metadata field's schema/,
      (crd) =>
        void (crd.spec.versions[0]!.schema.openAPIV3Schema.properties!['metadata'] = {
          type: 'object',
          properties: { name: { type: 'string', maxLength: 20 } },
        }),
    ],
  ];
  for (const [what, prop, reason, patch] of rows) {
    it(what, () => {
      const k = one(prop, patch);
      expect(k.roundTrip?.errors).toEqual([]);
      expect(k.roundTrip?.unexplained).toEqual([]);
      expect(k.losses.map((l) => l.loss.what)).toEqual([expect.stringMatching(reason)]);
      const { file, line } = k.losses[0]!;
      expect(k.rendered.get(file)!.text.split('\n')[line - 1]).toMatch(/^\s*\/\/ tsop: not expressible: /);
    });
  }
});

describe('names', () => {
  it('takes the short name where one shape asks for it, and the parent-qualified one where two do', () => {
    const root: NameRequest = { fixed: 'Gateway' };
    const spec: NameRequest = { fixed: 'GatewaySpec' };
    const tlsA: NameRequest = { short: 'GatewayTls', parent: spec, suffix: 'Tls' };
    const listener: NameRequest = { short: 'GatewayListener', parent: spec, suffix: 'Listener' };
    const tlsB: NameRequest = { short: 'GatewayTls', parent: listener, suffix: 'Tls' };
    const own: NameRequest = {
      preferred: 'AnnotationValue',
      short: 'GatewayAnnotationsValue',
      parent: spec,
      suffix: 'AnnotationsValue',
    };
    const global: NameRequest = { short: 'Map', parent: spec, suffix: 'Map' };
    assignNames([root, spec, tlsA, listener, tlsB, own, global], new Set(['Resource']));
    expect([tlsA.name, listener.name, tlsB.name, own.name, global.name]).toEqual([
      'GatewaySpecTls',
      'GatewayListener',
      'GatewayListenerTls',
      'AnnotationValue',
      'GatewaySpecMap',
    ]);
  });

  it('names list elements in the singular', () => {
    expect(
      [
        'rules',
        'policies',
        'addresses',
        'matches',
        'status',
        'data',
        'items',
        'ingress',
        'hostAliases',
        'statuses',
      ].map(singular),
    ).toEqual(['rule', 'policy', 'address', 'match', 'status', 'data', 'item', 'ingress', 'hostAlias', 'status']);
  });
});
