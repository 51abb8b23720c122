// Unit tests of the OpenAPI v3 → CRD schema converter, the Go default-marker scanner and the
// inliner, on small hand-made inputs.
import { describe, expect, it } from 'vitest';
import {
  ConvertError,
  QUANTITY_PATTERN,
  clientNames,
  collectReachable,
  convertDefinition,
  convertNode,
} from '../../src/codegen/core/convert.mjs';
import {
  docText,
  elementDoc,
  embedsAtomic,
  findField,
  goPackageOf,
  scanGoStructs,
  structHasDefault,
  validationMarkers,
} from '../../src/codegen/core/go-markers.mjs';
import { CoreSchemaError, inlineSchema } from '../../src/codegen/core/inline.js';
import type { CoreSchema } from '../../src/codegen/core/types.js';

const ref = (name: string) => `#/components/schemas/${name}`;

describe('convertNode', () => {
  it('unwraps allOf around a $ref, keeps the field description and drops the zero default', () => {
    const out = convertNode(
      {
        allOf: [{ $ref: ref('io.k8s.api.core.v1.PodSpec') }],
        default: {},
        description: 'Specification of the pod.',
      },
      'T.spec',
      { definition: 'T', at: 'property', property: 'spec' },
    );
    expect(out).toEqual({ $ref: 'io.k8s.api.core.v1.PodSpec', description: 'Specification of the pod.' });
  });

  it('drops strategic-merge and union extensions, keeps list-map keys and sorts required', () => {
    const out = convertNode({
      type: 'object',
      required: ['zeta', 'alpha'],
      properties: {
        zeta: { type: 'string', default: '' },
        alpha: {
          type: 'array',
          items: { allOf: [{ $ref: ref('X') }], default: {} },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          'x-kubernetes-patch-merge-key': 'name',
          'x-kubernetes-patch-strategy': 'merge',
        },
      },
      'x-kubernetes-unions': [{ discriminator: 'type' }],
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'Pod', version: 'v1' }],
    });
    expect(out).toEqual({
      type: 'object',
      required: ['alpha', 'zeta'],
      properties: {
        alpha: {
          type: 'array',
          items: { $ref: 'X' },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
        },
        zeta: { type: 'string' },
      },
    });
  });

  it('without marker information keeps only non-zero defaults', () => {
    const out = convertNode({
      type: 'object',
      properties: { protocol: { type: 'string', default: 'TCP' }, port: { type: 'integer', default: 0 } },
    });
    expect(out.properties?.['protocol']?.default).toBe('TCP');
    expect(out.properties?.['port']).toEqual({ type: 'integer' });
  });

  it('with marker information keeps exactly the marked properties, zero values included', () => {
    const markers = { hasDefault: (d: string, p: string) => d === 'T' && p === 'name' };
    const out = convertDefinition(
      'T',
      {
        type: 'object',
        properties: {
          name: { type: 'string', default: '' },
          serviceName: { type: 'string', default: '' },
          args: { type: 'array', items: { type: 'string', default: '' } },
        },
      },
      markers,
    );
    expect(out.properties?.['name']).toEqual({ type: 'string', default: '' });
    expect(out.properties?.['serviceName']).toEqual({ type: 'string' });
    expect(out.properties?.['args']?.items).toEqual({ type: 'string' });
  });

  it('takes descriptions, validations, element docs and inherited atomicity from Go facts', () => {
    const facts = {
      fieldDoc: (_d: string, p: string) =>
        p === 'caps' ? 'Capabilities to add.\nCannot be updated.' : 'Different words.',
      typeDoc: () => 'A thing\nwith two lines.',
      elementDoc: (_d: string, p: string) => (p === 'caps' ? 'Capability represents a POSIX capability.' : undefined),
      fieldValidations: (_d: string, p: string) => (p === 'name' ? { maxLength: 63, pattern: '^[a-z]+$' } : {}),
      embedsAtomic: () => true,
    };
    const out = convertDefinition(
      'T',
      {
        type: 'object',
        description: 'A thing with two lines.',
        properties: {
          caps: {
            type: 'array',
            description: 'Capabilities to add. Cannot be updated.',
            items: { type: 'string', default: '' },
          },
          name: { type: 'string', description: 'The name.', maxLength: 100 },
        },
      },
      facts,
    );
    expect(out.description).toBe('A thing\nwith two lines.');
    expect(out['x-kubernetes-map-type']).toBe('atomic');
    expect(out.properties?.['caps']).toEqual({
      type: 'array',
      description: 'Capabilities to add.\nCannot be updated.',
      items: { type: 'string', description: 'Capability represents a POSIX capability.' },
    });
    // Go doc says other words: the document's description stays; the document's own bound wins
    expect(out.properties?.['name']).toEqual({
      type: 'string',
      description: 'The name.',
      maxLength: 100,
      pattern: '^[a-z]+$',
    });
  });

  it('rejects keywords it does not know, untyped nodes and allOf that is not a ref wrapper', () => {
    expect(() => convertNode({ type: 'string', 'x-new-thing': 1 }, 'T.f')).toThrow(
      /T\.f: unsupported keyword 'x-new-thing'/,
    );
    expect(() => convertNode({ description: 'no type' }, 'T.g')).toThrow(ConvertError);
    expect(() => convertNode({ allOf: [{ type: 'string' }, { type: 'integer' }] }, 'T.h')).toThrow(/allOf/);
  });
});

describe('known types', () => {
  it('renders IntOrString and Quantity as controller-gen does, without the upstream oneOf', () => {
    const raw = { oneOf: [{ type: 'string' }, { type: 'number' }], description: 'long doc' };
    expect(convertDefinition('io.k8s.apimachinery.pkg.util.intstr.IntOrString', raw)).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
    const q = convertDefinition('io.k8s.apimachinery.pkg.api.resource.Quantity', raw);
    expect(q.pattern).toBe(QUANTITY_PATTERN);
    expect(q['x-kubernetes-int-or-string']).toBe(true);
    expect(new RegExp(QUANTITY_PATTERN).test('500Mi')).toBe(true);
    expect(new RegExp(QUANTITY_PATTERN).test('1.5e3')).toBe(true);
    expect(new RegExp(QUANTITY_PATTERN).test('ten')).toBe(false);
  });

  it('renders ObjectMeta as a bare object and Time as a date-time string', () => {
    expect(
      convertDefinition('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', { type: 'object', properties: {} }),
    ).toEqual({ type: 'object' });
    expect(
      convertDefinition('io.k8s.apimachinery.pkg.apis.meta.v1.Time', {
        type: 'string',
        format: 'date-time',
        description: 'd',
      }),
    ).toEqual({
      type: 'string',
      format: 'date-time',
    });
  });
});

describe('collectReachable', () => {
  const raw: Record<string, unknown[]> = {
    A: [{ type: 'object', properties: { b: { allOf: [{ $ref: ref('B') }] } } }],
    B: [{ type: 'object', properties: { s: { type: 'string' } } }],
    Unused: [{ type: 'string' }],
    Meta: [
      { type: 'object', 'x-kubernetes-group-version-kind': [{ kind: 'X' }] },
      { type: 'object', 'x-kubernetes-group-version-kind': [{ kind: 'Y' }] },
    ],
    Split: [{ type: 'string' }, { type: 'integer' }],
  };
  const variants = (n: string) => raw[n] ?? [];

  it('keeps only what the roots reach, and accepts copies that agree once converted', () => {
    expect(Object.keys(collectReachable(['A', 'Meta'], variants)).sort()).toEqual(['A', 'B', 'Meta']);
  });

  it('refuses copies that disagree and references to nothing', () => {
    expect(() => collectReachable(['Split'], variants)).toThrow(/differs between documents/);
    expect(() => collectReachable(['Nope'], variants)).toThrow(/Nope not found/);
  });
});

describe('clientNames', () => {
  it('follows client-node: <Version><Kind>, with the group in front on a clash', () => {
    const names = clientNames([
      'io.k8s.api.core.v1.Container',
      'io.k8s.api.batch.v1beta1.CronJobSpec',
      'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      'io.k8s.api.core.v1.ResourceClaim',
      'io.k8s.api.resource.v1.ResourceClaim',
      'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ServiceReference',
      'io.k8s.api.admissionregistration.v1.ServiceReference',
      'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
    ]);
    expect(Object.fromEntries(names)).toEqual({
      'io.k8s.api.core.v1.Container': 'V1Container',
      'io.k8s.api.batch.v1beta1.CronJobSpec': 'V1beta1CronJobSpec',
      'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector': 'V1LabelSelector',
      'io.k8s.api.core.v1.ResourceClaim': 'CoreV1ResourceClaim',
      'io.k8s.api.resource.v1.ResourceClaim': 'ResourceV1ResourceClaim',
      'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ServiceReference': 'ApiextensionsV1ServiceReference',
      'io.k8s.api.admissionregistration.v1.ServiceReference': 'AdmissionregistrationV1ServiceReference',
    });
  });
});

describe('Go default markers', () => {
  const go = [
    'package v1',
    '',
    'type LocalObjectReference struct {',
    '\t// Name of the referent.',
    '\t// +optional',
    '\t// +default=""',
    '\tName string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`',
    '}',
    '',
    'type SecretKeySelector struct {',
    '\t// The name of the secret.',
    '\tLocalObjectReference `json:",inline" protobuf:"bytes,1,opt,name=localObjectReference"`',
    '\t// +default=ref(SomeConstant)',
    '\tMode *string `json:"mode,omitempty"`',
    '\t// +kubebuilder:default=3',
    '\tCount int32 `json:"count,omitempty"`',
    '',
    '\t// +optional',
    '\tKey string `json:"key"`',
    '}',
  ].join('\n');
  const structs = scanGoStructs([go]);

  it('finds +default and +kubebuilder:default, follows inline embeds, skips ref(...)', () => {
    expect(structHasDefault(structs, 'LocalObjectReference', 'name')).toBe(true);
    expect(structHasDefault(structs, 'SecretKeySelector', 'name')).toBe(true);
    expect(structHasDefault(structs, 'SecretKeySelector', 'count')).toBe(true);
    expect(structHasDefault(structs, 'SecretKeySelector', 'mode')).toBe(false);
    expect(structHasDefault(structs, 'SecretKeySelector', 'key')).toBe(false);
    expect(structHasDefault(structs, 'Missing', 'key')).toBe(false);
  });

  it('renders doc comments as controller-gen does', () => {
    expect(
      docText([
        '\t//',
        '\t// First line.',
        '\t// +optional',
        '\t// Second line.  ',
        '\t//',
        '\t//',
        '\t// TODO: not part of it',
        '\t// Next paragraph.',
        '\t// ---',
        '\t// hidden',
      ]),
    ).toBe('First line.\nSecond line.\n\nNext paragraph.');
    expect(docText(['// ```', '// --- kept inside a fence', '// ```', '// ---', '// gone'])).toBe(
      '```\n--- kept inside a fence\n```',
    );
  });

  it('reads kubebuilder validation markers', () => {
    expect(
      validationMarkers([
        '// +kubebuilder:validation:Required',
        '// +kubebuilder:validation:Pattern=`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`',
        '// +kubebuilder:validation:MaxLength=1024',
        '// +kubebuilder:validation:Enum=True;False;Unknown',
        '// +kubebuilder:validation:Minimum=0',
        '// +kubebuilder:validation:Type=string',
      ]),
    ).toEqual({
      pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
      maxLength: 1024,
      enum: ['True', 'False', 'Unknown'],
      minimum: 0,
    });
  });

  it('finds docs through embeds in other packages, element types, and inherited atomicity', () => {
    const meta = scanGoStructs([
      [
        'package v1',
        '',
        '// TypeMeta describes an object.',
        'type TypeMeta struct {',
        '\t// Kind is a string.',
        '\tKind string `json:"kind,omitempty"`',
        '}',
      ].join('\n'),
    ]);
    const core = scanGoStructs([
      [
        'package v1',
        '',
        'import (',
        '\tmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"',
        ')',
        '',
        '// Capability is a POSIX capability.',
        'type Capability string',
        '',
        '// +structType=atomic',
        'type LocalObjectReference struct {',
        '\tName string `json:"name,omitempty"`',
        '}',
        '',
        'type Claim struct {',
        '\tmetav1.TypeMeta `json:",inline"`',
        '\tAdd []Capability `json:"add,omitempty"`',
        '\tRefs map[string]*LocalObjectReference `json:"refs,omitempty"`',
        '}',
        '',
        'type EnvSource struct {',
        '\tLocalObjectReference `json:",inline"`',
        '}',
      ].join('\n'),
    ]);
    const load = (path: string) => (path === 'k8s.io/apimachinery/pkg/apis/meta/v1' ? meta : undefined);
    expect(findField(core, 'Claim', 'kind', load)?.doc).toBe('Kind is a string.');
    expect(findField(core, 'Claim', 'kind')).toBeUndefined();
    expect(elementDoc(core, 'Claim', 'add', load)).toBe('Capability is a POSIX capability.');
    expect(elementDoc(core, 'Claim', 'refs', load)).toBeUndefined(); // a struct: its schema carries the doc
    expect(embedsAtomic(core, 'EnvSource')).toBe(true);
    expect(embedsAtomic(core, 'Claim')).toBe(false);
    expect(core.get('LocalObjectReference')?.atomic).toBe(true);
  });

  it('maps definition names to Go packages', () => {
    expect(goPackageOf('io.k8s.api.core.v1.Container')).toEqual({
      importPath: 'k8s.io/api/core/v1',
      type: 'Container',
    });
    expect(goPackageOf('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector')).toEqual({
      importPath: 'k8s.io/apimachinery/pkg/apis/meta/v1',
      type: 'LabelSelector',
    });
  });
});

describe('inlineSchema', () => {
  const defs: Record<string, CoreSchema> = {
    Outer: {
      type: 'object',
      description: 'Outer doc.',
      properties: {
        documented: { $ref: 'Inner', description: 'Field doc.' },
        undocumented: { $ref: 'Inner' },
        list: { type: 'array', items: { $ref: 'Inner' } },
        port: { $ref: 'IntOrString', description: 'Port doc.' },
      },
    },
    Inner: { type: 'object', description: 'Inner doc.', properties: { x: { type: 'string', default: 'a' } } },
    IntOrString: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
    SelfA: { type: 'object', properties: { b: { $ref: 'SelfB' } } },
    SelfB: { type: 'array', items: { $ref: 'SelfA' } },
  };

  it('replaces refs, the field doc winning over the type doc', () => {
    const out = inlineSchema({ $ref: 'Outer' }, defs);
    expect(JSON.stringify(out)).not.toContain('$ref');
    expect(out.description).toBe('Outer doc.');
    expect(out.properties?.['documented']?.description).toBe('Field doc.');
    expect(out.properties?.['undocumented']?.description).toBe('Inner doc.');
    expect(out.properties?.['list']?.items?.properties?.['x']).toEqual({ type: 'string', default: 'a' });
    expect(out.properties?.['port']).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      description: 'Port doc.',
      'x-kubernetes-int-or-string': true,
    });
  });

  it('does not change the definitions it reads', () => {
    const before = JSON.stringify(defs);
    inlineSchema({ $ref: 'Outer' }, defs);
    expect(JSON.stringify(defs)).toBe(before);
  });

  it('reuses inlined definitions across calls through a shared memo', () => {
    const memo = new Map();
    const first = inlineSchema({ $ref: 'Outer' }, defs, memo);
    expect([...memo.keys()].sort()).toEqual(['Inner', 'IntOrString', 'Outer']);
    const inner = memo.get('Inner');
    const again = inlineSchema({ type: 'array', items: { $ref: 'Inner' } }, defs, memo);
    expect(memo.get('Inner')).toBe(inner); // not inlined a second time
    expect(again.items).toEqual(inner);
    expect(first.properties?.['undocumented']).toEqual(again.items);
  });

  it('reports recursion and missing definitions', () => {
    expect(() => inlineSchema({ $ref: 'SelfA' }, defs)).toThrow(/recursive core type: SelfA → SelfB → SelfA/);
    expect(() => inlineSchema({ $ref: 'Gone' }, defs)).toThrow(CoreSchemaError);
  });
});
