// Unit tests of breaking-change detection between two CRDs: each kind of tightening is reported
// once with its path, loosening and cosmetic changes are not.
import { describe, expect, it } from 'vitest';
import { CrdShapeError, breakingChanges } from '../../src/manifests/breaking.js';
import type { JSONSchemaProps } from '../../src/codegen/jsonschema.js';

interface VersionSpec {
  name?: string;
  served?: boolean;
  spec?: JSONSchemaProps;
  subresources?: Record<string, unknown>;
}

/** A CRD whose versions each have `spec` as .spec. */
function crd(versions: VersionSpec[], extra: { scope?: string; kind?: string } = {}): unknown {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'ships.fleet.tsop.dev' },
    spec: {
      group: 'fleet.tsop.dev',
      names: { kind: extra.kind ?? 'Ship', plural: 'ships' },
      scope: extra.scope ?? 'Namespaced',
      versions: versions.map((v) => ({
        name: v.name ?? 'v1',
        served: v.served ?? true,
        storage: true,
        ...(v.subresources ? { subresources: v.subresources } : {}),
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              spec: v.spec ?? { type: 'object' },
            },
          },
        },
      })),
    },
  };
}

/** Breaking changes when .spec goes from `a` to `b` in v1. */
const diff = (a: JSONSchemaProps, b: JSONSchemaProps): string[] =>
  breakingChanges(crd([{ spec: a }]), crd([{ spec: b }]));
const obj = (properties: Record<string, JSONSchemaProps>, required?: string[]): JSONSchemaProps => ({
  type: 'object',
  properties,
  ...(required ? { required } : {}),
});

describe('fields and types', () => {
  it('reports nothing for identical CRDs', () => {
    const s = obj({ replicas: { type: 'integer', minimum: 1 } }, ['replicas']);
    expect(diff(s, structuredClone(s))).toEqual([]);
  });

  it('reports a removed field, nested ones with their full path', () => {
    expect(diff(obj({ a: { type: 'string' }, b: obj({ c: { type: 'string' } }) }), obj({ b: obj({}) }))).toEqual([
      'v1 .spec.a: field removed',
      'v1 .spec.b.c: field removed',
    ]);
  });

  it('reports a changed type once, without noise from below it', () => {
    expect(diff(obj({ port: obj({ n: { type: 'integer' } }) }), obj({ port: { type: 'string' } }))).toEqual([
      'v1 .spec.port: type changed from object to string',
    ]);
  });

  it('does not report widenings: integer to number, integer or string to int-or-string', () => {
    const ios: JSONSchemaProps = {
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    };
    expect(diff(obj({ a: { type: 'integer' } }), obj({ a: { type: 'number' } }))).toEqual([]);
    expect(diff(obj({ a: { type: 'string' } }), obj({ a: ios }))).toEqual([]);
    expect(diff(obj({ a: ios }), obj({ a: { type: 'string' } }))).toEqual([
      'v1 .spec.a: type changed from int-or-string to string',
    ]);
  });

  it('reports a field newly required, whether it existed or is new', () => {
    expect(
      diff(
        obj({ a: { type: 'string' }, b: { type: 'string' } }, ['a']),
        obj({ a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } }, ['a', 'c', 'b']),
      ),
    ).toEqual(['v1 .spec.b: field newly required', 'v1 .spec.c: field newly required']);
  });

  it('does not report a newly required field that has a default', () => {
    expect(diff(obj({}), obj({ mode: { type: 'string', default: 'Auto' } }, ['mode']))).toEqual([]);
  });

  it('does not report added optional fields or dropped requirements', () => {
    expect(diff(obj({ a: { type: 'string' } }, ['a']), obj({ a: { type: 'string' }, b: { type: 'string' } }))).toEqual(
      [],
    );
  });

  it('walks array items and map values', () => {
    const before = obj({
      ports: { type: 'array', items: obj({ port: { type: 'integer', maximum: 65535 } }) },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
    });
    const after = obj({
      ports: { type: 'array', items: obj({ port: { type: 'integer', maximum: 1024 } }) },
      labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 63 } },
    });
    expect(diff(before, after)).toEqual([
      'v1 .spec.labels.*: maxLength added: 63',
      'v1 .spec.ports[*].port: maximum tightened from 65535 to 1024',
    ]);
  });

  it('quotes property names that are not identifiers', () => {
    expect(diff(obj({ 'app.kubernetes.io/name': { type: 'string' } }), obj({}))).toEqual([
      'v1 .spec["app.kubernetes.io/name"]: field removed',
    ]);
  });

  it('reports a map that no longer allows arbitrary keys, and lost preserve-unknown-fields', () => {
    expect(diff(obj({ m: { type: 'object', additionalProperties: { type: 'string' } } }), obj({ m: obj({}) }))).toEqual(
      ['v1 .spec.m: additional properties no longer allowed'],
    );
    expect(
      diff(
        obj({ raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }),
        obj({ raw: { type: 'object' } }),
      ),
    ).toEqual(['v1 .spec.raw: unknown fields no longer preserved']);
    expect(
      diff(obj({ any: { 'x-kubernetes-preserve-unknown-fields': true } }), obj({ any: { type: 'object' } })),
    ).toEqual(['v1 .spec.any: type changed from any to object']);
  });
});

describe('bounds', () => {
  const n = (s: JSONSchemaProps) => obj({ f: s });

  it('numeric: minimum up, maximum down, new bounds, exclusivity', () => {
    expect(
      diff(n({ type: 'integer', minimum: 1, maximum: 10 }), n({ type: 'integer', minimum: 2, maximum: 5 })),
    ).toEqual(['v1 .spec.f: minimum tightened from 1 to 2', 'v1 .spec.f: maximum tightened from 10 to 5']);
    expect(
      diff(n({ type: 'integer' }), n({ type: 'integer', minimum: 0, maximum: 9, exclusiveMaximum: true })),
    ).toEqual(['v1 .spec.f: minimum added: 0', 'v1 .spec.f: maximum added: 9 (exclusive)']);
    expect(
      diff(n({ type: 'integer', minimum: 0 }), n({ type: 'integer', minimum: 0, exclusiveMinimum: true })),
    ).toEqual(['v1 .spec.f: minimum 0 made exclusive']);
  });

  it('numeric: loosening is not reported', () => {
    expect(
      diff(
        n({ type: 'integer', minimum: 2, maximum: 5, exclusiveMinimum: true }),
        n({ type: 'integer', minimum: 1, maximum: 10 }),
      ),
    ).toEqual([]);
    expect(diff(n({ type: 'integer', minimum: 2 }), n({ type: 'integer' }))).toEqual([]);
  });

  it('lengths, item counts and property counts', () => {
    expect(
      diff(
        obj({
          s: { type: 'string', minLength: 1, maxLength: 20 },
          l: { type: 'array', items: { type: 'string' }, maxItems: 5 },
          m: { type: 'object', additionalProperties: { type: 'string' } },
        }),
        obj({
          s: { type: 'string', minLength: 3, maxLength: 10 },
          l: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
          m: { type: 'object', additionalProperties: { type: 'string' }, minProperties: 1, maxProperties: 8 },
        }),
      ),
    ).toEqual([
      'v1 .spec.l: minItems added: 1',
      'v1 .spec.l: maxItems tightened from 5 to 3',
      'v1 .spec.m: minProperties added: 1',
      'v1 .spec.m: maxProperties added: 8',
      'v1 .spec.s: minLength tightened from 1 to 3',
      'v1 .spec.s: maxLength tightened from 20 to 10',
    ]);
    expect(diff(n({ type: 'string', minLength: 0 }), n({ type: 'string' }))).toEqual([]);
  });

  it('multipleOf: added or changed to a value old multiples may miss', () => {
    expect(diff(n({ type: 'integer' }), n({ type: 'integer', multipleOf: 5 }))).toEqual([
      'v1 .spec.f: multipleOf added: 5',
    ]);
    expect(diff(n({ type: 'integer', multipleOf: 2 }), n({ type: 'integer', multipleOf: 4 }))).toEqual([
      'v1 .spec.f: multipleOf changed from 2 to 4',
    ]);
    expect(diff(n({ type: 'integer', multipleOf: 4 }), n({ type: 'integer', multipleOf: 2 }))).toEqual([]);
  });
});

describe('values', () => {
  const n = (s: JSONSchemaProps) => obj({ f: s });

  it('pattern added or changed', () => {
    expect(diff(n({ type: 'string' }), n({ type: 'string', pattern: '^[a-z]+$' }))).toEqual([
      'v1 .spec.f: pattern added: ^[a-z]+$',
    ]);
    expect(diff(n({ type: 'string', pattern: '^a' }), n({ type: 'string', pattern: '^b' }))).toEqual([
      'v1 .spec.f: pattern changed from ^a to ^b',
    ]);
    expect(diff(n({ type: 'string', pattern: '^a' }), n({ type: 'string' }))).toEqual([]);
  });

  it('enum values removed or an enum introduced; added values are fine', () => {
    expect(diff(n({ type: 'string', enum: ['A', 'B', 'C'] }), n({ type: 'string', enum: ['A', 'D'] }))).toEqual([
      'v1 .spec.f: enum values removed: B, C',
    ]);
    expect(diff(n({ type: 'string', enum: ['A'] }), n({ type: 'string', enum: ['A', 'B'] }))).toEqual([]);
    expect(diff(n({ type: 'integer' }), n({ type: 'integer', enum: [1, 2] }))).toEqual([
      'v1 .spec.f: enum added: 1, 2',
    ]);
  });

  it('format added or changed', () => {
    expect(diff(n({ type: 'string' }), n({ type: 'string', format: 'date-time' }))).toEqual([
      'v1 .spec.f: format added: date-time',
    ]);
    expect(diff(n({ type: 'string', format: 'date' }), n({ type: 'string', format: 'date-time' }))).toEqual([
      'v1 .spec.f: format changed from date to date-time',
    ]);
  });

  it('nullable withdrawn, defaults removed or changed (not added)', () => {
    expect(diff(n({ type: 'string', nullable: true }), n({ type: 'string' }))).toEqual([
      'v1 .spec.f: no longer nullable',
    ]);
    expect(diff(n({ type: 'integer', default: 3 }), n({ type: 'integer' }))).toEqual([
      'v1 .spec.f: default removed (was 3)',
    ]);
    expect(diff(n({ type: 'string', default: 'a' }), n({ type: 'string', default: 'b' }))).toEqual([
      'v1 .spec.f: default changed from a to b',
    ]);
    expect(diff(n({ type: 'string' }), n({ type: 'string', default: 'b' }))).toEqual([]);
  });

  it('CEL rules added (removed ones loosen)', () => {
    const rule = (r: string) => ({ rule: r });
    expect(
      diff(
        n({ type: 'string', 'x-kubernetes-validations': [rule('self != ""')] }),
        n({ type: 'string', 'x-kubernetes-validations': [rule('self != ""'), rule('self.size() < 5')] }),
      ),
    ).toEqual(['v1 .spec.f: validation rule added: self.size() < 5']);
    expect(
      diff(n({ type: 'string', 'x-kubernetes-validations': [rule('self != ""')] }), n({ type: 'string' })),
    ).toEqual([]);
  });

  it('list semantics: list type and map keys', () => {
    const list = (extra: JSONSchemaProps): JSONSchemaProps => ({
      type: 'array',
      items: obj({ name: { type: 'string' }, port: { type: 'integer' } }, ['name']),
      ...extra,
    });
    expect(
      diff(n(list({})), n(list({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }))),
    ).toEqual(['v1 .spec.f: list type changed from atomic to map']);
    expect(
      diff(
        n(list({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] })),
        n(list({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'port'] })),
      ),
    ).toEqual(['v1 .spec.f: list map keys changed from [name] to [name, port]']);
    expect(diff(n(list({ 'x-kubernetes-list-type': 'atomic' })), n(list({})))).toEqual([]);
  });

  it('ignores descriptions, titles and examples', () => {
    expect(
      diff(
        n({ type: 'string', description: 'old' }),
        n({ type: 'string', description: 'new', title: 't', example: 'x' }),
      ),
    ).toEqual([]);
  });
});

describe('versions and CRD-level changes', () => {
  it('reports a served version removed or no longer served, and compares only versions served in both', () => {
    const before = crd([
      { name: 'v1alpha1' },
      { name: 'v1beta1' },
      { name: 'v1', spec: obj({ a: { type: 'string' } }) },
      { name: 'v0', served: false },
    ]);
    const after = crd([
      { name: 'v1beta1', served: false },
      { name: 'v1', spec: obj({}) },
      { name: 'v2', spec: obj({}, ['x']) },
    ]);
    expect(breakingChanges(before, after)).toEqual([
      'v1alpha1: served version removed',
      'v1beta1: served version removed',
      'v1 .spec.a: field removed',
    ]);
  });

  it('reports scope and kind changes and lost subresources', () => {
    const before = crd([
      {
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
        },
      },
    ]);
    const after = crd([{ subresources: { status: {} } }], { scope: 'Cluster', kind: 'Vessel' });
    expect(breakingChanges(before, after)).toEqual([
      'scope changed from Namespaced to Cluster',
      'kind changed from Ship to Vessel',
      'v1: scale subresource removed',
    ]);
  });

  it('refuses input that is not a CRD', () => {
    expect(() => breakingChanges({ kind: 'ConfigMap' }, crd([{}]))).toThrow(CrdShapeError);
    expect(() => breakingChanges(crd([{}]), { spec: { versions: [{ served: true }] } })).toThrow(
      /new CRD: spec.versions\[0\] has no name/,
    );
  });
});

describe('composition', () => {
  it('reports anyOf/oneOf/allOf/not added or changed, but not the int-or-string anyOf', () => {
    const n = (s: JSONSchemaProps) => obj({ f: s });
    expect(
      diff(n({ type: 'object' }), n({ type: 'object', oneOf: [{ required: ['a'] }, { required: ['b'] }] })),
    ).toEqual(['v1 .spec.f: oneOf added']);
    expect(
      diff(n({ type: 'object', not: { required: ['a'] } }), n({ type: 'object', not: { required: ['b'] } })),
    ).toEqual(['v1 .spec.f: not changed']);
    const ios = (extra: JSONSchemaProps): JSONSchemaProps => ({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
      ...extra,
    });
    expect(diff(n(ios({})), n(ios({})))).toEqual([]);
    expect(diff(n(ios({})), n(ios({ pattern: '^[0-9]+%?$' })))).toEqual(['v1 .spec.f: pattern added: ^[0-9]+%?$']);
  });
});
