/**
 * The @Rbac namespace rewriter on its own: which decorators it finds (not the ones in comments,
 * strings or regular expressions), the layouts it writes, that removing undoes adding byte for
 * byte, and what it refuses to guess.
 */
import { describe, expect, it } from 'vitest';
import { rewriteRbacNamespace } from '../../src/plugins/rbac-namespace.js';

const NS = 'p-system';
const add = (text: string) => rewriteRbacNamespace(text, NS, 'add');
const remove = (text: string) => rewriteRbacNamespace(text, NS, 'remove');

describe('rewriteRbacNamespace', () => {
  it.each([
    ['one line', "@Rbac({ groups: ['a'], verbs: ['get'] })", "@Rbac({ groups: ['a'], verbs: ['get'], namespace: 'p-system' })"],
    ['one line, trailing comma', "@Rbac({ verbs: ['get'], })", "@Rbac({ verbs: ['get'], namespace: 'p-system', })"],
    ['double quotes', '@Rbac({ verbs: ["get"] })', '@Rbac({ verbs: ["get"], namespace: "p-system" })'],
    ['trailing comma after the object', "@Rbac({ verbs: ['get'] }, )", "@Rbac({ verbs: ['get'], namespace: 'p-system' }, )"],
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
    expect(added).toEqual({ text: after, rewritten: 1, skipped: [] });
    expect(remove(added.text)).toEqual({ text: before, rewritten: 1, skipped: [] });
  });

  it('rewrites every decorator of a file and nothing in comments, strings or regular expressions', () => {
    const text = [
      '/** The @Rbac({ verbs: [] }) decorators are the permissions it needs. */',
      "const re = /@Rbac\\({ verbs }/g; const s = \"@Rbac({ verbs: ['x'] })\"; const t = `@Rbac({ ${s} })`;",
      '// @Rbac({ verbs: [] })',
      "@Rbac({ groups: ['a'], resources: ['b'], verbs: ['get'] })",
      "@Rbac({ groups: ['a'], resources: ['b/status'], verbs: ['get'] })",
      'export class R {}',
      '',
    ].join('\n');
    const added = add(text);
    expect(added.rewritten).toBe(2);
    expect(added.skipped).toEqual([]);
    expect(added.text).toBe(text.replace("verbs: ['get'] })\n@Rbac", "verbs: ['get'], namespace: 'p-system' })\n@Rbac").replace("verbs: ['get'] })\nexport", "verbs: ['get'], namespace: 'p-system' })\nexport"));
    expect(remove(added.text).text).toBe(text);
  });

  it('keeps another namespace, and leaves non-resource urls to the ClusterRole', () => {
    const text = "@Rbac({ verbs: ['get'], namespace: 'other' })\n@Rbac({ urls: ['/metrics'], verbs: ['get'] })\n";
    expect(add(text)).toEqual({ text, rewritten: 0, skipped: [] });
    expect(remove(text)).toEqual({ text, rewritten: 0, skipped: [] });
  });

  it('removes the namespace wherever it stands', () => {
    expect(remove("@Rbac({ namespace: 'p-system', verbs: ['get'] })").text).toBe("@Rbac({ verbs: ['get'] })");
    expect(remove("@Rbac({\n  namespace: 'p-system',\n  verbs: ['get'],\n})").text).toBe("@Rbac({\n  verbs: ['get'],\n})");
    expect(remove("@Rbac({ verbs: ['get'], namespace: \"p-system\", resources: ['x'] })").text).toBe("@Rbac({ verbs: ['get'], resources: ['x'] })");
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
    expect(add(text)).toEqual({ text, rewritten: 0, skipped: [] });
  });
});
