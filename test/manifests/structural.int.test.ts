/**
 * tsop's structural checks against the API server's own: for each rule, a CRD breaking only that
 * rule is refused by checkStructural AND by kube-apiserver (dry run), so the checks are neither
 * looser nor stricter than the server on these cases; the same CRD with the rule respected passes both.
 */
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { HttpStatusError, requestJSON } from '../../runtime/rest/index.js';
import type { JSONSchemaProps } from '../../src/codegen/jsonschema.js';
import { checkStructural } from '../../src/manifests/structural.js';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';

/** A CRD whose root schema is `{type: object, properties: {spec}}`, or `root` itself when given. */
const crd = (spec: JSONSchemaProps, root?: JSONSchemaProps): V1CustomResourceDefinition => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'probes.structural.example.com' },
  spec: {
    group: 'structural.example.com',
    names: { kind: 'Probe', listKind: 'ProbeList', plural: 'probes', singular: 'probe' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: (root ?? { type: 'object', properties: { spec } }) as never },
      },
    ],
  },
});

const item = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object',
  properties: { name: { type: 'string' }, v: { type: 'string' } },
  ...extra,
});

const ROOT = Symbol('root');
const rootCase = (s: JSONSchemaProps): JSONSchemaProps => ({ ...s, [ROOT]: true }) as JSONSchemaProps;

const cases: Array<[string, JSONSchemaProps, JSONSchemaProps]> = [
  [
    'a default under metadata (at the root)',
    rootCase({
      type: 'object',
      properties: { metadata: { type: 'object', properties: { name: { type: 'string', default: 'x' } } } },
    }),
    rootCase({
      type: 'object',
      properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } } },
    }),
  ],
  ['a root that is not an object', rootCase({ type: 'string' }), rootCase({ type: 'object' })],
  ['$ref', { type: 'object', $ref: '#/definitions/x' } as JSONSchemaProps, { type: 'object' }],
  [
    'nullable inside allOf',
    { type: 'string', allOf: [{ nullable: true } as JSONSchemaProps] },
    { type: 'string', nullable: true, allOf: [{ minLength: 1 }] },
  ],
  [
    'a node without a type',
    { type: 'object', properties: { a: {} } },
    { type: 'object', properties: { a: { type: 'string' } } },
  ],
  [
    'uniqueItems',
    { type: 'array', items: { type: 'string' }, uniqueItems: true },
    { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
  ],
  [
    'properties with additionalProperties',
    { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
    { type: 'object', additionalProperties: { type: 'string' } },
  ],
  [
    'a description inside anyOf',
    { type: 'string', anyOf: [{ description: 'x', pattern: '^a' }] },
    { type: 'string', anyOf: [{ pattern: '^a' }] },
  ],
  ['an invalid default', { type: 'integer', minimum: 1, default: 0 }, { type: 'integer', minimum: 1, default: 1 }],
  [
    'a default with a field that would be pruned',
    { type: 'object', properties: { a: { type: 'string' } }, default: { b: 'x' } },
    { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x' } },
  ],
  [
    'listType map without keys',
    { type: 'array', items: item({ required: ['name'] }), 'x-kubernetes-list-type': 'map' },
    {
      type: 'array',
      items: item({ required: ['name'] }),
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    },
  ],
  [
    'a list-map key neither required nor defaulted',
    { type: 'array', items: item(), 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
    {
      type: 'array',
      items: item({ required: ['name'] }),
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    },
  ],
  [
    'list-map keys without listType map',
    { type: 'array', items: item({ required: ['name'] }), 'x-kubernetes-list-map-keys': ['name'] },
    { type: 'array', items: item({ required: ['name'] }) },
  ],
  [
    'listType set on objects',
    { type: 'array', items: item(), 'x-kubernetes-list-type': 'set' },
    { type: 'array', items: item(), 'x-kubernetes-list-type': 'atomic' },
  ],
  [
    'oldSelf under a list that is not a map',
    { type: 'array', items: item({ 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] }) },
    {
      type: 'array',
      items: item({ required: ['name'], 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] }),
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    },
  ],
  ['an array without items', { type: 'array' }, { type: 'array', items: { type: 'string' } }],
  [
    'an int-or-string anyOf pair is allowed; other anyOf types are not',
    { anyOf: [{ type: 'integer' }, { type: 'boolean' }], 'x-kubernetes-int-or-string': true },
    { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
  ],
];

describeWithControlPlane('structural checks agree with the API server', { shared: true }, (env) => {
  const schemaOf = (s: JSONSchemaProps): JSONSchemaProps =>
    crd(s, (s as Record<symbol, unknown>)[ROOT] ? s : undefined).spec.versions[0]?.schema
      ?.openAPIV3Schema as JSONSchemaProps;
  const serverAccepts = async (spec: JSONSchemaProps): Promise<{ ok: boolean; message: string }> => {
    try {
      // Raw JSON: client-node's typed CRD model would drop 'default' and 'x-kubernetes-*' keys
      // given as plain JSON.
      await requestJSON(env.cp.kubeConfig, {
        method: 'POST',
        path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
        query: { dryRun: 'All' },
        body: crd(spec, (spec as Record<symbol, unknown>)[ROOT] ? spec : undefined),
      });
      return { ok: true, message: '' };
    } catch (error) {
      if (!(error instanceof HttpStatusError)) throw error;
      return { ok: false, message: error.message };
    }
  };

  it.each(cases)('%s', async (_name, bad, good) => {
    expect(checkStructural(schemaOf(bad))).not.toEqual([]);
    const refused = await serverAccepts(bad);
    expect(refused.ok, 'the API server accepted what tsop refuses').toBe(false);
    expect(checkStructural(schemaOf(good))).toEqual([]);
    const accepted = await serverAccepts(good);
    expect(accepted, 'the API server refused the corrected schema').toEqual({ ok: true, message: '' });
  });
});
