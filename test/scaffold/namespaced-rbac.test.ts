/**
 * The @Rbac namespace rewriter on its own: which decorators it finds (not the ones in comments,
 * strings or regular expressions), the layouts it writes, that removing undoes adding byte for
 * byte, and what it refuses to guess.
 */
import { describe, expect, it } from 'vitest';
import { builtinClusterScoped, clusterScopedIn } from '../../src/project/cluster-scope.js';
import { LAYOUT, type ProjectConfig } from '../../src/project/config.js';
import { rewriteRbacNamespace } from '../../src/plugins/base/namespaced-rbac.js';

const NS = 'p-system';
const add = (text: string) => rewriteRbacNamespace(text, NS, 'add');
const remove = (text: string) => rewriteRbacNamespace(text, NS, 'remove');

describe('rewriteRbacNamespace', () => {
  it.each([
    [
      'one line',
      "@Rbac({ groups: ['a'], verbs: ['get'] })",
      "@Rbac({ groups: ['a'], verbs: ['get'], namespace: 'p-system' })",
    ],
    ['one line, trailing comma', "@Rbac({ verbs: ['get'], })", "@Rbac({ verbs: ['get'], namespace: 'p-system', })"],
    ['double quotes', '@Rbac({ verbs: ["get"] })', '@Rbac({ verbs: ["get"], namespace: "p-system" })'],
    [
      'trailing comma after the object',
      "@Rbac({ verbs: ['get'] }, )",
      "@Rbac({ verbs: ['get'], namespace: 'p-system' }, )",
    ],
    [
      'several lines, trailing comma',
      "@Rbac({\n  groups: ['apps'], // deployments\n  resources: ['deployments'],\n  verbs: [`get${'x'}`, 'list'],\n})",
      "@Rbac({\n  groups: ['apps'], // deployments\n  resources: ['deployments'],\n  verbs: [`get${'x'}`, 'list'],\n  namespace: 'p-system',\n})",
    ],
    [
      'several lines, no trailing comma, a comment after the last property',
      "  @Rbac({\n    groups: ['apps'],\n    verbs: ['get'] // read only\n  })",
      "  @Rbac({\n    groups: ['apps'],\n    verbs: ['get'], // read only\n    namespace: 'p-system'\n  })",
    ],
    [
      'nested brackets, braces and strings with brackets in values',
      "@Rbac({ groups: [('a' + '}')], resources: [{ x: '{' }.x, `)${[1, 2].join(',')}`, `${`}`}'`], verbs: ['get'] as const })",
      "@Rbac({ groups: [('a' + '}')], resources: [{ x: '{' }.x, `)${[1, 2].join(',')}`, `${`}`}'`], verbs: ['get'] as const, namespace: 'p-system' })",
    ],
  ])('adds the namespace as the last property: %s, and removing it restores the text', (_, before, after) => {
    const added = add(before);
    expect(added).toEqual({ text: after, rewritten: 1, skipped: [], clusterWide: [] });
    expect(remove(added.text)).toEqual({ text: before, rewritten: 1, skipped: [], clusterWide: [] });
  });

  it('rewrites every decorator of a file and nothing in comments, strings or regular expressions', () => {
    const text = [
      '/** The @Rbac({ verbs: [] }) decorators are the permissions it needs. */',
      'const re = /@Rbac\\({ verbs }/g; const s = "@Rbac({ verbs: [\'x\'] })"; const t = `@Rbac({ ${s} })`;',
      '// @Rbac({ verbs: [] })',
      "@Rbac({ groups: ['a'], resources: ['b'], verbs: ['get'] })",
      "@Rbac({ groups: ['a'], resources: ['b/status'], verbs: ['get'] })",
      'export class R {}',
      '',
    ].join('\n');
    const added = add(text);
    expect(added.rewritten).toBe(2);
    expect(added.skipped).toEqual([]);
    expect(added.text).toBe(
      text
        .replace("verbs: ['get'] })\n@Rbac", "verbs: ['get'], namespace: 'p-system' })\n@Rbac")
        .replace("verbs: ['get'] })\nexport", "verbs: ['get'], namespace: 'p-system' })\nexport"),
    );
    expect(remove(added.text).text).toBe(text);
  });

  it('keeps another namespace, and leaves non-resource urls to the ClusterRole', () => {
    const text = "@Rbac({ verbs: ['get'], namespace: 'other' })\n@Rbac({ urls: ['/metrics'], verbs: ['get'] })\n";
    expect(add(text)).toEqual({ text, rewritten: 0, skipped: [], clusterWide: [] });
    expect(remove(text)).toEqual({ text, rewritten: 0, skipped: [], clusterWide: [] });
  });

  it('removes the namespace wherever it stands', () => {
    expect(remove("@Rbac({ namespace: 'p-system', verbs: ['get'] })").text).toBe("@Rbac({ verbs: ['get'] })");
    expect(remove("@Rbac({\n  namespace: 'p-system',\n  verbs: ['get'],\n})").text).toBe(
      "@Rbac({\n  verbs: ['get'],\n})",
    );
    expect(remove("@Rbac({ verbs: ['get'], namespace: \"p-system\", resources: ['x'] })").text).toBe(
      "@Rbac({ verbs: ['get'], resources: ['x'] })",
    );
  });

  it('reports, by line, what it does not understand and leaves it as it is', () => {
    const text = [
      "@Rbac({ ...base, verbs: ['get'] })",
      '@Rbac(rule)',
      "@Rbac({ [key]: ['get'] })",
      "@Rbac({ verbs: ['get'], namespace: NS })",
      "@Rbac({ verbs: ['get'], namespace: 'p-system', namespace: 'q' })",
      '',
    ].join('\n');
    expect(add(text)).toEqual({
      text,
      rewritten: 0,
      skipped: [
        '1: its object literal has a spread (...), which may hold a namespace',
        '2: @Rbac is not called with an object literal',
        "3: its object literal has a property tsop does not understand at '['",
        '5: namespace is given more than once',
      ],
      clusterWide: [],
    });
    expect(remove(text).skipped).toEqual([
      '1: its object literal has a spread (...), which may hold a namespace',
      '2: @Rbac is not called with an object literal',
      "3: its object literal has a property tsop does not understand at '['",
      "4: namespace is not a string literal, so tsop cannot tell whether it is 'p-system'",
      '5: namespace is given more than once',
    ]);
    expect(remove(text).text).toBe(text);
  });

  it('ignores other decorators whose names start with Rbac', () => {
    const text = "@RbacRule({ verbs: ['get'] })\nclass A {}\n";
    expect(add(text)).toEqual({ text, rewritten: 0, skipped: [], clusterWide: [] });
  });

  describe('cluster-scoped resources (a Role cannot grant them)', () => {
    const config: ProjectConfig = {
      version: '3',
      domain: 'example.com',
      layout: [LAYOUT],
      projectName: 'p',
      repo: 'p',
      plugins: {},
      resources: [
        {
          group: 'infra',
          domain: 'example.com',
          version: 'v1',
          kind: 'Fleet',
          plural: 'fleets',
          api: { crdVersion: 'v1' as const, namespaced: false },
          controller: true,
        },
        {
          group: 'infra',
          domain: 'example.com',
          version: 'v1',
          kind: 'Ship',
          api: { crdVersion: 'v1' as const, namespaced: true },
          controller: true,
        },
      ],
    };
    const scoped = clusterScopedIn(config);
    const addScoped = (text: string) => rewriteRbacNamespace(text, NS, 'add', scoped);

    it("knows the built-in table (from discovery) and the project's own kinds with their subresources", () => {
      expect(builtinClusterScoped('core', 'nodes')).toBe(true);
      expect(builtinClusterScoped('', 'persistentvolumes')).toBe(true);
      expect(builtinClusterScoped('apiextensions.k8s.io', 'customresourcedefinitions')).toBe(true);
      expect(builtinClusterScoped('rbac.authorization.k8s.io', 'clusterroles')).toBe(true);
      expect(builtinClusterScoped('', 'pods')).toBe(false);
      expect(builtinClusterScoped('apps', 'nodes')).toBe(false);
      expect(scoped('infra.example.com', 'fleets')).toBe(true);
      expect(scoped('infra.example.com', 'fleets/status')).toBe(true);
      expect(scoped('infra.example.com', 'fleets/finalizers')).toBe(true);
      expect(scoped('infra.example.com', 'ships')).toBe(false);
      expect(scoped('other.example.com', 'fleets')).toBe(false);
    });

    it('leaves a decorator of cluster-scoped resources without a namespace and reports them', () => {
      const text = [
        "@Rbac({ groups: ['infra.example.com'], resources: ['fleets'], verbs: ['get', 'list', 'watch'] })",
        "@Rbac({ groups: ['infra.example.com'], resources: ['fleets/status'], verbs: ['get', 'update', 'patch'] })",
        "@Rbac({ groups: ['core'], resources: ['nodes', 'namespaces'], verbs: ['get'] })",
        "@Rbac({ groups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get'] })",
        "@Rbac({ groups: ['infra.example.com'], resources: ['ships'], verbs: ['get'] })",
        '',
      ].join('\n');
      const result = addScoped(text);
      expect(result.text.split('\n')).toEqual([
        ...text.split('\n').slice(0, 4),
        "@Rbac({ groups: ['infra.example.com'], resources: ['ships'], verbs: ['get'], namespace: 'p-system' })",
        '',
      ]);
      expect(result.rewritten).toBe(1);
      expect(result.clusterWide).toEqual([
        'fleets',
        'fleets/status',
        'nodes',
        'namespaces',
        'customresourcedefinitions',
      ]);
      expect(rewriteRbacNamespace(result.text, NS, 'remove', scoped).text).toBe(text);
    });

    it('splits a decorator naming both: the namespaced resources get a decorator of their own with the namespace', () => {
      const oneLine =
        "  @Rbac({ groups: [''], resources: ['pods', 'nodes', 'configmaps', 'persistentvolumes'], verbs: ['get', 'list'] })\n";
      expect(addScoped(oneLine)).toEqual({
        text:
          "  @Rbac({ groups: [''], resources: ['pods', 'configmaps'], verbs: ['get', 'list'], " +
          "namespace: 'p-system' })\n  @Rbac({ groups: [''], resources: ['nodes', " +
          "'persistentvolumes'], verbs: ['get', 'list'] })\n",
        rewritten: 1,
        skipped: [],
        clusterWide: ['nodes', 'persistentvolumes'],
      });
      const multiLine = '@Rbac({\n  groups: ["core"],\n  resources: ["nodes", "events"],\n  verbs: ["create"],\n})\n';
      expect(addScoped(multiLine).text).toBe(
        '@Rbac({\n  groups: ["core"],\n  resources: ["events"],\n  verbs: ["create"],\n  namespace: "p-system",\n})\n@Rbac({\n  groups: ["core"],\n  resources: ["nodes"],\n  verbs: ["create"],\n})\n',
      );
    });

    it('treats a list it cannot read (a variable, a spread) as namespaced, as before', () => {
      const text = "@Rbac({ groups: [''], resources: ['nodes', POD], verbs: ['get'] })\n";
      expect(addScoped(text).rewritten).toBe(1);
      const spread = "@Rbac({ groups: [''], resources: [...list], verbs: ['get'] })\n";
      expect(addScoped(spread).text).toContain("namespace: 'p-system'");
    });
  });
});
