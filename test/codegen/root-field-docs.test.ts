/**
 * The root apiVersion and kind: their standard descriptions (TypeMeta's doc, as apimachinery
 * writes it and controller-gen copies it), unless the kind's own field has a doc comment, which is
 * then the description, as controller-gen takes the doc of the fields a kind declares.
 */
import { describe, expect, it } from 'vitest';
import { rootFieldSchemas } from '../../src/codegen/known.js';
import { GROUP_VERSION, PRELUDE, crds, run } from './harness.js';

function rootOf(body: string, maxDescLen?: number): Record<string, any> {
  const r = run(
    {
      'src/api/v1/groupversion.ts': GROUP_VERSION,
      'src/api/v1/t.ts': `${PRELUDE}\n@Resource()\nexport class T {\n${body}\n${body.includes('metadata') ? '' : '  metadata?: ObjectMeta;\n'}}\n`,
    },
    maxDescLen === undefined ? {} : { maxDescLen },
  );
  expect(r.errors.map((e) => e.message)).toEqual([]);
  expect(r.warnings).toEqual([]);
  return Object.values(crds(r))[0]?.['spec'].versions[0].schema.openAPIV3Schema;
}

const ONE_LINE =
  'APIVersion defines the versioned schema of this representation of an object. Servers ' +
  'should convert recognized schemas to the latest internal value, and may reject ' +
  'unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';

describe('root apiVersion and kind descriptions', () => {
  it('without a doc comment they are the standard text', () => {
    const root = rootOf('  apiVersion?: string;\n  kind?: string;');
    expect(root.properties.apiVersion).toEqual(rootFieldSchemas().apiVersion);
    expect(root.properties.kind).toEqual(rootFieldSchemas().kind);
  });

  it('a doc comment on either is its description; the other keeps the standard text', () => {
    const root = rootOf(`  /** ${ONE_LINE} */\n  apiVersion?: string;\n  kind?: string;`);
    expect(root.properties.apiVersion).toEqual({ type: 'string', description: ONE_LINE });
    expect(root.properties.kind).toEqual(rootFieldSchemas().kind);
    const kindOnly = rootOf('  apiVersion?: string;\n  /** Kind of the object. */\n  kind?: string;');
    expect(kindOnly.properties.kind).toEqual({ type: 'string', description: 'Kind of the object.' });
    expect(kindOnly.properties.apiVersion).toEqual(rootFieldSchemas().apiVersion);
  });

  it('maxDescLen cuts it like any description', () => {
    const root = rootOf('  /** Kind of the object. */\n  kind?: string;', 0);
    expect(root.properties.kind).toEqual({ type: 'string' });
  });
});

describe('root metadata', () => {
  it('is required when declared without ? (Go: ObjectMeta without omitempty), and not otherwise', () => {
    expect(rootOf('  metadata!: ObjectMeta;\n  spec!: string;').required).toEqual(['metadata', 'spec']);
    expect(rootOf('  metadata!: ObjectMeta;').required).toEqual(['metadata']);
    expect(rootOf('  metadata?: ObjectMeta;\n  spec!: string;').required).toEqual(['spec']);
    expect(rootOf('  apiVersion!: string;\n  kind!: string;').required).toBeUndefined();
  });
});
