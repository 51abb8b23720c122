/**
 * A CRD controller-gen generated with `crd:maxDescLen=40` (test/fixtures/controller-gen/truncated),
 * imported into a project with maxDescLen 40: the descriptions it cut at a sentence end come back
 * as they are; the ones it cut with `...` are longer than 40 bytes, so `tsop manifests` would cut
 * them again, and the import names that at each, rather than leave the round trip to find it.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { truncateDescription } from '../../src/codegen/description.js';
import type { JSONSchemaProps } from '../../src/codegen/jsonschema.js';
import { CoreTypeMatcher } from '../../src/import/core-types.js';
import { readCrds } from '../../src/import/documents.js';
import { importCrd } from '../../src/import/import-crd.js';

const path = 'test/fixtures/controller-gen/truncated/crd/truncated.tsop.dev_notes.yaml';

function descriptions(s: JSONSchemaProps): string[] {
  return [
    ...(s.description !== undefined ? [s.description] : []),
    ...Object.values(s.properties ?? {}).flatMap(descriptions),
    ...(s.items ? descriptions(s.items) : []),
  ];
}

it('names each description maxDescLen would cut again, and the round trip finds nothing else', () => {
  const source = readCrds([{ name: path, text: readFileSync(path, 'utf8') }]).crds[0]!;
  const k = importCrd(source, {
    mode: 'own',
    typesPath: () => 'src/api/v1/note.ts',
    header: '',
    manifestOptions: { maxDescLen: 40 },
    matcher: new CoreTypeMatcher({ maxDescLen: 40 }),
  });
  expect(k.roundTrip?.errors).toEqual([]);
  expect(k.roundTrip?.unexplained).toEqual([]);
  // The root apiVersion and kind are tsop's standard fields, cut by the same option: no loss there.
  const own = descriptions(source.crd.spec.versions[0]!.schema.openAPIV3Schema).filter(
    (d) => !/^(APIVersion|Kind) /.test(d),
  );
  const cutAgain = own.filter((d) => truncateDescription(d, 40) !== d);
  expect(cutAgain.length).toBeGreaterThan(0);
  expect(cutAgain.length).toBeLessThan(own.length);
  expect(k.losses.map((l) => l.loss.what)).toEqual(
    cutAgain.map(() => expect.stringMatching(/^the description is longer than maxDescLen 40 .*cuts it again/)),
  );
});
