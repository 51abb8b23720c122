/**
 * Kinds whose names TypeScript or tsop's own modules already use (a global the decorator code
 * reads, a marker, a scalar type, the runtime's Kind) import like any other: the file compiles,
 * and `tsop manifests` gives the CRD back under the kind's own name.
 */
import { describe, expect, it } from 'vitest';
import { CoreTypeMatcher } from '../../src/import/core-types.js';
import type { Crd } from '../../src/import/crd.js';
import { importCrd } from '../../src/import/import-crd.js';
import { crdObject } from './crds.js';
import { typeErrors } from './type-check.js';

const matcher = new CoreTypeMatcher({});

describe('import of kinds named like what a types file already uses', () => {
  const written = new Map<string, string>();
  for (const kind of ['Object', 'Condition', 'Resource', 'Kind', 'Map', 'Minimum', 'Time']) {
    it(kind, () => {
      const spec = {
        type: 'object',
        properties: {
          'max-size': { type: 'integer', format: 'int32', minimum: 1 },
          since: { type: 'string', format: 'date-time' },
          conditions: { type: 'array', items: { type: 'object', properties: { type: { type: 'string' } } } },
        },
      };
      const crd = crdObject({
        group: 'names.example.com',
        kind,
        plural: `${kind.toLowerCase()}s`,
        spec,
      }) as unknown as Crd;
      const k = importCrd(
        { crd, origin: `${kind}.yaml` },
        {
          mode: 'own',
          typesPath: (c, v) => `src/api/${c.spec.names.kind.toLowerCase()}/${v}/types.ts`,
          header: '',
          manifestOptions: {},
          matcher,
        },
      );
      expect(k.roundTrip?.errors).toEqual([]);
      expect(k.roundTrip?.unexplained).toEqual([]);
      expect(k.losses).toEqual([]);
      for (const [path, r] of k.rendered) written.set(path, r.text);
      written.set(
        `src/api/${kind.toLowerCase()}/v1/groupversion.ts`,
        "export const groupVersion = { group: 'names.example.com', version: 'v1' } as const;\n",
      );
    });
  }
  it('and every one of those files compiles', () => {
    expect(written.size).toBe(14);
    expect(typeErrors(written)).toEqual([]);
  }, 120_000);
});
