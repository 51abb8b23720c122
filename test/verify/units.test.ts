/**
 * The pure parts of `--verify`: reading the API server's schema paths, object paths to schema
 * paths, one-line findings, the model with refused decorators left out for the server, and the
 * harness module fitting the interface src/verify loads it through, and the line for a package
 * the harness cannot find.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { formatFinding, sortFindings } from '../../src/verify/finding.js';
import { objectPathToSchemaPath, parseSchemaPath, schemaAt } from '../../src/verify/origins.js';
import { missingPackageMessage, type EnvtestModule } from '../../src/verify/plane.js';
import { generateForServer } from '../../src/verify/prune.js';
import { generateManifests } from '../../src/manifests/generate.js';
import { readApiModel } from '../../src/codegen/reader/index.js';
import { PRELUDE, GROUP_VERSION } from '../codegen/harness.js';

describe('verify helpers', () => {
  it('splits a CRD schema path into version, JSON path and keyword', () => {
    expect(
      parseSchemaPath(
        'spec.validation.openAPIV3Schema.properties[spec].properties[items].x-kubernetes-validations[0].rule',
      ),
    ).toEqual({
      path: '.spec.items',
      rest: 'x-kubernetes-validations[0].rule',
    });
    expect(
      parseSchemaPath('spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[tags].items.pattern'),
    ).toEqual({ version: 1, path: '.spec.tags[*]', rest: 'pattern' });
    expect(parseSchemaPath('spec.validation.openAPIV3Schema')).toEqual({ path: '', rest: '' });
    expect(parseSchemaPath('metadata.name')).toBeUndefined();
  });

  it('maps object paths to schema paths and finds schema nodes', () => {
    expect(objectPathToSchemaPath('spec.items[2].name')).toBe('.spec.items[*].name');
    expect(objectPathToSchemaPath('spec.labels[app]')).toBe('.spec.labels[*]');
    const schema = {
      properties: { spec: { properties: { items: { items: { properties: { name: { type: 'string' } } } } } } },
    };
    expect(schemaAt(schema, '.spec.items[*].name')).toEqual({ type: 'string' });
    expect(schemaAt(schema, '.spec.nope')).toBeUndefined();
  });

  it('prints a finding on one line, the decorator after it; sorts and drops duplicates', () => {
    const f = {
      severity: 'error' as const,
      pos: { file: 'b.yaml', line: 3 },
      message: 'compilation failed\n | self.x >\n | ..^',
      rule: { file: 'src/a.ts', line: 7, marker: 'XValidation' },
    };
    expect(formatFinding(f)).toBe('b.yaml:3: compilation failed (from src/a.ts:7 @XValidation)');
    const a = { severity: 'error' as const, pos: { file: 'a.ts', line: 9 }, message: 'x' };
    expect(sortFindings([f, a, f, { ...a, pos: { file: 'a.ts', line: 2 } }]).map(formatFinding)).toEqual([
      'a.ts:2: x',
      'a.ts:9: x',
      formatFinding(f),
    ]);
  });

  it('leaves out the decorators the generator refused, so the server sees the rest of the CRD', () => {
    const model = readApiModel({
      'src/api/v1/groupversion.ts': GROUP_VERSION,
      'src/api/v1/t.ts': `${PRELUDE}\nexport class TSpec {\n  @Pattern('^(?=a)') @MaxLength(5) name?: string;\n  @Minimum(1) size?: int32;\n}\n@Resource()\nexport class T { spec?: TSpec; }\n`,
    });
    const generate = (m: typeof model) => generateManifests(m, { tsopVersion: '0.0.0-test' });
    expect(generate(model).errors).toHaveLength(1);
    const pruned = generateForServer(model, generate);
    expect(pruned.skipped).toEqual([]);
    const crd = pruned.files['crd/bases/test.example.com_ts.yaml'] ?? '';
    expect(crd).toContain('maxLength: 5');
    expect(crd).toContain('minimum: 1');
    expect(crd).not.toContain('pattern:');
    // The caller's model is untouched.
    expect(generate(model).errors).toHaveLength(1);
  });

  it('leaves out a field whose type the generator refused, and keeps the rest', () => {
    const model = readApiModel({
      'src/api/v1/groupversion.ts': GROUP_VERSION,
      'src/api/v1/t.ts': `${PRELUDE}\nexport class TSpec {\n  odd?: string | number;\n  @Minimum(1) size?: int32;\n}\n@Resource()\nexport class T { spec?: TSpec; }\n`,
    });
    const generate = (m: typeof model) => generateManifests(m, { tsopVersion: '0.0.0-test' });
    expect(generate(model).errors.map((e) => e.message)).toEqual([expect.stringMatching(/TSpec\.odd/)]);
    const crd = generateForServer(model, generate).files['crd/bases/test.example.com_ts.yaml'] ?? '';
    expect(crd).toContain('size:');
    expect(crd).not.toContain('odd:');
  });

  it('the harness module fits the interface the CLI loads it through', () => {
    expectTypeOf<typeof import('../../runtime/envtest/index.js')>().toMatchTypeOf<EnvtestModule>();
  });

  it('a package the harness cannot find: npm install when the project lists it, npm i -D when not', () => {
    const root = mkdtempSync(join(tmpdir(), 'tsop-verify-units-'));
    try {
      const pkg = '@kubernetes/client-node';
      writeFileSync(join(root, 'package.json'), JSON.stringify({ dependencies: { [pkg]: '~1.4.0' } }));
      expect(missingPackageMessage('--verify', root, pkg)).toBe(
        `--verify: ${root} has no node_modules yet (the control-plane harness needs ${pkg}); run 'npm install' there first`,
      );
      mkdirSync(join(root, 'node_modules'));
      expect(missingPackageMessage('dev', root, pkg)).toBe(
        `dev: ${pkg} is not installed in ${root} (the control-plane harness needs ${pkg}); run 'npm install' there first`,
      );
      writeFileSync(join(root, 'package.json'), JSON.stringify({ devDependencies: {} }));
      expect(missingPackageMessage('--verify', root, pkg)).toBe(
        `--verify: the control-plane harness needs ${pkg}, which ${root} does not list; run 'npm i -D ${pkg}' there`,
      );
      rmSync(join(root, 'package.json'));
      expect(missingPackageMessage('--verify', root, pkg)).toMatch(/run 'npm i -D @kubernetes\/client-node' there$/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
