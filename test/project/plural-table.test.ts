/**
 * The CRD plural against controller-gen itself: every row of test/fixtures/plurals.tsv (kinds and
 * the plurals the real controller-gen v0.21.0 wrote for them; the file's header says how it was
 * made) must come out of `pluralOfKind` unchanged. And every plural tsop derives is one the API
 * server accepts, or `create api` refuses the kind while planning, before anything is written.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pluralOfKind } from '../../src/project/plural.js';
import { isDns1035Label } from '../../src/project/naming.js';
import { scaffoldApi } from '../../src/plugins/base/create-api.js';
import { LAYOUT, type ProjectConfig } from '../../src/project/config.js';
import { Tree } from '../../src/scaffold/tree.js';

const ROWS = readFileSync(new URL('../fixtures/plurals.tsv', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l !== '' && !l.startsWith('#'))
  .map((l) => l.split('\t') as [string, string]);

describe('CRD plural = controller-gen v0.21.0 (test/fixtures/plurals.tsv)', () => {
  it('has at least 250 kinds, each once', () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(250);
    expect(new Set(ROWS.map(([k]) => k)).size).toBe(ROWS.length);
  });

  it('matches every row', () => {
    const wrong = ROWS.filter(([kind, plural]) => pluralOfKind(kind) !== plural).map(
      ([kind, plural]) => `${kind}: controller-gen ${plural}, tsop ${pluralOfKind(kind)}`,
    );
    expect(wrong).toEqual([]);
  });

  it.each([
    ['ExternalDNS', 'externaldnses'],
    ['X', 'xs'],
    ['RDS', 'rdses'],
    ['DNSPolicy', 'dnspolicies'],
    ['Dns', 'dnsdnses'],
  ])('%s → %s (the cases where lower-casing first would differ)', (kind, plural) => {
    expect(pluralOfKind(kind)).toBe(plural);
    expect(ROWS).toContainEqual([kind, plural]);
  });

  it('derives a DNS-1035 label for every kind of the table', () => {
    expect(ROWS.filter(([kind]) => !isDns1035Label(pluralOfKind(kind)))).toEqual([]);
  });
});

describe('create api and the derived plural', () => {
  const config: ProjectConfig = {
    version: '3',
    domain: 'example.com',
    layout: [LAYOUT],
    projectName: 'p',
    repo: 'p',
    resources: [],
    plugins: {},
  };
  const empty = { read: () => undefined };
  const options = { group: 'ship', version: 'v1', resource: true, controller: true, namespaced: true, force: false };

  it('uses the CRD plural for the CRD file, the sample and the scaffolded @Rbac', () => {
    const tree = new Tree({
      read: (p) =>
        p.endsWith('.yaml') || p === 'src/main.ts'
          ? '# +kubebuilder:scaffold:crdkustomizeresource\n# ' +
            '+kubebuilder:scaffold:manifestskustomizesamples\n# +kubebuilder:scaffold:rbac-roles\n// ' +
            '+kubebuilder:scaffold:imports\n// +kubebuilder:scaffold:builder\n#- ../crd\n'
          : undefined,
    });
    scaffoldApi(tree, config, { ...options, kind: 'ExternalDNS' });
    const controller = tree.listChanges().find((c) => c.path.endsWith('-controller.ts'));
    expect(controller?.content).toContain("resources: ['externaldnses']");
    expect(tree.read('config/crd/kustomization.yaml')).toContain('bases/ship.example.com_externaldnses.yaml');
  });

  it('refuses a kind whose plural is not a DNS-1035 label, before planning anything, and names --plural', () => {
    const kind = `Frigate${'x'.repeat(56)}`; // 63 characters: a valid kind, but its plural has 65
    const tree = new Tree(empty);
    expect(() => scaffoldApi(tree, config, { ...options, kind })).toThrow(
      `--kind: '${kind}' derives the CRD plural '${kind.toLowerCase()}es', which is not a ` +
        `DNS-1035 label (at most 63 lower-case letters, digits and '-', starting with a letter and ` +
        `ending with a letter or digit); pass --plural with the plural to use`,
    );
    expect(tree.listChanges()).toEqual([]);
  });

  it('accepts that kind with an explicit --plural', () => {
    const kind = `Frigate${'x'.repeat(56)}`;
    const tree = new Tree({ read: (p) => (p.endsWith('.yaml') || p === 'src/main.ts' ? '' : undefined) });
    expect(() => scaffoldApi(tree, config, { ...options, kind, plural: 'frigates' })).not.toThrow();
  });
});
