/** Golden tests of kind-level markers and CRD assembly (names, scope, versions, columns, …). */
import { describe, expect, it } from 'vitest';
import { GROUP_VERSION, PRELUDE, crds, run } from '../codegen/harness.js';

const kind = (
  decorators: string,
  body = 'spec?: { a?: string }; status?: { ready?: boolean };',
  name = 'Widget',
): Record<string, string> => ({
  'src/api/v1/groupversion.ts': GROUP_VERSION,
  'src/api/v1/k.ts': `${PRELUDE}\n${decorators}\nexport class ${name} { ${body} }\n`,
});

const only = (files: Record<string, string>): Record<string, any> => {
  const result = run(files);
  expect(result.errors.map((e) => e.message)).toEqual([]);
  const all = Object.values(crds(result));
  expect(all).toHaveLength(1);
  return all[0] as Record<string, any>;
};

const errorsOf = (files: Record<string, string>): string[] => run(files).errors.map((e) => e.message);

describe('names and scope', () => {
  it('defaults: controller-gen plural, lower-case singular, List kind, Namespaced, version annotation', () => {
    const crd = only(kind('@Resource()', undefined, 'Policy'));
    expect(crd['metadata']).toEqual({
      name: 'policies.test.example.com',
      annotations: { 'tsop.dev/version': 'v0.0.0-test' },
    });
    expect(crd['spec'].names).toEqual({
      kind: 'Policy',
      listKind: 'PolicyList',
      plural: 'policies',
      singular: 'policy',
    });
    expect(crd['spec'].scope).toBe('Namespaced');
  });
  it('@Resource options', () => {
    const crd = only(
      kind(
        "@Resource({ scope: 'Cluster', plural: 'widgetry', singular: 'wdg', shortNames: ['wd'], categories: ['all', 'toys'] })",
      ),
    );
    expect(crd['spec'].scope).toBe('Cluster');
    expect(crd['spec'].names).toEqual({
      kind: 'Widget',
      listKind: 'WidgetList',
      plural: 'widgetry',
      singular: 'wdg',
      shortNames: ['wd'],
      categories: ['all', 'toys'],
    });
    expect(crd['metadata'].name).toBe('widgetry.test.example.com');
  });
  it('names must be DNS labels; unknown options are named', () => {
    expect(errorsOf(kind("@Resource({ plural: 'Widgets' })"))).toEqual([
      "src/api/v1/k.ts:6: Widget: @Resource: 'Widgets' is not a DNS-1035 label (at most 63 of a-z, 0-9 and '-', starting with a letter)",
    ]);
    // A kind written by hand (not through create api) whose controller-gen plural is too long for the API server.
    const long = `Frigate${'x'.repeat(56)}`;
    expect(errorsOf(kind('@Resource()', undefined, long))).toEqual([
      `src/api/v1/k.ts:6: ${long}: the derived plural '${long.toLowerCase()}es' is not a DNS-1035 label, which the API server requires; name one with @Resource({ plural: '…' })`,
    ]);
    expect(errorsOf(kind("@Resource({ plural: 'frigates' })", undefined, long))).toEqual([]);
    expect(errorsOf(kind("@Resource({ scoped: 'Cluster' })"))[0]).toContain(
      "unknown option 'scoped'; known: scope, plural, singular, shortNames, categories",
    );
  });
  it('the root schema: standard apiVersion/kind/metadata, the class doc, declared fields', () => {
    const crd = only(
      kind('/** A widget. */\n@Resource()', 'metadata?: ObjectMeta; apiVersion?: string; spec!: { a?: string };'),
    );
    const root = crd['spec'].versions[0].schema.openAPIV3Schema;
    expect(Object.keys(root.properties)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(root.properties.metadata).toEqual({ type: 'object' });
    expect(root.properties.apiVersion.description).toMatch(/^APIVersion defines the versioned schema/);
    expect(root.description).toBe('A widget.');
    expect(root.required).toEqual(['spec']);
    expect(root.type).toBe('object');
  });
});

describe('subresources, columns, selectable fields, metadata', () => {
  it('@SubresourceStatus and @SubresourceScale', () => {
    const v = only(
      kind(
        "@Resource() @SubresourceStatus() @SubresourceScale({ specPath: '.spec.replicas', statusPath: '.status.replicas', selectorPath: '.status.selector' })",
      ),
    )['spec'].versions[0];
    expect(v.subresources).toEqual({
      status: {},
      scale: {
        specReplicasPath: '.spec.replicas',
        statusReplicasPath: '.status.replicas',
        labelSelectorPath: '.status.selector',
      },
    });
  });
  it('scale paths are errors; a status subresource without a status field is written, as controller-gen does, with a warning', () => {
    expect(errorsOf(kind("@Resource() @SubresourceScale({ specPath: '.replicas', statusPath: '.status.r' })"))).toEqual(
      ["src/api/v1/k.ts:6: Widget: @SubresourceScale: specPath '.replicas' must start with .spec."],
    );
    const noStatus = run(kind('@Resource() @SubresourceStatus()', 'spec?: { a?: string };'));
    expect(errorsOf(kind('@Resource() @SubresourceStatus()', 'spec?: { a?: string };'))).toEqual([]);
    expect(noStatus.warnings).toEqual([
      'src/api/v1/k.ts:6: Widget: @SubresourceStatus: the kind has no status field, so the status subresource holds nothing; declare one (status?: <Kind>Status) or remove the marker',
    ]);
  });
  it('@PrintColumn, in order, with every option', () => {
    const v = only(
      kind(
        "@Resource()\n@PrintColumn({ name: 'A', type: 'string', jsonPath: '.spec.a' " +
          "})\n@PrintColumn({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', " +
          "description: 'age', format: 'date-time', priority: 1 })",
      ),
    )['spec'].versions[0];
    expect(v.additionalPrinterColumns).toEqual([
      { name: 'A', type: 'string', jsonPath: '.spec.a' },
      {
        name: 'Age',
        type: 'date',
        jsonPath: '.metadata.creationTimestamp',
        description: 'age',
        format: 'date-time',
        priority: 1,
      },
    ]);
    expect(errorsOf(kind("@Resource() @PrintColumn({ name: 'A', type: 'text', jsonPath: '.spec.a' })"))[0]).toContain(
      "option 'type' must be 'integer' | 'number' | 'string' | 'boolean' | 'date', got \"text\"",
    );
  });
  it('@SelectableField must name a scalar field', () => {
    expect(
      only(kind("@Resource() @SelectableField({ jsonPath: '.spec.a' })"))['spec'].versions[0].selectableFields,
    ).toEqual([{ jsonPath: '.spec.a' }]);
    expect(errorsOf(kind("@Resource() @SelectableField({ jsonPath: '.spec.b' })"))).toEqual([
      'src/api/v1/k.ts:6: @SelectableField: .spec.b is not a field of the schema',
    ]);
    expect(errorsOf(kind("@Resource() @SelectableField({ jsonPath: '.metadata.name' })"))[0]).toContain(
      "must start with '.' and not be under .metadata",
    );
  });
  it('@Metadata labels and annotations on the CRD; protected groups need api-approved', () => {
    const crd = only(kind("@Resource() @Metadata({ labels: { team: 'a' }, annotations: { note: 'x' } })"));
    expect(crd['metadata'].labels).toEqual({ team: 'a' });
    expect(crd['metadata'].annotations).toEqual({ note: 'x', 'tsop.dev/version': 'v0.0.0-test' });
    const files = {
      ...kind('@Resource()'),
      'src/api/v1/groupversion.ts': "export const groupVersion = { group: 'widgets.k8s.io', version: 'v1' };",
    };
    expect(errorsOf(files)[0]).toContain('Widget: group widgets.k8s.io is protected; add @Metadata');
  });
});

describe('versions', () => {
  const twoVersions = (v1: string, v2: string): Record<string, string> => ({
    'src/api/v1/groupversion.ts': GROUP_VERSION,
    'src/api/v2/groupversion.ts': "export const groupVersion = { group: 'test.example.com', version: 'v2' };",
    'src/api/v1/k.ts': `${PRELUDE}\n${v1}\nexport class Widget { spec?: { a?: string } }`,
    'src/api/v2/k.ts': `${PRELUDE}\n${v2}\nexport class Widget { spec?: { b?: int32 } }`,
  });
  it('one CRD with sorted versions, one storage version, served and deprecation flags', () => {
    const crd = only(
      twoVersions("@Resource() @DeprecatedVersion({ warning: 'use v2' })", '@Resource() @StorageVersion()'),
    );
    expect(
      crd['spec'].versions.map((v: any) => [v.name, v.served, v.storage, v.deprecated, v.deprecationWarning]),
    ).toEqual([
      ['v1', true, false, true, 'use v2'],
      ['v2', true, true, undefined, undefined],
    ]);
    const unserved = only(twoVersions('@Resource() @Unserved()', '@Resource() @StorageVersion()'));
    expect(unserved['spec'].versions[0].served).toBe(false);
  });
  it('exactly one storage version is required', () => {
    expect(errorsOf(twoVersions('@Resource()', '@Resource()'))).toEqual([
      'src/api/v1/k.ts:6: Widget has versions v1, v2 and none marked @StorageVersion(); mark exactly one',
    ]);
    expect(errorsOf(twoVersions('@Resource() @StorageVersion()', '@Resource() @StorageVersion()'))[0]).toContain(
      'and 2 marked @StorageVersion()',
    );
  });
  it('names and scope must agree across versions', () => {
    expect(errorsOf(twoVersions("@Resource({ scope: 'Cluster' }) @StorageVersion()", '@Resource()'))).toEqual([]);
    expect(
      errorsOf(twoVersions("@Resource({ scope: 'Cluster' }) @StorageVersion()", "@Resource({ scope: 'Namespaced' })")),
    ).toEqual([
      'src/api/v2/k.ts:6: Widget: @Resource scope "Namespaced" differs from another version\'s "Cluster"; versions of a kind share names and scope',
    ]);
  });
  it('two kinds of one group with the same plural are an error', () => {
    const files = {
      ...kind("@Resource({ plural: 'things' })"),
      'src/api/v1/g.ts': `${PRELUDE}\n@Resource({ plural: 'things' })\nexport class Gadget { spec?: { a?: string } }`,
    };
    expect(errorsOf(files)).toEqual([
      "src/api/v1/k.ts:6: Widget: plural 'things' of test.example.com is also Gadget's; give one of them another plural with @Resource({ plural })",
    ]);
  });
  it('several groups give several files named <group>_<plural>.yaml', () => {
    const files = {
      ...kind('@Resource()'),
      'src/api/other/v1/groupversion.ts': "export const groupVersion = { group: 'other.example.com', version: 'v1' };",
      'src/api/other/v1/k.ts': `${PRELUDE}\n@Resource()\nexport class Widget { spec?: { a?: string } }`,
    };
    expect(Object.keys(run(files).files).sort()).toEqual([
      'crd/bases/other.example.com_widgets.yaml',
      'crd/bases/test.example.com_widgets.yaml',
    ]);
  });
});

describe('descriptions', () => {
  const described = `/**
 * First sentence. Second sentence is longer.
 * TODO: not in the CRD.
 * Last line.
 * ---
 * Hidden.
 */
@Resource()`;
  it('TODO lines and everything after --- are dropped; line breaks kept', () => {
    const crd = only(kind(described));
    expect(crd['spec'].versions[0].schema.openAPIV3Schema.description).toBe(
      'First sentence. Second sentence is longer.\nLast line.',
    );
  });
  it('--max-desc-len cuts at a sentence end, else at a word with ...; 0 removes descriptions', () => {
    const desc = (n: number): unknown => {
      const r = run(kind(described), { maxDescLen: n });
      return (Object.values(crds(r))[0] as any).spec.versions[0].schema.openAPIV3Schema.description;
    };
    expect(desc(30)).toBe('First sentence.');
    expect(desc(12)).toBe('First...');
    expect(desc(0)).toBeUndefined();
    const r = run(kind(described), { maxDescLen: 0 });
    expect(Object.values(r.files)[0]).not.toContain('description:');
  });
  it('warns when a CRD exceeds the 262144-byte last-applied annotation limit', () => {
    const big = run(kind('@Resource()', 'spec?: { t: V1PodTemplateSpec; u: V1PodTemplateSpec };'));
    expect(big.warnings).toHaveLength(1);
    expect(big.warnings[0]).toMatch(
      /^crd\/bases\/test\.example\.com_widgets\.yaml: the CRD is \d+ bytes as JSON, over the 262144-byte limit of client-side 'kubectl apply'/,
    );
    expect(
      run(kind('@Resource()', 'spec?: { t: V1PodTemplateSpec; u: V1PodTemplateSpec };'), { maxDescLen: 0 }).warnings,
    ).toEqual([]);
  });
});

describe('output', () => {
  it('is byte-identical across runs and keys are sorted', () => {
    const files = kind(
      "@Resource({ shortNames: ['w'] }) @SubresourceStatus()",
      'spec?: { zeta?: string; alpha: int32 }; status?: { b?: string; a?: string };',
    );
    expect(run(files).errors).toEqual([]);
    const a = run(files).files;
    const b = run(Object.fromEntries(Object.entries(files).reverse())).files;
    expect(a).toEqual(b);
    const text = Object.values(a)[0] ?? '';
    expect(
      text.startsWith('---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n'),
    ).toBe(true);
    expect(text.indexOf('alpha:')).toBeLessThan(text.indexOf('zeta:'));
  });
  it('nothing is produced when any error is found', () => {
    const files = {
      ...kind('@Resource()'),
      'src/api/v1/bad.ts': `${PRELUDE}\n@Resource() export class Bad { spec?: { x: any } }`,
    };
    const r = run(files);
    expect(r.errors).toHaveLength(1);
    expect(r.files).toEqual({});
  });
  it('RBAC from @Rbac on controllers goes to rbac/role.yaml; bad rules are located', () => {
    const files = {
      ...kind('@Resource()'),
      'src/controllers/c.ts':
        "@Rbac({ groups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] })\n@Rbac({ groups: ['apps'], resources: ['deployments'], verbs: ['watch'] })\nexport class C {}",
    };
    expect(run(files).files['rbac/role.yaml']).toBe(
      '---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: ' +
        'manager-role\nrules:\n- apiGroups:\n  - apps\n  resources:\n  - deployments\n  verbs:\n  ' +
        '- get\n  - list\n  - watch\n',
    );
    const bad = {
      ...kind('@Resource()'),
      'src/controllers/c.ts': "\n@Rbac({ resources: ['pods'], urls: ['/x'], verbs: ['get'] })\nexport class C {}",
    };
    expect(errorsOf(bad)).toEqual([
      'src/controllers/c.ts:2: C: @Rbac: give either resources (with groups) or urls, not both and not neither',
    ]);
  });
});

describe('source problems', () => {
  it('syntax errors are reported at their line', () => {
    expect(errorsOf(kind('@Resource()', 'spec?: { alpha!: int32 };'))).toEqual([
      'src/api/v1/k.ts:7: syntax error: Property or signature expected.',
    ]);
  });
});

describe('warnings', () => {
  it('defaults inside an optional object without a default of its own', () => {
    const files: Record<string, string> = {
      ...kind('@Resource()'),
      'src/api/v1/t.ts': `${PRELUDE}\nexport class Tuning { @Default(5) level?: int32; }`,
    };
    files['src/api/v1/k.ts'] =
      `${PRELUDE}\nimport { Tuning } from './t.js';\nclass S { a?: Tuning; @Default({}) b?: Tuning; c!: Tuning; }\n@Resource()\nexport class Widget { spec?: S; }\n`;
    const r = run(files);
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([
      "src/api/v1/k.ts:7: Widget .spec.a: the defaults of level apply only when .spec.a is present; add @Default({}) to 'a' to apply them always, or @DefaultsWhenPresent() if that is intended",
    ]);
  });

  it('not where @DefaultsWhenPresent says the object is meant to be optional, and the schema is the same', () => {
    const files: Record<string, string> = {
      ...kind('@Resource()'),
      'src/api/v1/t.ts': `${PRELUDE}\nexport class Tuning { @Default(5) level?: int32; }`,
    };
    const widget = (a: string): string =>
      `${PRELUDE}\nimport { Tuning } from './t.js';\nclass S { ${a} a?: Tuning; b?: Tuning; }\n@Resource()\nexport class Widget { spec?: S; }\n`;
    const quiet = run({ ...files, 'src/api/v1/k.ts': widget('@DefaultsWhenPresent()') });
    expect(quiet.errors).toEqual([]);
    expect(quiet.warnings).toEqual([
      "src/api/v1/k.ts:7: Widget .spec.b: the defaults of level apply only when .spec.b is present; add @Default({}) to 'b' to apply them always, or @DefaultsWhenPresent() if that is intended",
    ]);
    expect(quiet.files).toEqual(run({ ...files, 'src/api/v1/k.ts': widget('') }).files);
  });

  it('@DefaultsWhenPresent where it has no effect is said so, with file:line', () => {
    const r = run({
      ...kind('@Resource()'),
      'src/api/v1/k.ts': `${PRELUDE}\nclass S { @DefaultsWhenPresent() a?: { level?: int32 }; }\n@Resource()\nexport class Widget { spec?: S; }\n`,
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([
      'src/api/v1/k.ts:6: Widget .spec.a: @DefaultsWhenPresent has no effect: the field is required, has a default, or has no defaults under it; remove it',
    ]);
  });
});
