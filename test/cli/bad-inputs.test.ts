/**
 * Bad input to every command, through the built CLI (bin/tsop.js) as a user types it: each row
 * must exit with its code, print exactly one line on stderr (the problem: what, which value,
 * which rule, how to fix), no stack trace, nothing on stdout, and leave the directory exactly as
 * it was (a hash of every path, mode and byte before and after).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { treeHash, tsop } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'tsop-bad-inputs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Where a row runs: an empty directory, a project, the project committed to git, the same with an uncommitted edit,
 * a kubebuilder (Go) project, an empty directory whose name is not ASCII.
 */
type Where = 'empty' | 'project' | 'git' | 'dirty-git' | 'kubebuilder' | 'non-ascii';
const dirs: Record<Where, string> = {
  empty: join(root, 'empty'),
  project: join(root, 'project'),
  git: join(root, 'git'),
  'dirty-git': join(root, 'dirty-git'),
  kubebuilder: join(root, 'kubebuilder'),
  'non-ascii': join(root, 'opérateur-日本'),
};
/** Files the rows name, outside every tree they hash. */
const files = join(root, 'files');

beforeAll(async () => {
  mkdirSync(dirs.empty);
  mkdirSync(dirs['non-ascii']);
  // What kubebuilder v4 writes that init must not replace: PROJECT (with a resource), go.mod, RBAC.
  mkdirSync(join(dirs.kubebuilder, 'config/rbac'), { recursive: true });
  writeFileSync(
    join(dirs.kubebuilder, 'PROJECT'),
    [
      'cliVersion: 4.15.0',
      'domain: example.com',
      'layout:',
      '- go.kubebuilder.io/v4',
      'projectName: memcached-operator',
      'repo: example.com/memcached-operator',
      'resources:',
      '- api:',
      '    crdVersion: v1',
      '    namespaced: true',
      '  controller: true',
      '  domain: example.com',
      '  group: cache',
      '  kind: Memcached',
      '  path: example.com/memcached-operator/api/v1alpha1',
      '  version: v1alpha1',
      'version: "3"',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dirs.kubebuilder, 'go.mod'),
    'module example.com/memcached-operator\n\ngo 1.24\n\nrequire sigs.k8s.io/controller-runtime v0.22.1\n',
  );
  writeFileSync(
    join(dirs.kubebuilder, 'config/rbac/role.yaml'),
    'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: manager-role\nrules:\n- apiGroups: [cache.example.com]\n  resources: [memcacheds]\n  verbs: [get, list, watch]\n',
  );
  mkdirSync(files);
  writeFileSync(join(files, 'plain.txt'), 'Copyright Acme\n');
  writeFileSync(join(files, 'two-comments.txt'), '/* Copyright Acme */\nconsole.log(1);\n/* end */\n');
  const ok = async (cwd: string, ...args: string[]): Promise<void> => {
    const r = await tsop(cwd, args);
    expect(r.code, r.stderr).toBe(0);
  };
  await ok(root, 'init', '--dir', dirs.project, '--domain', 'example.com', '--skip-install');
  await ok(
    dirs.project,
    'create',
    'api',
    '--group',
    'cache',
    '--version',
    'v1alpha1',
    '--kind',
    'Memcached',
    '--resource',
    '--controller',
    '--make=false',
  );
  cpSync(dirs.project, dirs['dirty-git'], { recursive: true });
  const git = (...args: string[]) =>
    promisify(execFile)('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: dirs['dirty-git'],
    });
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'scaffold');
  cpSync(dirs['dirty-git'], dirs.git, { recursive: true });
  writeFileSync(join(dirs['dirty-git'], 'README.md'), 'edited\n');
}, 120_000);

type Row = [where: Where, args: string[], code: number, stderr: RegExp];
const api = [
  'create',
  'api',
  '--group',
  'cache',
  '--version',
  'v1',
  '--kind',
  'Redis',
  '--resource',
  '--controller',
  '--make=false',
];
const webhook = ['create', 'webhook', '--group', 'cache', '--version', 'v1alpha1', '--kind', 'Memcached'];

const ROWS: Row[] = [
  // init
  ['empty', ['init', '--domain', 'Bad_Domain'], 1, /^tsop: --domain: 'Bad_Domain' is not a DNS-1123 subdomain/],
  ['empty', ['init', '--project-name', 'Bad Name'], 1, /^tsop: --project-name: 'Bad Name' is not a DNS-1123 label/],
  ['empty', ['init', '--repo', 'Has Spaces'], 1, /^tsop: --repo: 'Has Spaces' is not a valid npm package name/],
  [
    'empty',
    ['init', '--license', 'mit'],
    1,
    /^tsop: --license: 'mit' is not a known license; use 'apache2' or 'none'$/,
  ],
  [
    'empty',
    ['init', '--owner', 'Acme\nEvil'],
    1,
    /^tsop: --owner: 'Acme\\u000a?Evil'|^tsop: --owner: 'Acme\\nEvil' contains a line break/,
  ],
  [
    'empty',
    ['init', '--owner', 'Acme \u202eCorp'],
    1,
    /^tsop: --owner: .* contains a bidirectional text control \(U\+202E\)/,
  ],
  ['empty', ['init', '--plugins', 'foo/v1'], 1, /^tsop: --plugins: 'foo\/v1' is not a plugin init knows/],
  [
    'empty',
    ['init', '--plugins', 'go/v4,deploy-image/v1-alpha'],
    1,
    /^tsop: --plugins: 'deploy-image\/v1-alpha' scaffolds a kind, not a project/,
  ],
  ['empty', ['init', '--plugins', 'go/v4,,'], 1, /^tsop: --plugins: 'go\/v4,,' has an empty plugin key/],
  [
    'empty',
    ['init', '--license-file', join(root, 'missing.txt')],
    1,
    /^tsop: --license-file: '.*missing\.txt' does not exist/,
  ],
  ['empty', ['init', '--license-file', files], 1, /^tsop: --license-file: '.*files' is a directory/],
  [
    'empty',
    ['init', '--license-file', join(files, 'plain.txt')],
    1,
    /^tsop: --license-file: '.*plain\.txt' is not a block comment/,
  ],
  [
    'empty',
    ['init', '--license-file', join(files, 'two-comments.txt')],
    1,
    /^tsop: --license-file: '.*two-comments\.txt' closes its comment before the end/,
  ],
  [
    'empty',
    ['init', '--force=maybe'],
    1,
    /^tsop: option '--force \[bool\]' argument 'maybe' is invalid\. must be true or false/,
  ],
  ['empty', ['init', '--skip-install=yes'], 1, /^tsop: option '--skip-install \[bool\]' argument 'yes' is invalid/],
  ['empty', ['init', '--forc'], 1, /^tsop: unknown option '--forc' \(did you mean --force\?\)$/],
  ['empty', ['init', '--domain'], 1, /^tsop: option '--domain <domain>' argument missing$/],
  [
    'project',
    ['init', '--domain', 'example.com', '--skip-install'],
    1,
    /^tsop: .* already has a PROJECT file \(the project is initialised\); pass --force/,
  ],
  [
    'project',
    ['init', '--domain', 'example.com', '--skip-install', '--force'],
    1,
    /^tsop: init --force: .*PROJECT lists 1 resource\(s\) \(Memcached\.cache\), which init would drop .*; to take a newer tsop's scaffolding and keep them run 'tsop alpha update'/,
  ],
  [
    'kubebuilder',
    ['init', '--domain', 'example.com', '--skip-install'],
    1,
    /^tsop: init: .* holds a kubebuilder \(Go\) project \(PROJECT layout go\.kubebuilder\.io\/v4, 1 resource\(s\)\); .* 'tsop import kubebuilder .*', or pass --over-kubebuilder/,
  ],
  [
    'kubebuilder',
    ['init', '--domain', 'example.com', '--skip-install', '--force'],
    1,
    /^tsop: init: .* holds a kubebuilder \(Go\) project/,
  ],
  [
    'kubebuilder',
    ['init', '--skip-install', '--over-kubebuilder', '--force'],
    1,
    /^tsop: --over-kubebuilder writes only the files .*; --force would overwrite its config\/ and RBAC/,
  ],
  [
    'empty',
    ['init', '--skip-install', '--over-kubebuilder'],
    1,
    /^tsop: --over-kubebuilder: .* holds no kubebuilder project/,
  ],
  [
    'non-ascii',
    ['init', '--skip-install'],
    1,
    new RegExp(
      /^tsop: --project-name: the directory name 'opérateur-日本' has letters a project name cannot hold \(a/.source +
        / DNS-1123 label: lower-case ASCII letters, digits and '-'\); pass --project-name, e\.g\./.source +
        / --project-name operateur$/.source,
    ),
  ],
  // create api
  ['empty', api, 2, /^tsop: create api: .* is not a tsop project \(no PROJECT file\)/],
  [
    'project',
    [
      'create',
      'api',
      '--group',
      'cache',
      '--version',
      'v1',
      '--kind',
      'redis',
      '--resource',
      '--controller',
      '--make=false',
    ],
    1,
    /^tsop: --kind: 'redis'/,
  ],
  [
    'project',
    [
      'create',
      'api',
      '--group',
      'cache',
      '--version',
      '1',
      '--kind',
      'Redis',
      '--resource',
      '--controller',
      '--make=false',
    ],
    1,
    /^tsop: --version: '1'/,
  ],
  [
    'project',
    [
      'create',
      'api',
      '--group',
      'Cache_Bad',
      '--version',
      'v1',
      '--kind',
      'Redis',
      '--resource',
      '--controller',
      '--make=false',
    ],
    1,
    /^tsop: --group: 'Cache_Bad'/,
  ],
  [
    'project',
    [
      'create',
      'api',
      '--group',
      'cache',
      '--version',
      'v1alpha1',
      '--kind',
      'Memcached',
      '--resource',
      '--controller',
      '--make=false',
    ],
    1,
    /already/,
  ],
  ['project', [...api, '--plural', '1foos'], 1, /^tsop: --plural: '1foos'/],
  [
    'project',
    [
      'create',
      'api',
      '--group',
      'cache',
      '--version',
      'v1alpha1',
      '--kind',
      'Other',
      '--plural',
      'memcacheds',
      '--resource',
      '--controller',
      '--make=false',
    ],
    1,
    /^tsop: --plural: 'memcacheds' is already Memcached's plural in cache\.example\.com/,
  ],
  [
    'project',
    [
      'create',
      'api',
      '--group',
      'cache',
      '--version',
      'v1alpha1',
      '--kind',
      'MemcachedList',
      '--resource',
      '--controller',
      '--make=false',
    ],
    1,
    /^tsop: --kind: 'MemcachedList' is already Memcached's list kind/,
  ],
  [
    'project',
    [
      'create',
      'api',
      '--group',
      'cache',
      '--version',
      'v1alpha1',
      '--kind',
      'Memcacheds',
      '--resource',
      '--controller',
      '--make=false',
      '--dry-run',
    ],
    1,
    /^tsop: --kind: 'Memcacheds' derives the CRD plural 'memcacheds', which is already Memcached's plural/,
  ],
  ['project', [...api, '--plugins', 'nope/v1'], 1, /^tsop: --plugins: 'nope\/v1' is not a tsop plugin/],
  ['project', [...api, '--plugins', 'deploy-image/v1-alpha'], 1, /--image/],
  [
    'project',
    [...api, '--plugins', 'deploy-image/v1-alpha', '--image', 'memcached:1.6\nrm -rf /'],
    1,
    /^tsop: --image: /,
  ],
  [
    'project',
    [...api, '--plugins', 'deploy-image/v1-alpha', '--image', 'memcached:1.6', '--image-container-port', 'eighty'],
    1,
    /^tsop: --image-container-port: 'eighty'/,
  ],
  ['project', [...api, '--resource=maybe'], 1, /^tsop: option '--resource \[bool\]' argument 'maybe' is invalid/],
  ['project', ['create', 'api', '--group', 'cache', '--version', 'v1', '--resource', '--controller'], 1, /--kind/],
  [
    'project',
    ['create', 'apix'],
    1,
    /^tsop: unknown command 'apix' for 'tsop create' \(did you mean 'api'\?\); run 'tsop create --help'/,
  ],
  // create webhook
  ['empty', [...webhook, '--defaulting'], 2, /^tsop: create webhook: .* is not a tsop project/],
  ['project', webhook, 1, /--defaulting|--programmatic-validation|--conversion/],
  [
    'project',
    ['create', 'webhook', '--group', 'cache', '--version', 'v1alpha1', '--kind', 'Redis', '--defaulting'],
    1,
    /Redis/,
  ],
  [
    'project',
    [...webhook, '--conversion', '--spoke', 'v2'],
    1,
    /^tsop: --spoke: Memcached has no version 'v2' in PROJECT/,
  ],
  [
    'project',
    [...webhook, '--conversion', '--spoke', 'not a version'],
    1,
    /^tsop: --spoke: 'not a version' is not a Kubernetes API version/,
  ],
  ['project', [...webhook, '--defaulting=nope'], 1, /^tsop: option '--defaulting \[bool\]' argument 'nope' is invalid/],
  // edit
  ['empty', ['edit', '--multigroup'], 2, /^tsop: edit: .* is not a tsop project/],
  ['project', ['edit'], 1, /^tsop: edit: nothing to change; pass --multigroup, --namespaced/],
  ['project', ['edit', '--license', 'gpl'], 1, /^tsop: --license: 'gpl' is not a known license/],
  ['project', ['edit', '--owner', 'A\u0007B'], 1, /^tsop: --owner: .* contains a control character \(U\+0007\)/],
  [
    'project',
    ['edit', '--license-file', join(files, 'plain.txt')],
    1,
    /^tsop: --license-file: '.*plain\.txt' is not a block comment/,
  ],
  [
    'project',
    ['edit', '--license-file', join(root, 'missing.txt')],
    1,
    /^tsop: --license-file: '.*missing\.txt' does not exist/,
  ],
  [
    'project',
    ['edit', '--namespaced=perhaps'],
    1,
    /^tsop: option '--namespaced \[bool\]' argument 'perhaps' is invalid/,
  ],
  // manifests
  ['empty', ['manifests', '--check'], 2, /PROJECT/],
  ['empty', ['manifests'], 2, /PROJECT/],
  [
    'project',
    ['manifests', '--max-desc-len', '-1'],
    1,
    /^tsop: option '--max-desc-len <n>' argument '-1' is invalid\. must be a whole number/,
  ],
  [
    'project',
    ['manifests', '--max-desc-len', 'ten'],
    1,
    /^tsop: option '--max-desc-len <n>' argument 'ten' is invalid/,
  ],
  ['project', ['manifests', '--check=maybe'], 1, /^tsop: option '--check \[bool\]' argument 'maybe' is invalid/],
  ['project', ['manifests', '--dir', join(root, 'nowhere'), '--check'], 2, /nowhere/],
  // docs
  ['empty', ['docs'], 2, /^tsop: docs: .* is not a tsop project \(no PROJECT file\)/],
  ['empty', ['docs', '--check'], 2, /^tsop: docs: .* is not a tsop project/],
  ['project', ['docs', '--check=maybe'], 1, /^tsop: option '--check \[bool\]' argument 'maybe' is invalid/],
  // alpha generate / update
  ['project', ['alpha', 'generate'], 1, /--output-dir/],
  ['project', ['alpha', 'generate', '--output-dir', '.'], 1, /empty|not empty|exists/],
  [
    'empty',
    ['alpha', 'generate', '--output-dir', join(root, 'out')],
    2,
    /^tsop: alpha generate: .* is not a tsop project/,
  ],
  ['empty', ['alpha', 'update'], 2, /^tsop: alpha update: .* is not a tsop project/],
  ['project', ['alpha', 'update'], 2, /git/],
  ['dirty-git', ['alpha', 'update'], 1, /uncommitted|dirty|clean/],
  [
    'git',
    ['alpha', 'update', '--from-version', `file:${join(root, 'nowhere/tsop-0.1.0.tgz')}`],
    1,
    /^tsop: alpha update: could not install tsop file:.*nowhere\/tsop-0\.1\.0\.tgz from file:.*\(npm ENOENT: .*\); check that the tarball/,
  ],
  [
    'git',
    ['alpha', 'update', '--output-branch', 'update..now'],
    1,
    /^tsop: alpha update: 'update\.\.now' is not a valid git branch name/,
  ],
  // the command line itself
  ['empty', ['creat'], 1, /^tsop: unknown command 'creat' \(did you mean 'create'\?\); run 'tsop --help'/],
  // A mistyped command is what is reported, not an option meant for the command (exit 1 with a suggestion).
  [
    'project',
    ['craete', 'api', '--group', 'cache', '--version', 'v1', '--kind', 'Redis'],
    1,
    /^tsop: unknown command 'craete' \(did you mean 'create'\?\); run 'tsop --help' for the list of commands$/,
  ],
  [
    'empty',
    ['alpah', 'update', '--from-version', '0.1.0'],
    1,
    /^tsop: unknown command 'alpah' \(did you mean 'alpha'\?\)/,
  ],
  ['empty', ['zzz'], 1, /^tsop: unknown command 'zzz'; run 'tsop --help'/],
  ['empty', ['help', 'nope'], 1, /^tsop: help: unknown command 'nope'/],
];

describe('bad inputs', () => {
  it('has at least 40 rows covering every command', () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(40);
    const commands = new Set(
      ROWS.map(([, args]) => (['create', 'alpha'].includes(args[0]!) ? `${args[0]} ${args[1]}` : args[0])),
    );
    for (const c of [
      'init',
      'create api',
      'create webhook',
      'edit',
      'manifests',
      'docs',
      'alpha generate',
      'alpha update',
    ])
      expect(commands).toContain(c);
  });

  it.each(ROWS)(
    '%s: tsop %j exits %i with one line',
    async (where, args, code, stderr) => {
      const dir = dirs[where];
      const before = treeHash(dir);
      const r = await tsop(dir, args);
      expect({ code: r.code, stdout: r.stdout }, r.stderr).toEqual({ code, stdout: '' });
      expect(r.stderr.endsWith('\n'), r.stderr).toBe(true);
      expect(r.stderr.slice(0, -1).split('\n'), 'exactly one line on stderr').toHaveLength(1);
      expect(r.stderr).toMatch(/^tsop: /);
      expect(r.stderr).not.toMatch(/^\s+at |Error: |\(node:/m);
      expect(r.stderr.slice(0, -1)).toMatch(stderr);
      expect(treeHash(dir), 'the directory is unchanged').toBe(before);
    },
    60_000,
  );
});
