/**
 * `tsop dev` with webhooks, in a project made with the built CLI: Memcached v1alpha1 with a
 * defaulter and a validator, v2 the hub of a conversion whose field differs from v1alpha1's
 * (`foo` there, `fooName` here), so only the webhook can convert. The dev plane gets the
 * project's webhook configurations and conversion pointed at the operator on loopback with a
 * certificate made for the session: the defaulter fills in, the validator refuses a bad sample
 * with the field path, objects round-trip between the versions, and an edit of the validator
 * saved by rename (`sed -i`, twice) restarts the operator with the new rule.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateAssets } from '../../runtime/envtest/index.js';
import { skipReason } from '../../runtime/testing/control-plane.js';
import { listeningAddresses } from '../dev/listening.js';
import { processesMentioning, Session } from './dev-session.js';
import { linkNodeModules } from '../scaffold/node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const MINUTES = 60_000;
const root = mkdtempSync(join(tmpdir(), 'tsop-dev-webhooks-'));
const dir = join(root, 'memcached-operator');
const sessionTmp = join(root, 'tmp');

function tsop(...args: string[]): void {
  execFileSync(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], {
    cwd: dir,
    stdio: 'pipe',
    env: { ...process.env, NO_COLOR: '1' },
  });
}

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(join(dir, file), 'utf8');
  if (!text.includes(from)) throw new Error(`${file} has no ${JSON.stringify(from)}`);
  writeFileSync(join(dir, file), text.replace(from, to));
}

const memcached = (version: string, name: string, spec: string): string =>
  `apiVersion: cache.example.com/${version}\nkind: Memcached\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n${spec}\n`;

describe.skipIf(skipReason() !== undefined)('tsop dev with webhooks', () => {
  let session: Session;
  let kubeconfig = '';
  const kubectl = (args: string[], input?: string): { ok: boolean; out: string } => {
    try {
      const out = execFileSync(locateAssets()?.kubectl ?? 'kubectl', args, {
        env: { ...process.env, KUBECONFIG: kubeconfig },
        stdio: 'pipe',
        ...(input === undefined ? {} : { input }),
      });
      return { ok: true, out: out.toString('utf8') };
    } catch (error) {
      return { ok: false, out: (error as { stderr?: Buffer }).stderr?.toString('utf8') ?? String(error) };
    }
  };

  beforeAll(async () => {
    mkdirSync(dir);
    mkdirSync(sessionTmp);
    tsop('init', '--domain', 'example.com', '--skip-install');
    linkNodeModules(dir);
    tsop(
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
    );
    tsop(
      'create',
      'api',
      '--group',
      'cache',
      '--version',
      'v2',
      '--kind',
      'Memcached',
      '--resource',
      '--controller=false',
    );
    tsop(
      'create',
      'webhook',
      '--group',
      'cache',
      '--version',
      'v1alpha1',
      '--kind',
      'Memcached',
      '--defaulting',
      '--programmatic-validation',
    );
    tsop(
      'create',
      'webhook',
      '--group',
      'cache',
      '--version',
      'v2',
      '--kind',
      'Memcached',
      '--conversion',
      '--spoke',
      'v1alpha1',
    );
    // What the author writes: a size in both versions, v2's name for foo, the conversion of it, a default and a rule.
    edit(
      'src/api/v1alpha1/memcached.ts',
      '  foo?: string;\n',
      '  foo?: string;\n\n  /** How many replicas. */\n  size?: number;\n',
    );
    edit(
      'src/api/v2/memcached.ts',
      '  foo?: string;\n',
      '  fooName?: string;\n\n  /** How many replicas. */\n  size?: number;\n',
    );
    edit(
      'src/api/v1alpha1/memcached-conversion.ts',
      '    hub.spec = structuredClone(spoke.spec);',
      "    const { foo, ...rest } = structuredClone(spoke.spec) ?? {};\n    hub.spec = { ...rest, ...(foo === undefined ? {} : { fooName: foo }) } as Hub['spec'];",
    );
    edit(
      'src/api/v1alpha1/memcached-conversion.ts',
      '    spoke.spec = structuredClone(hub.spec);',
      "    const { fooName, ...rest } = structuredClone(hub.spec) ?? {};\n    spoke.spec = { ...rest, ...(fooName === undefined ? {} : { foo: fooName }) } as Self['spec'];",
    );
    edit(
      'src/webhooks/v1alpha1/memcached-webhook.ts',
      '`obj.spec ??= {}; obj.spec.size ??= 1;`.',
      '`obj.spec ??= {}; obj.spec.size ??= 1;`.\n    obj.spec ??= {};\n    obj.spec.size ??= 1;',
    );
    edit(
      'src/webhooks/v1alpha1/memcached-webhook.ts',
      "  // e.g. if ((obj.spec?.size ?? 0) > 10) errors.push(new FieldError('spec.size', 'must be at most 10', obj.spec?.size));",
      "  if ((obj.spec?.size ?? 0) > 10) errors.push(new FieldError('spec.size', 'must be at most 10', obj.spec?.size));",
    );
    edit('config/samples/cache_v2_memcached.yaml', 'foo: bar', 'fooName: from-v2');
    tsop('manifests');
    session = new Session(
      spawn(process.execPath, [join(TSOP, 'bin/tsop.js'), 'dev'], {
        cwd: dir,
        env: { ...process.env, TMPDIR: sessionTmp, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  }, 5 * MINUTES);

  afterAll(async () => {
    await session?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it(
    "registers the project's webhook configurations and conversion against the operator, with a certificate made for the session",
    async () => {
      const exported = await session.waitFor(/^tsop +\| .*export KUBECONFIG=(\S+)/, 0, 4 * MINUTES);
      kubeconfig = /export KUBECONFIG=(\S+)/.exec(exported.line)![1]!;
      await session.waitFor(
        new RegExp(
          /^tsop +\| webhooks: mutating mutating-webhook-configuration, validating/.source +
            / validating-webhook-configuration, conversion of memcacheds\.cache\.example\.com →/.source +
            / https:\/\/127\.0\.0\.1:\d+ \(a certificate made for this session\)$/.source,
        ),
        0,
        4 * MINUTES,
      );
      await session.waitFor(/^operator \| serving webhooks$/, 0, 4 * MINUTES);
      // The operator's webhook server listens on loopback alone, where the dev plane calls it.
      const registered = await session.waitFor(/^tsop +\| webhooks: .* → https:\/\/127\.0\.0\.1:(\d+) /, 0);
      const port = Number(/127\.0\.0\.1:(\d+)/.exec(registered.line)![1]);
      expect(listeningAddresses(port)).toEqual(['127.0.0.1']);
      // Both samples are one object (memcached-sample), applied in v1alpha1 and then in v2.
      await session.waitFor(
        /^tsop +\| applied memcached\.cache\.example\.com\/memcached-sample serverside-applied/,
        0,
        4 * MINUTES,
      );
      await session.waitFor(/^tsop +\| status: control plane up · 1 CRD · 1 object · operator running/, 0, 4 * MINUTES);
      expect(session.lines.filter((l) => /refused/.test(l))).toEqual([]);
      // One object written by two sample files is said, not left silent.
      expect(session.lines).toContain(
        [
          'tsop     | note: samples config/samples/cache_v1alpha1_memcached.yaml (cache.example.com/v1alpha1),',
          'config/samples/cache_v2_memcached.yaml (cache.example.com/v2) are one object, Memcached',
          'memcached-sample: the last applied replaces the others; give them different metadata.name to keep',
          'each',
        ].join(' '),
      );
      expect(
        kubectl([
          'get',
          'validatingwebhookconfiguration',
          'validating-webhook-configuration',
          '-o',
          'jsonpath={.webhooks[0].clientConfig.url}',
        ]).out,
      ).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/validate-cache-example-com-v1alpha1-memcached$/);
    },
    5 * MINUTES,
  );

  it(
    'defaults, and the validator refuses a bad sample with the field path',
    async () => {
      // The defaulter gave the sample a size.
      expect(
        kubectl(['get', 'memcached.v1alpha1.cache.example.com', 'memcached-sample', '-o', 'jsonpath={.spec.size}']).out,
      ).toBe('1');
      const from = session.lines.length;
      writeFileSync(join(dir, 'config/samples/too-big.yaml'), memcached('v1alpha1', 'too-big', '  size: 11'));
      const refused = await session.waitFor(
        /^tsop +\| sample config\/samples\/too-big\.yaml refused by the API server: /,
        from,
      );
      expect(refused.line).toMatch(
        new RegExp(
          /admission webhook "vmemcached-v1alpha1\.kb\.io" denied the request: .*spec\.size: Invalid value: 11:/
            .source +
            / must be at most 10|The Memcached "too-big" is invalid: spec\.size: Invalid value: 11: must be at/.source +
            / most 10/.source,
        ),
      );
      expect(kubectl(['get', 'memcached', 'too-big']).ok).toBe(false);
    },
    2 * MINUTES,
  );

  it(
    'converts through the webhook both ways: written in one version, read in the other, and back',
    async () => {
      // The sample was written last as v2 (fooName); v1alpha1 readers see foo.
      expect(
        kubectl(['get', 'memcached.v1alpha1.cache.example.com', 'memcached-sample', '-o', 'jsonpath={.spec.foo}']).out,
      ).toBe('from-v2');
      expect(
        kubectl(['apply', '-f', '-'], memcached('v1alpha1', 'round-trip', '  foo: from-v1alpha1\n  size: 2')).ok,
      ).toBe(true);
      expect(
        kubectl(['get', 'memcached.v2.cache.example.com', 'round-trip', '-o', 'jsonpath={.spec.fooName}/{.spec.size}'])
          .out,
      ).toBe('from-v1alpha1/2');
      expect(
        kubectl([
          'patch',
          'memcached.v2.cache.example.com',
          'round-trip',
          '--type=merge',
          '-p',
          '{"spec":{"fooName":"patched-in-v2"}}',
        ]).ok,
      ).toBe(true);
      expect(
        kubectl(['get', 'memcached.v1alpha1.cache.example.com', 'round-trip', '-o', 'jsonpath={.spec.foo}']).out,
      ).toBe('patched-in-v2');
    },
    2 * MINUTES,
  );

  it(
    'a validator edited by sed -i, twice, restarts the operator each time with the new rule',
    async () => {
      const webhook = join(dir, 'src/webhooks/v1alpha1/memcached-webhook.ts');
      let from = session.lines.length;
      execFileSync('sed', ['-i', 's/> 10) errors.push/> 20) errors.push/', webhook]);
      await session.waitFor(/^api +\| webhook source changed: regenerating manifests/, from);
      await session.waitFor(/^tsop +\| operator ready \d+ ms after the change/, from);
      writeFileSync(join(dir, 'config/samples/too-big.yaml'), memcached('v1alpha1', 'too-big', '  size: 12'));
      await session.waitFor(/^tsop +\| applied memcached\.cache\.example\.com\/too-big serverside-applied/, from);

      from = session.lines.length;
      execFileSync('sed', ['-i', 's/> 20) errors.push/> 5) errors.push/', webhook]);
      await session.waitFor(/^tsop +\| operator ready \d+ ms after the change/, from);
      writeFileSync(join(dir, 'config/samples/too-big.yaml'), memcached('v1alpha1', 'too-big', '  size: 6'));
      await session.waitFor(
        /^tsop +\| sample config\/samples\/too-big\.yaml refused by the API server: .*spec\.size: Invalid value: 6/,
        from,
      );
    },
    4 * MINUTES,
  );

  it(
    '--kubeconfig: the cluster gets no webhooks (it cannot call this machine), yet the operator runs with a self-signed certificate',
    async () => {
      const other = new Session(
        spawn(process.execPath, [join(TSOP, 'bin/tsop.js'), 'dev', '--kubeconfig', kubeconfig, '--samples=false'], {
          cwd: dir,
          env: { ...process.env, TMPDIR: sessionTmp, NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      try {
        await other.waitFor(
          /^tsop +\| webhooks: not registered on this cluster .*the operator serves them on port \d+ with a self-signed certificate$/,
          0,
          2 * MINUTES,
        );
        await other.waitFor(/^operator \| serving webhooks$/, 0, 2 * MINUTES);
        await other.waitFor(/^tsop +\| operator ready \d+ ms after its start/, 0, 2 * MINUTES);
      } finally {
        expect(await other.stop()).toBe(130);
      }
      expect(other.lines.some((l) => /operator exited/.test(l))).toBe(false);
    },
    4 * MINUTES,
  );

  it(
    'Ctrl-C stops the operator and the control plane, leaving no process behind',
    async () => {
      const planeDir = join(kubeconfig, '..');
      const from = session.lines.length;
      // Ctrl-C, as a shell reports it: 128 + SIGINT. The operator stops before the plane it talks to,
      // so its shutdown logs no error (no ECONNRESET, no certificate gone from under it).
      expect(await session.stop()).toBe(130);
      expect(session.lines.slice(from).filter((l) => /ERROR|ECONNRESET|tls\.key/.test(l))).toEqual([]);
      expect(session.lines.at(-1)).toMatch(/^tsop +\| stopped: operator, control plane, temp files removed$/);
      expect(processesMentioning(planeDir)).toEqual([]);
    },
    2 * MINUTES,
  );
});
