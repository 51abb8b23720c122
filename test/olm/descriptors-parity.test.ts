/**
 * `tsop generate kustomize manifests` writes the CSV base operator-sdk's `generate kustomize
 * manifests` writes for the same API: two kinds whose types carry the same descriptors, as
 * `+operator-sdk:csv:customresourcedefinitions` markers in Go (parity/descriptors/*.go.txt, the
 * twin operator-sdk read) and as @CsvDescription/@CsvDescriptor decorators in TypeScript
 * (parity/descriptors/*.ts.txt). Covered: display names given and derived, x-descriptors, owned
 * resources and their order, nested and list paths, descriptor and CRD order, fields without a
 * descriptor, and the base's placeholders. operator-sdk's output is parity/descriptors/operator-sdk-base.yaml
 * (made once with operator-sdk v1.42.3; scripts/olm-descriptor-fixture.sh makes it again).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runKustomizeManifests } from '../../src/cli/generate-olm.js';
import { runInit } from '../../src/cli/init.js';
import { parseDocuments } from '../../src/yaml/documents-reader.js';
import { captured } from '../scaffold/harness.js';

const PARITY = join(import.meta.dirname, 'parity/descriptors');
const work = mkdtempSync(join(tmpdir(), 'tsop-olm-descriptors-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('generate kustomize manifests agrees with operator-sdk', () => {
  it('writes the same CSV base for the same descriptors', { timeout: 60_000 }, async () => {
    const dir = join(work, 'memcached-operator');
    await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
    for (const kind of ['Memcached', 'MemcachedBackup']) {
      await runCreateApi(
        { dir, group: 'cache', version: 'v1alpha1', kind, resource: true, controller: false, make: false },
        captured(),
      );
      const file = kind.toLowerCase();
      writeFileSync(join(dir, `src/api/v1alpha1/${file}.ts`), readFileSync(join(PARITY, `${file}.ts.txt`), 'utf8'));
    }
    await runKustomizeManifests({ dir, quiet: true }, captured());
    const ours = parseDocuments(
      readFileSync(join(dir, 'config/manifests/bases/memcached-operator.clusterserviceversion.yaml'), 'utf8'),
      'tsop',
    )[0];
    const theirs = parseDocuments(readFileSync(join(PARITY, 'operator-sdk-base.yaml'), 'utf8'), 'operator-sdk')[0];
    expect(ours).toEqual(theirs);
    // The overlay and the scorecard configuration come with the first base.
    expect(readFileSync(join(dir, 'config/manifests/kustomization.yaml'), 'utf8')).toContain(
      '- bases/memcached-operator.clusterserviceversion.yaml',
    );
    expect(readFileSync(join(dir, 'config/scorecard/patches/olm.config.yaml'), 'utf8')).toContain(
      'olm-spec-descriptors',
    );
  });

  it('keeps what the user wrote into the base and refreshes only the descriptors', { timeout: 60_000 }, async () => {
    const dir = join(work, 'memcached-operator');
    const basePath = join(dir, 'config/manifests/bases/memcached-operator.clusterserviceversion.yaml');
    const edited = readFileSync(basePath, 'utf8')
      .replace(/^ {2}description: .*$/m, '  description: Runs memcached.')
      .replace(/^ {2}provider:\n {4}name: .*$/m, '  provider:\n    name: Acme')
      .replace(/^spec:$/m, 'spec:\n  minKubeVersion: 1.29.0')
      .replace(/displayName: Size/g, 'displayName: Stale');
    expect(edited).toContain('displayName: Stale');
    writeFileSync(basePath, edited);
    await runKustomizeManifests({ dir, quiet: true }, captured());
    const base = parseDocuments(readFileSync(basePath, 'utf8'), 'tsop')[0] as { spec: Record<string, unknown> };
    expect(base.spec['minKubeVersion']).toBe('1.29.0');
    expect(base.spec['description']).toBe('Runs memcached.');
    expect(base.spec['provider']).toEqual({ name: 'Acme', url: 'https://your.domain' });
    // The descriptors come from the decorators again: the hand edit of one is replaced.
    const theirs = parseDocuments(readFileSync(join(PARITY, 'operator-sdk-base.yaml'), 'utf8'), 'operator-sdk')[0] as {
      spec: Record<string, unknown>;
    };
    expect(base.spec['customresourcedefinitions']).toEqual(theirs.spec['customresourcedefinitions']);
  });
});
