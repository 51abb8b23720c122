import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig, type User } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { CredentialError, Credentials } from './credentials.js';

const dir = mkdtempSync(join(tmpdir(), 'tsop-credentials-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(user: User): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: false }],
    users: [user],
    contexts: [{ name: 'x', cluster: 'c', user: user.name }],
    currentContext: 'x',
  });
  return kc;
}

/** A plugin printing the token in `<dir>/<name>.token` (and the expiry in `.exp`, if any); counts its runs. */
function plugin(name: string): { user: User; runs: () => number; set: (token: string, exp?: string) => void } {
  const base = join(dir, name);
  writeFileSync(`${base}.runs`, '');
  writeFileSync(
    `${base}.sh`,
    `echo run >> "${base}.runs"
[ -n "$FAIL" ] && { echo "first line" >&2; echo "token service unreachable" >&2; exit 3; }
exp=$(cat "${base}.exp" 2>/dev/null)
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"%s}}' "$(cat "${base}.token")" "\${exp:+,\\"expirationTimestamp\\":\\"$exp\\"}"
`,
  );
  return {
    user: { name, exec: { command: '/bin/sh', args: [`${base}.sh`] } } as User,
    runs: () => readFileSync(`${base}.runs`, 'utf8').split('\n').filter(Boolean).length,
    set: (token, exp) => {
      writeFileSync(`${base}.token`, token);
      if (exp) writeFileSync(`${base}.exp`, exp);
      else rmSync(`${base}.exp`, { force: true });
    },
  };
}

describe('Credentials', () => {
  it('sends a static token and basic auth as they are, and never rotates them', async () => {
    const token = new Credentials(config({ name: 't', token: 'abc\n' } as User));
    expect(await token.get()).toEqual({ headers: { Authorization: 'Bearer abc' }, generation: 0 });
    expect(token.rotating).toBe(false);
    expect(await token.refresh(0)).toBe(false);
    const basic = new Credentials(
      config({ name: 'b', username: 'ann', password: 'pw', impersonateUser: 'bob' } as User),
    );
    expect((await basic.get()).headers).toEqual({
      Authorization: `Basic ${Buffer.from('ann:pw').toString('base64')}`,
      'Impersonate-User': 'bob',
    });
  });

  it('re-reads a token file after a minute, or at once after a 401', async () => {
    const file = join(dir, 'sa-token');
    writeFileSync(file, 'one\n');
    let now = 1_000_000;
    const creds = new Credentials(
      config({ name: 'f', authProvider: { name: 'tokenFile', config: { tokenFile: file } } } as User),
      () => now,
    );
    const first = await creds.get();
    expect(first.headers['Authorization']).toBe('Bearer one');
    writeFileSync(file, 'two');
    now += 59_000;
    expect((await creds.get()).headers['Authorization']).toBe('Bearer one');
    now += 2_000;
    const second = await creds.get();
    expect(second.headers['Authorization']).toBe('Bearer two');
    writeFileSync(file, 'three');
    expect(await creds.refresh(second.generation)).toBe(true);
    expect((await creds.get()).headers['Authorization']).toBe('Bearer three');
    // Another request that saw the 401 with the older credential does not read the file again.
    writeFileSync(file, 'four');
    expect(await creds.refresh(second.generation)).toBe(true);
    expect((await creds.get()).headers['Authorization']).toBe('Bearer three');
    // A 401 with a file that did not change: nothing new to send.
    const same = await creds.get();
    writeFileSync(file, 'three');
    expect(await creds.refresh(same.generation)).toBe(false);
  });

  it("re-reads a kubeconfig user's token-file (client-node keeps only its first content)", async () => {
    const kubeconfig = join(dir, 'kubeconfig-token-file');
    writeFileSync(join(dir, 'user-token'), 'first\n');
    writeFileSync(
      kubeconfig,
      `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: 'https://127.0.0.1:1' } }]
users: [{ name: u, user: { token-file: '${join(dir, 'user-token')}' } }]
contexts: [{ name: x, context: { cluster: c, user: u } }]
current-context: x
`,
    );
    const saved = process.env['KUBECONFIG'];
    process.env['KUBECONFIG'] = kubeconfig;
    try {
      const kc = new KubeConfig();
      kc.loadFromFile(kubeconfig);
      let now = 1_000_000;
      const creds = new Credentials(kc, () => now);
      expect(creds.rotating).toBe(true);
      const first = await creds.get();
      expect(first.headers['Authorization']).toBe('Bearer first');
      writeFileSync(join(dir, 'user-token'), 'second');
      now += 61_000;
      expect((await creds.get()).headers['Authorization']).toBe('Bearer second');
      // The same token from a KubeConfig built in memory is not tied to the file.
      const inMemory = config({ name: 'u', token: 'second' } as User);
      writeFileSync(join(dir, 'user-token'), 'third');
      expect(new Credentials(inMemory).rotating).toBe(false);
    } finally {
      if (saved === undefined) delete process.env['KUBECONFIG'];
      else process.env['KUBECONFIG'] = saved;
    }
  });

  it('runs an exec plugin once until its token expires, and once for concurrent 401s', async () => {
    const p = plugin('exp');
    let now = Date.parse('2030-01-01T00:00:00Z');
    p.set('t1', '2030-01-01T00:10:00Z');
    const creds = new Credentials(config(p.user), () => now);
    const got = await Promise.all([creds.get(), creds.get(), creds.get()]);
    expect(got.map((c) => c.headers['Authorization'])).toEqual(['Bearer t1', 'Bearer t1', 'Bearer t1']);
    expect(p.runs()).toBe(1);
    p.set('t2', '2030-01-01T00:20:00Z');
    now += 11 * 60_000;
    expect((await creds.get()).headers['Authorization']).toBe('Bearer t2');
    expect(p.runs()).toBe(2);
    p.set('t3');
    const gen = (await creds.get()).generation;
    expect(await Promise.all([creds.refresh(gen), creds.refresh(gen)])).toEqual([true, true]);
    expect(p.runs()).toBe(3);
    now += 365 * 24 * 3600_000; // no expirationTimestamp: kept until a 401
    expect((await creds.get()).headers['Authorization']).toBe('Bearer t3');
    expect(p.runs()).toBe(3);
  });

  it('says in one line which plugin failed and why', async () => {
    const p = plugin('broken');
    p.set('x');
    const user = { ...p.user, exec: { ...p.user.exec, env: [{ name: 'FAIL', value: '1' }] } } as User;
    const err = await new Credentials(config(user)).get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CredentialError);
    expect((err as Error).message).toBe(
      'credential plugin "/bin/sh" of kubeconfig user "broken" exited with 3: token service unreachable',
    );
    const silent = { ...p.user, exec: { command: '/bin/true' } } as User;
    expect(await new Credentials(config(silent)).get().catch((e: Error) => e.message)).toBe(
      'credential plugin "/bin/true" of kubeconfig user "broken" printed no ExecCredential JSON; it must print one on stdout',
    );
  });
});
