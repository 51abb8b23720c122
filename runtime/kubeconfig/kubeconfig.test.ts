/**
 * loadKubeConfig reads what client-node's KubeConfig.loadFromDefault() reads — the same clusters,
 * users, contexts and current context — for each place a kubeconfig comes from: $KUBECONFIG (one
 * file, several merged), ~/.kube/config, the in-cluster ServiceAccount, nothing at all. Errors
 * are one typed line naming the file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { KubeConfigError, loadKubeConfig, type LoadedKubeConfig } from './kubeconfig.js';

let dir: string;
const saved = { ...process.env };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsop-kubeconfig-unit-'));
  delete process.env['KUBECONFIG'];
  process.env['HOME'] = join(dir, 'home');
});
afterEach(() => {
  process.env = { ...saved };
  rmSync(dir, { recursive: true, force: true });
});

function write(rel: string, doc: unknown): string {
  const file = join(dir, rel);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, typeof doc === 'string' ? doc : stringify(doc));
  return file;
}

const contents = (kc: KubeConfig | LoadedKubeConfig) => ({
  clusters: kc.clusters,
  users: kc.users,
  contexts: kc.contexts,
  currentContext: kc.currentContext,
  cluster: kc.getCurrentCluster(),
  user: kc.getCurrentUser(),
});

function clientNode(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromDefault();
  return kc;
}

const full = {
  apiVersion: 'v1',
  kind: 'Config',
  clusters: [
    {
      name: 'a',
      cluster: {
        server: 'https://a.example:6443/',
        'certificate-authority': 'certs/ca.crt',
        'tls-server-name': 'kubernetes',
        'proxy-url': 'http://proxy:3128',
      },
    },
    {
      name: 'b',
      cluster: { server: 'https://10.0.0.1', 'certificate-authority-data': 'Q0E=', 'insecure-skip-tls-verify': true },
    },
  ],
  users: [
    { name: 'cert', user: { 'client-certificate': 'certs/me.crt', 'client-key': '/abs/me.key', as: 'someone' } },
    { name: 'token', user: { token: 'abc' } },
    { name: 'tokenfile', user: { 'token-file': '' } },
    {
      name: 'exec',
      user: {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: 'get-token',
          args: ['--x'],
          env: [{ name: 'A', value: 'b' }],
        },
      },
    },
    { name: 'oidc', user: { 'auth-provider': { name: 'oidc', config: { 'id-token': 'x', 'client-id': 'y' } } } },
    { name: 'basic', user: { username: 'u', password: 'p' } },
    { name: 'empty' },
  ],
  contexts: [
    { name: 'one', context: { cluster: 'a', user: 'cert', namespace: 'team' } },
    { name: 'two', context: { cluster: 'b', user: 'token' } },
    { name: 'three', context: { cluster: 'b' } },
  ],
  'current-context': 'one',
};

describe('loadKubeConfig reads what client-node reads', () => {
  it('one file in $KUBECONFIG: every field, paths relative to its folder, token-file read', () => {
    const tokenFile = write('token', 'tok\n');
    const doc = structuredClone(full);
    doc.users[2] = { name: 'tokenfile', user: { 'token-file': tokenFile } };
    process.env['KUBECONFIG'] = write('cfg/config', doc);
    const ours = loadKubeConfig();
    expect(contents(ours)).toEqual(contents(clientNode()));
    expect(ours.getCurrentCluster()?.caFile).toBe(join(dir, 'cfg/certs/ca.crt'));
    expect(ours.users.find((u) => u.name === 'tokenfile')?.token).toBe('tok\n');
  });

  it('YAML as client-node parses it: unquoted timestamps are dates, << merges a map', () => {
    const text = [
      'clusters: [{name: a, cluster: &c {server: "https://a:6443", insecure-skip-tls-verify: true}}]',
      'users:',
      '- name: g',
      '  user: {auth-provider: {name: gcp, config: {access-token: t, expiry: 2030-01-02T03:04:05Z}}}',
      'contexts: [{name: x, context: {cluster: a, user: g}}, {name: y, context: {<<: *c, cluster: a}}]',
      'current-context: x',
      '',
    ].join('\n');
    process.env['KUBECONFIG'] = write('config', text);
    const ours = loadKubeConfig();
    expect(contents(ours)).toEqual(contents(clientNode()));
    expect(ours.getCurrentUser()?.authProvider?.config?.expiry).toBeInstanceOf(Date);
  });

  it('several files in $KUBECONFIG: merged in order, a later current-context wins, one without keeps the earlier', () => {
    const a = write('a', {
      clusters: [full.clusters[0]],
      users: [full.users[0]],
      contexts: [full.contexts[0]],
      'current-context': 'one',
    });
    const b = write('b', {
      clusters: [full.clusters[1]],
      users: [full.users[1]],
      contexts: [full.contexts[1]],
      'current-context': 'two',
    });
    const c = write('c', { users: [full.users[5]] });
    for (const files of [
      [a, b],
      [a, c],
      [b, '', a, c],
    ]) {
      process.env['KUBECONFIG'] = files.join(delimiter);
      expect(contents(loadKubeConfig())).toEqual(contents(clientNode()));
    }
    process.env['KUBECONFIG'] = [a, b].join(delimiter);
    expect(loadKubeConfig().currentContext).toBe('two');
  });

  it('~/.kube/config when $KUBECONFIG is unset or empty', () => {
    write('home/.kube/config', full);
    for (const value of [undefined, '']) {
      if (value === undefined) delete process.env['KUBECONFIG'];
      else process.env['KUBECONFIG'] = value;
      const ours = loadKubeConfig();
      expect(contents(ours)).toEqual(contents(clientNode()));
      expect(ours.getCurrentUser()?.certFile).toBe(join(dir, 'home/.kube/certs/me.crt'));
    }
  });

  it('the in-cluster ServiceAccount (https, http ports, IPv6) as client-node loadFromCluster', () => {
    const prefix = join(dir, 'pod');
    const sa = join(prefix, '/var/run/secrets/kubernetes.io/serviceaccount');
    write('pod/var/run/secrets/kubernetes.io/serviceaccount/token', 't');
    write('pod/var/run/secrets/kubernetes.io/serviceaccount/namespace', 'ops');
    for (const [host, port] of [
      ['10.96.0.1', '443'],
      ['fd00::1', '443'],
      ['kubernetes', '8080'],
    ] as const) {
      process.env['KUBERNETES_SERVICE_HOST'] = host;
      process.env['KUBERNETES_SERVICE_PORT'] = port;
      const theirs = new KubeConfig();
      theirs.loadFromCluster(prefix);
      const ours = loadKubeConfig({ serviceAccountDir: sa });
      expect(contents(ours)).toEqual(contents(theirs));
    }
    expect(loadKubeConfig({ serviceAccountDir: sa }).getCurrentCluster()?.server).toBe('http://kubernetes:8080');
  });

  it('nothing anywhere: http://localhost:8080, as client-node', () => {
    expect(contents(loadKubeConfig({ serviceAccountDir: join(dir, 'none') }))).toEqual(contents(clientNode()));
  });

  it("toClientNode() is client-node's KubeConfig with the same contents", async () => {
    process.env['KUBECONFIG'] = write('config', full);
    const ours = loadKubeConfig();
    const kc = await ours.toClientNode();
    expect(kc).toBeInstanceOf(KubeConfig);
    expect(contents(kc)).toEqual(contents(ours));
    expect(await ours.toClientNode()).toBe(kc);
  });
});

describe('loadKubeConfig errors: one typed line naming the file', () => {
  const load = () => {
    try {
      loadKubeConfig();
    } catch (err) {
      return err as Error;
    }
    throw new Error('loaded');
  };

  it.each([
    [
      'a cluster without a server',
      { clusters: [{ name: 'x', cluster: {} }] },
      /^kubeconfig .*\/bad: clusters\[0\]\.cluster\.server is missing; every entry needs it$/,
    ],
    [
      'a context without a cluster',
      { contexts: [{ name: 'x', context: { user: 'u' } }] },
      /^kubeconfig .*\/bad: contexts\[0\]\.context\.cluster is missing; every entry needs it$/,
    ],
    [
      'a user without a name',
      { users: [{ user: { token: 't' } }] },
      /^kubeconfig .*\/bad: users\[0\]\.name is missing; every entry needs it$/,
    ],
    [
      'a token-file that is not there',
      { users: [{ name: 'u', user: { 'token-file': '/nowhere/token' } }] },
      /^kubeconfig .*\/bad: token-file \/nowhere\/token cannot be read \(ENOENT\); fix the path or the file$/,
    ],
    [
      'text that is not YAML',
      'clusters: [',
      /^kubeconfig .*\/bad: .+; point KUBECONFIG at a readable kubeconfig file$/,
    ],
  ])('%s', (_what, doc, message) => {
    process.env['KUBECONFIG'] = write('bad', doc);
    const err = load();
    expect(err).toBeInstanceOf(KubeConfigError);
    expect(err.message).toMatch(message);
    expect(() => clientNode()).toThrow(); // client-node refuses it too
  });

  it('a file that is not there, and a name defined in two files of $KUBECONFIG', () => {
    process.env['KUBECONFIG'] = join(dir, 'missing');
    expect(load().message).toMatch(
      /^kubeconfig .*\/missing: ENOENT: no such file or directory.*; point KUBECONFIG at a readable kubeconfig file$/,
    );
    const a = write('a', { clusters: [full.clusters[0]] });
    process.env['KUBECONFIG'] = [a, a].join(delimiter);
    expect(load().message).toBe(
      `kubeconfig ${a}: cluster "a" is also in an earlier file of KUBECONFIG; give it another name in one of them`,
    );
    expect(() => clientNode()).toThrow(/Duplicate cluster: a/);
  });
});
