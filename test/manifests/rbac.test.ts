// Unit tests of the RBAC merge and role.yaml rendering against hand-written goldens that follow
// controller-gen's rules (explode per resource, merge verbs, then resources, groups, URLs; sort;
// `*` collapses; `core` is '').
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { UserErrors } from '../../src/errors.js';
import {
  RbacRuleError,
  normalizeRules,
  rbacObjects,
  renderRbac,
  roleYaml,
  roleYamlByLibrary,
  type RbacRule,
} from '../../src/manifests/rbac.js';

const rule = (groups: string[], resources: string[], verbs: string[], extra: Partial<RbacRule> = {}): RbacRule => ({
  groups,
  resources,
  verbs,
  ...extra,
});

describe('normalizeRules', () => {
  it('unions the verbs of rules for the same group and resource, deduplicated and sorted', () => {
    expect(
      normalizeRules([
        rule(['ships.example.com'], ['frigates'], ['watch', 'get']),
        rule(['ships.example.com'], ['frigates'], ['list', 'get', 'get']),
      ]),
    ).toEqual([{ apiGroups: ['ships.example.com'], resources: ['frigates'], verbs: ['get', 'list', 'watch'] }]);
  });

  it('merges resources with equal verbs, then groups with equal resources and verbs', () => {
    expect(
      normalizeRules([
        rule(['a.example.com'], ['sloops'], ['create']),
        rule(['a.example.com'], ['brigs'], ['create']),
        rule(['b.example.com'], ['brigs', 'sloops'], ['create']),
        rule(['c.example.com'], ['brigs'], ['create']), // resources differ from the merged a/b set
      ]),
    ).toEqual([
      { apiGroups: ['a.example.com', 'b.example.com'], resources: ['brigs', 'sloops'], verbs: ['create'] },
      { apiGroups: ['c.example.com'], resources: ['brigs'], verbs: ['create'] },
    ]);
  });

  it('does not merge resources whose verbs differ', () => {
    expect(normalizeRules([rule(['x.io'], ['masts'], ['get']), rule(['x.io'], ['sails'], ['list'])])).toEqual([
      { apiGroups: ['x.io'], resources: ['masts'], verbs: ['get'] },
      { apiGroups: ['x.io'], resources: ['sails'], verbs: ['list'] },
    ]);
  });

  it('reads core as the core group and sorts it (the empty string) first', () => {
    expect(
      normalizeRules([
        rule(['apps'], ['deployments'], ['get']),
        rule(['core'], ['pods'], ['get']),
        rule([''], ['services'], ['get']),
      ]),
    ).toEqual([
      { apiGroups: [''], resources: ['pods', 'services'], verbs: ['get'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] },
    ]);
  });

  it('collapses verbs to * when any rule for the resource grants *', () => {
    expect(normalizeRules([rule(['x.io'], ['decks'], ['get', 'update']), rule(['x.io'], ['decks'], ['*'])])).toEqual([
      { apiGroups: ['x.io'], resources: ['decks'], verbs: ['*'] },
    ]);
  });

  it('keeps rules restricted by resourceNames apart, and puts URL rules first', () => {
    expect(
      normalizeRules([
        rule(['x.io'], ['decks'], ['get']),
        rule(['x.io'], ['decks'], ['get'], { resourceNames: ['upper', 'lower', 'upper'] }),
        rule([], [], ['get'], { urls: ['/metrics'] }),
        rule([], [], ['get'], { urls: ['/healthz'] }),
      ]),
    ).toEqual([
      { nonResourceURLs: ['/healthz', '/metrics'], verbs: ['get'] },
      { apiGroups: ['x.io'], resources: ['decks'], verbs: ['get'] },
      { apiGroups: ['x.io'], resourceNames: ['lower', 'upper'], resources: ['decks'], verbs: ['get'] },
    ]);
  });

  it('folds two rules that end with the same groups and resources (controller-gen keeps an arbitrary one)', () => {
    const out = normalizeRules([
      rule(['a.io'], ['r'], ['get']),
      rule(['b.io'], ['r'], ['get']),
      rule(['a.io', 'b.io'], ['r'], ['list']),
    ]);
    expect(out).toEqual([{ apiGroups: ['a.io', 'b.io'], resources: ['r'], verbs: ['get', 'list'] }]);
  });

  it('gives the same result whatever the input order', () => {
    const rules = [
      rule(['a.io'], ['x', 'y'], ['get', 'list']),
      rule(['a.io'], ['x'], ['watch']),
      rule(['b.io'], ['y'], ['get', 'list']),
      rule(['core'], ['events'], ['create', 'patch']),
      rule([], [], ['get'], { urls: ['/m'] }),
    ];
    const expected = normalizeRules(rules);
    for (const order of [
      [4, 3, 2, 1, 0],
      [2, 0, 4, 1, 3],
      [1, 4, 0, 3, 2],
    ]) {
      expect(normalizeRules(order.map((i) => rules[i] as RbacRule))).toEqual(expected);
    }
  });
});

describe('renderRbac', () => {
  it('writes one ClusterRole in controller-gen layout', () => {
    const text = renderRbac([
      rule(['batch.example.com'], ['cronjobs'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
      rule(['batch.example.com'], ['cronjobs/status'], ['get', 'update', 'patch']),
      rule(['batch.example.com'], ['cronjobs/finalizers'], ['update']),
      rule(['batch'], ['jobs'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
      rule(['batch'], ['jobs/status'], ['get']),
      rule(['core'], ['events'], ['create', 'patch']),
    ]);
    expect(text).toBe(`---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
- apiGroups:
  - ""
  resources:
  - events
  verbs:
  - create
  - patch
- apiGroups:
  - batch
  resources:
  - jobs
  verbs:
  - create
  - delete
  - get
  - list
  - patch
  - update
  - watch
- apiGroups:
  - batch
  resources:
  - jobs/status
  verbs:
  - get
- apiGroups:
  - batch.example.com
  resources:
  - cronjobs
  verbs:
  - create
  - delete
  - get
  - list
  - patch
  - update
  - watch
- apiGroups:
  - batch.example.com
  resources:
  - cronjobs/finalizers
  verbs:
  - update
- apiGroups:
  - batch.example.com
  resources:
  - cronjobs/status
  verbs:
  - get
  - patch
  - update
`);
  });

  it('writes a Role per namespace and role name, ordered by namespace then name, after the ClusterRole', () => {
    const text = renderRbac(
      [
        rule([''], ['secrets'], ['get'], { namespace: 'zeta' }),
        rule(['apps'], ['deployments'], ['*'], { namespace: 'alpha', roleName: 'deployer' }),
        rule(['x.io'], ['things'], ['get']),
        rule([''], ['configmaps'], ['get'], { namespace: 'alpha' }),
      ],
      { roleName: 'operator-role' },
    );
    expect(text).toBe(`---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: operator-role
rules:
- apiGroups:
  - x.io
  resources:
  - things
  verbs:
  - get
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: deployer
  namespace: alpha
rules:
- apiGroups:
  - apps
  resources:
  - deployments
  verbs:
  - '*'
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: operator-role
  namespace: alpha
rules:
- apiGroups:
  - ""
  resources:
  - configmaps
  verbs:
  - get
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: operator-role
  namespace: zeta
rules:
- apiGroups:
  - ""
  resources:
  - secrets
  verbs:
  - get
`);
  });

  it('quotes strings a YAML 1.1 reader would take for another type', () => {
    const text = renderRbac([rule(['yes.io'], ['on', '1', 'null'], ['get'], { resourceNames: ['true', 'plain'] })]);
    const docs = parseAllDocuments(text, { version: '1.1' });
    expect(docs).toHaveLength(1);
    const role = docs[0]?.toJS() as { rules: { resources: unknown[]; resourceNames: unknown[] }[] };
    expect(role.rules[0]?.resources).toEqual(['1', 'null', 'on']);
    expect(role.rules[0]?.resourceNames).toEqual(['plain', 'true']);
    expect(text).toContain('- "on"');
    expect(text).toContain('- plain');
  });

  it('is empty when there are no rules', () => {
    expect(renderRbac([])).toBe('');
  });

  it('round-trips: the YAML parses back to the normalized rules', () => {
    const rules = [rule(['a.io'], ['x', 'y'], ['get']), rule([], [], ['get'], { urls: ['/metrics'] })];
    const obj = parse(renderRbac(rules).replace(/^---\n/, '')) as { rules: unknown };
    expect(obj.rules).toEqual(normalizeRules(rules));
  });
});

describe('rule checks', () => {
  it('rejects a rule the API server would refuse, naming it', () => {
    expect(() => renderRbac([rule(['x.io'], ['things'], [])])).toThrow(RbacRuleError);
    expect(() => renderRbac([rule(['x.io'], ['things'], [])])).toThrow(/RBAC rule 1 .*needs at least one verb/);
    expect(() => renderRbac([rule([], ['pods'], ['get'])])).toThrow(/resources need at least one group/);
    expect(() => renderRbac([rule([], [], ['get'])])).toThrow(/no resources and no urls/);
    expect(() => renderRbac([rule(['x.io'], ['a'], ['get'], { urls: ['/m'] })])).toThrow(/urls cannot be combined/);
    expect(() => renderRbac([rule([], [], ['get'], { urls: ['/m'], namespace: 'ns' })])).toThrow(/cluster-wide/);
  });

  it('names the source of a rule when it is known', () => {
    expect(() => renderRbac([rule([], ['pods'], ['get'], { source: 'src/controllers/ship.ts:12' })])).toThrow(
      /^src\/controllers\/ship\.ts:12: RBAC rule \(groups= resources=pods\): resources need at least one group/,
    );
  });

  it('reports every problem at once', () => {
    try {
      renderRbac([rule(['x.io'], ['a'], ['get']), rule(['x.io'], ['b'], []), rule([], [], ['get'])]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(UserErrors);
      expect((e as UserErrors).errors.map((x) => x.message)).toEqual([
        expect.stringMatching(/^RBAC rule 2 .*verb/),
        expect.stringMatching(/^RBAC rule 3 .*no resources/),
      ]);
    }
  });
});

describe('roleYaml (the direct writer)', () => {
  /** Deterministic strings over an alphabet that mixes safe and YAML-special characters. */
  function* strings(count: number): Generator<string> {
    const alphabet = [
      'a',
      'Z',
      '0',
      '9',
      '.',
      '-',
      '_',
      '/',
      '*',
      ':',
      ' ',
      '#',
      "'",
      '"',
      '@',
      '&',
      '!',
      '%',
      '[',
      '{',
      ',',
      '?',
      '|',
      '\\',
      'é',
    ];
    let seed = 7;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let i = 0; i < count; i++) {
      let s = '';
      for (let len = next(7); len > 0; len--) s += alphabet[next(alphabet.length)];
      yield s;
    }
  }
  const words = [
    '',
    '*',
    'y',
    'Y',
    'yes',
    'Yes',
    'YES',
    'n',
    'No',
    'on',
    'On',
    'OFF',
    'true',
    'False',
    'null',
    'Null',
    'NULL',
    '~',
    'yes.io',
    'nulls',
    'pods',
    'deployments/status',
    'cache.example.com',
    'get',
    'x-y_z',
    'A1',
    '1',
    '1.5',
    '0x1F',
    '.inf',
    '2024-01-01',
    '12:30',
    '/metrics',
    '/api/*',
    '/',
    '/a b',
    'a b',
    'a: b',
    '#x',
    '-x',
    'ünï',
    'a.',
    'a-',
    'a/',
    'Role1',
  ];

  // Hundreds of roles, each also written by the yaml library: about a second of CPU, more than
  // the unit project's 5 s default allows on two busy cores.
  it('writes every role byte for byte as the yaml library does', { timeout: 30_000 }, () => {
    const corpus = [...words, ...strings(400)];
    for (let i = 0; i < corpus.length; i += 3) {
      const [a = '', b = '', c = ''] = corpus.slice(i, i + 3);
      const roles = [
        rbacObjects([rule([a || 'g'], [b || 'r'], [c || 'get'], { resourceNames: [a, c].filter((x) => x !== '') })]),
        rbacObjects([rule([], [], ['get', c || 'list'], { urls: [`/${b}`, '/healthz'] })]),
        rbacObjects([rule(['core'], [`${a}x`], ['get'], { namespace: `n${b}`, roleName: `r${c}` })]),
      ].flat();
      for (const role of roles) expect(roleYaml(role), JSON.stringify(role)).toBe(roleYamlByLibrary(role));
    }
  });

  it('hands what it does not know to the library: numbers, empty lists and maps, odd keys', () => {
    for (const role of [
      { a: 1 },
      { a: [] },
      { a: {} },
      { 'a b': 'x' },
      { a: ['x', ['y']] },
      { a: null },
      { yes: 'x' },
    ]) {
      expect(roleYaml(role)).toBe(roleYamlByLibrary(role));
    }
  });
});
