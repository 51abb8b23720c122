/**
 * `tsop import` given what it cannot import, through the built CLI as a user types it: each row
 * exits 1 with exactly one line on stderr naming the input and the rule (no stack trace), nothing
 * on stdout, and the project exactly as it was (a hash of every path, mode and byte).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { treeHash, tsop } from '../cli/run-cli.js';
import { crdYaml } from './crds.js';

const root = mkdtempSync(join(tmpdir(), 'tsop-import-bad-'));
const project = join(root, 'shop');
const inputs = join(root, 'inputs');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const widget = { group: 'shop.example.com', kind: 'Widget', plural: 'widgets' };

beforeAll(async () => {
  mkdirSync(inputs);
  const init = await tsop(root, ['init', '--dir', 'shop', '--domain', 'example.com', '--skip-install']);
  expect(init.code, init.stderr).toBe(0);
  writeFileSync(join(inputs, 'not-yaml.yaml'), 'spec:\n  group: [unclosed\n');
  writeFileSync(join(inputs, 'deployment.yaml'), 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n');
  writeFileSync(join(inputs, 'v1beta1.yaml'), crdYaml({ ...widget, apiVersion: 'apiextensions.k8s.io/v1beta1' }));
  writeFileSync(join(inputs, 'no-schema.yaml'), crdYaml({ ...widget, schema: null }));
  writeFileSync(
    join(inputs, 'other-domain.yaml'),
    crdYaml({ group: 'cert-manager.io', kind: 'Certificate', plural: 'certificates' }),
  );
  writeFileSync(
    join(inputs, 'lossy.yaml'),
    crdYaml({
      ...widget,
      spec: { type: 'object', properties: { mode: { type: 'string', oneOf: [{ pattern: '^a' }, { pattern: '^b' }] } } },
    }),
  );
  writeFileSync(join(inputs, 'empty.yaml'), '');
}, 60_000);

describe('tsop import crd refuses, in one line, with nothing written', () => {
  const rows: Array<[string, string[], RegExp]> = [
    [
      'input that is not YAML',
      ['not-yaml.yaml'],
      /not-yaml\.yaml is not YAML \(line \d+: .*\); pass the YAML of a CustomResourceDefinition$/,
    ],
    [
      'an object that is not a CRD',
      ['deployment.yaml'],
      /deployment\.yaml is not a CustomResourceDefinition \(it holds a Deployment\); pass the YAML of a CRD/,
    ],
    ['an empty file', ['empty.yaml'], /empty\.yaml is not a CustomResourceDefinition \(it is empty\)/],
    [
      'an apiextensions.k8s.io/v1beta1 CRD',
      ['v1beta1.yaml'],
      /CRD widgets\.shop\.example\.com is apiextensions\.k8s\.io\/v1beta1, which Kubernetes removed in 1\.22; convert it to apiextensions\.k8s\.io\/v1/,
    ],
    [
      'a CRD with no schema',
      ['no-schema.yaml'],
      /CRD widgets\.shop\.example\.com version v1 has no schema \(spec\.versions\[0\]\.schema\.openAPIV3Schema\); tsop writes types from the schema/,
    ],
    [
      'a file that does not exist',
      ['missing.yaml'],
      /missing\.yaml: no such file or directory; pass a CRD file, a directory of them, a URL or - for standard input$/,
    ],
    [
      'a CRD of another domain as an own kind',
      ['other-domain.yaml'],
      /certificates\.cert-manager\.io is in the group cert-manager\.io, which is not under the project's domain example\.com; .*--external/,
    ],
    ['--own with --external', ['deployment.yaml', '--own', '--external'], /--own and --external exclude each other/],
  ];
  for (const [what, args, message] of rows) {
    it(what, async () => {
      const before = treeHash(project);
      const r = await tsop(project, ['import', 'crd', ...args.map((a) => (a.endsWith('.yaml') ? join(inputs, a) : a))]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^tsop: import crd: /);
      expect(lines[0]).toMatch(message);
      expect(treeHash(project)).toBe(before);
    });
  }

  it('outside a tsop project (exit 2: cannot run here)', async () => {
    const r = await tsop(inputs, ['import', 'crd', join(inputs, 'lossy.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^tsop: import crd: .* is not a tsop project \(no PROJECT file\); run 'tsop init' first/),
    ]);
  });

  it('a CRD tsop cannot express whole: each loss at its line, exit 1, nothing written unless --allow-lossy', async () => {
    const before = treeHash(project);
    const r = await tsop(project, ['import', 'crd', join(inputs, 'lossy.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'tsop: src/api/v1/widget.ts:27: not expressible: oneOf (no tsop marker writes it) (at .spec.mode of v1)',
      'tsop: import crd: 1 thing of the CRD cannot be said in TypeScript (listed above), so ' +
        "nothing was written; pass --allow-lossy to write the closest TypeScript with a '// tsop: " +
        "not expressible' comment at each",
    ]);
    expect(treeHash(project)).toBe(before);

    const lossy = await tsop(project, ['import', 'crd', join(inputs, 'lossy.yaml'), '--allow-lossy', '--make=false']);
    expect(lossy.code, lossy.stderr).toBe(0);
    expect(lossy.stderr).toContain(
      'tsop: warning: src/api/v1/widget.ts:27: not expressible: oneOf (no tsop marker writes it) (at .spec.mode of v1)',
    );
    const lines = readFileSync(join(project, 'src/api/v1/widget.ts'), 'utf8').split('\n');
    expect(lines[26]).toBe('  // tsop: not expressible: oneOf (no tsop marker writes it)');
    expect(lines[27]).toBe('  mode?: string;');
  });
});
