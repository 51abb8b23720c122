/**
 * `tsop dev` driven as a user drives it, in a project scaffolded by the built CLI: the dev loop
 * comes up on its own embedded control plane, then a spec field is added (the CRD on the server
 * gains it), the controller is edited (the restarted operator writes the new status onto the
 * sample), a sample is edited (re-applied), and Ctrl-C leaves no process and no temp file behind;
 * with --keep an object survives into the next --keep session.
 * The restart latency the session reports is printed.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateAssets } from '../../runtime/envtest/index.js';
import { processesMentioning, Session } from './dev-session.js';
import { linkNodeModules } from '../scaffold/node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'tsop-dev-e2e-'));
const dir = join(root, 'memcached-operator');
// The session's own temp dir: everything tsop dev creates lands here, so "nothing left" is checkable.
const sessionTmp = join(root, 'tmp');
const kubeCache = join(root, 'kube-cache');

function tsop(...args: string[]): void {
  execFileSync(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], {
    cwd: dir,
    stdio: 'pipe',
    env: { ...process.env, NO_COLOR: '1' },
  });
}

async function eventually<T>(read: () => T, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = read();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('tsop dev', () => {
  let session: Session;
  let kubeconfig = '';
  const assets = locateAssets();
  const kubectl = (...args: string[]): string => {
    try {
      return execFileSync(assets?.kubectl ?? 'kubectl', args, {
        env: { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: kubeCache },
        stdio: 'pipe',
      }).toString('utf8');
    } catch (error) {
      return `kubectl failed: ${(error as { stderr?: Buffer }).stderr?.toString('utf8') ?? String(error)}`;
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
    // As a user types it in the project: the package.json script.
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts.dev).toBe('tsop dev');
    const child = spawn(process.execPath, [join(TSOP, 'bin/tsop.js'), 'dev'], {
      cwd: dir,
      env: { ...process.env, TMPDIR: sessionTmp, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    session = new Session(child);
  }, 180_000);

  afterAll(async () => {
    if (session && session.child.exitCode === null && session.child.signalCode === null) {
      session.child.kill('SIGINT');
      await session.exited;
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('comes up: control plane, CRD, operator, sample reconciled; prints the KUBECONFIG export line', async () => {
    const exported = await session.waitFor(/^tsop +\| .*export KUBECONFIG=(\S+)/, 0, 150_000);
    kubeconfig = /export KUBECONFIG=(\S+)/.exec(exported.line)![1]!;
    expect(kubeconfig.startsWith(sessionTmp)).toBe(true);
    await session.waitFor(/^api +\| CRD memcacheds\.cache\.example\.com serverside-applied/);
    await session.waitFor(/^tsop +\| applied memcached\.cache\.example\.com\/memcached-sample serverside-applied/);
    await session.waitFor(/^operator \| reconciled memcached default\/memcached-sample: success/, 0, 150_000);
    await session.waitFor(
      /^tsop +\| status: control plane up · 1 CRD · 1 object · operator running \(pid \d+\) · last reconcile memcached default\/memcached-sample: success/,
    );
    const message = await eventually(
      () => kubectl('get', 'memcached', 'memcached-sample', '-o', 'jsonpath={.status.conditions[0].message}'),
      (m) => m === 'Memcached reconciled',
    );
    expect(message).toBe('Memcached reconciled');
  }, 200_000);

  it('an API type gains a spec field: manifests regenerated, the CRD on the server gains it, the sample stays', async () => {
    const from = session.lines.length;
    const types = join(dir, 'src/api/v1alpha1/memcached.ts');
    writeFileSync(
      types,
      readFileSync(types, 'utf8').replace(
        '  foo?: string;\n',
        '  foo?: string;\n\n  /** How many cache entries to keep. */\n  entries?: string;\n',
      ),
    );
    await session.waitFor(/^api +\| API types changed/, from);
    await session.waitFor(/^api +\| wrote config\/crd\/bases\/cache\.example\.com_memcacheds\.yaml/, from);
    await session.waitFor(/^api +\| CRD memcacheds\.cache\.example\.com serverside-applied/, from);
    const field = kubectl(
      'get',
      'crd',
      'memcacheds.cache.example.com',
      '-o',
      'jsonpath={.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.entries.description}',
    );
    expect(field).toBe('How many cache entries to keep.');
    expect(kubectl('get', 'memcached', 'memcached-sample', '-o', 'jsonpath={.metadata.name}')).toBe('memcached-sample');
  }, 120_000);

  it('an API change that removes a field is reported as breaking, with the manifests --check report', async () => {
    const from = session.lines.length;
    const types = join(dir, 'src/api/v1alpha1/memcached.ts');
    writeFileSync(
      types,
      readFileSync(types, 'utf8').replace('\n  /** How many cache entries to keep. */\n  entries?: string;\n', ''),
    );
    await session.waitFor(/^api +\| breaking changes:/, from);
    const report = await session.waitFor(
      /^api +\| {3}config\/crd\/bases\/cache\.example\.com_memcacheds\.yaml: .*entries/,
      from,
    );
    expect(report.line).toMatch(/removed/);
    await session.waitFor(/^api +\| CRD memcacheds\.cache\.example\.com serverside-applied/, from);
  }, 120_000);

  it('the controller changes: type-checked, the operator restarts and the sample shows the new behaviour; the control plane keeps its objects', async () => {
    await session.waitFor(/^tsop +\| operator ready/, session.lines.length - 1, 60_000).catch(() => undefined);
    const from = session.lines.length;
    const controller = join(dir, 'src/controllers/memcached-controller.ts');
    writeFileSync(
      controller,
      readFileSync(controller, 'utf8').replace(
        "message: 'Memcached reconciled',",
        "message: 'Memcached reconciled by the edited controller',",
      ),
    );
    await session.waitFor(/^tsop +\| source changed: type-checking/, from);
    await session.waitFor(/^tsop +\| type-check passed in \d+ ms; restarting the operator/, from);
    const ready = await session.waitFor(/^tsop +\| operator ready (\d+) ms after the change/, from);
    const latencyMs = Number(/ready (\d+) ms/.exec(ready.line)![1]);
    console.log(
      `tsop dev restart latency (save → type-check → operator restarted with caches synced): ${latencyMs} ms`,
    );
    expect(latencyMs).toBeGreaterThan(0);
    const message = await eventually(
      () => kubectl('get', 'memcached', 'memcached-sample', '-o', 'jsonpath={.status.conditions[0].message}'),
      (m) => m === 'Memcached reconciled by the edited controller',
    );
    expect(message).toBe('Memcached reconciled by the edited controller');
  }, 120_000);

  it('a type error keeps the running operator and says so', async () => {
    const from = session.lines.length;
    const controller = join(dir, 'src/controllers/memcached-controller.ts');
    const good = readFileSync(controller, 'utf8');
    writeFileSync(controller, good.replace("type: 'Available',", 'type: 42,'));
    const error = await session.waitFor(
      /^tsop +\| type error: src\/controllers\/memcached-controller\.ts:\d+:\d+ /,
      from,
    );
    expect(error.line).toMatch(/number/);
    await session.waitFor(/^tsop +\| 1 type error; the operator keeps running the previous code/, from);
    writeFileSync(controller, good);
    await session.waitFor(/^tsop +\| operator ready/, from);
  }, 120_000);

  it('a sample changes: it is re-applied', async () => {
    const from = session.lines.length;
    const sample = join(dir, 'config/samples/cache_v1alpha1_memcached.yaml');
    writeFileSync(sample, readFileSync(sample, 'utf8').replace('foo: bar', 'foo: baz'));
    await session.waitFor(/^tsop +\| sample changed: config\/samples\/cache_v1alpha1_memcached\.yaml/, from);
    await session.waitFor(
      /^tsop +\| applied memcached\.cache\.example\.com\/memcached-sample serverside-applied/,
      from,
    );
    expect(kubectl('get', 'memcached', 'memcached-sample', '-o', 'jsonpath={.spec.foo}')).toBe('baz');
  }, 120_000);

  it('--kubeconfig runs the loop against an existing cluster and leaves that cluster running on Ctrl-C', async () => {
    const child = spawn(
      process.execPath,
      [join(TSOP, 'bin/tsop.js'), 'dev', '--kubeconfig', kubeconfig, '--samples=false'],
      {
        cwd: dir,
        env: { ...process.env, TMPDIR: sessionTmp, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const second = new Session(child);
    try {
      await second.waitFor(
        new RegExp(
          `^tsop +\\| cluster of ${kubeconfig.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(its current context\\)`,
        ),
      );
      await second.waitFor(/^api +\| CRD memcacheds\.cache\.example\.com serverside-applied/);
      await second.waitFor(/^tsop +\| operator ready \d+ ms after its start/);
      expect(second.lines.some((l) => /applied memcached/.test(l))).toBe(false);
    } finally {
      child.kill('SIGINT');
    }
    expect(await second.exited).toBe(130);
    expect(second.lines.at(-1)).toMatch(/^tsop +\| stopped: operator, temp files removed$/);
    expect(kubectl('get', 'memcached', 'memcached-sample', '-o', 'jsonpath={.metadata.name}')).toBe('memcached-sample');
  }, 120_000);

  it('Ctrl-C stops the operator and the control plane and leaves no process or temp file behind', async () => {
    const pid = Number(
      /pid (\d+)/.exec(session.lines.filter((l) => /operator running \(pid/.test(l)).at(-1) ?? '')?.[1],
    );
    expect(pid).toBeGreaterThan(0);
    const planeDir = join(kubeconfig, '..');
    const from = session.lines.length;
    session.child.kill('SIGINT');
    // 128 + SIGINT, as a shell reports Ctrl-C; the operator stops before the plane, so it logs no error.
    expect(await session.exited).toBe(130);
    expect(session.lines.slice(from).filter((l) => /ERROR|ECONNRESET/.test(l))).toEqual([]);
    expect(session.lines.at(-1)).toMatch(/^tsop +\| stopped: operator, control plane, temp files removed/);
    expect(() => process.kill(pid, 0)).toThrow();
    // No etcd or kube-apiserver of this session is left: their command lines name its dir.
    const left = processesMentioning(planeDir);
    expect(left).toEqual([]);
    // Node's compile cache for the CLI is kept on purpose (as scripts/check-temp-leftovers.sh keeps it).
    expect(readdirSync(sessionTmp).filter((f) => !/^(tsop|node)-compile-cache$/.test(f))).toEqual([]);
  }, 60_000);

  it('--keep: an object made in one session is there in the next --keep session; only the data dir stays', async () => {
    const keepDir = join(dir, '.tsop/dev');
    const run = async (): Promise<{ session: Session; kubeconfig: string }> => {
      const child = spawn(process.execPath, [join(TSOP, 'bin/tsop.js'), 'dev', '--keep', '--samples=false'], {
        cwd: dir,
        env: { ...process.env, TMPDIR: sessionTmp, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const kept = new Session(child);
      await kept.waitFor(
        /^tsop +\| data kept in \.tsop\/dev \(the next 'tsop dev --keep' starts with these objects\)$/,
        0,
        150_000,
      );
      const exported = await kept.waitFor(/^tsop +\| .*export KUBECONFIG=(\S+)/, 0, 150_000);
      await kept.waitFor(/^tsop +\| operator ready \d+ ms after its start/, 0, 150_000);
      return { session: kept, kubeconfig: /export KUBECONFIG=(\S+)/.exec(exported.line)![1]! };
    };
    const stop = async (kept: Session): Promise<void> => {
      kept.child.kill('SIGINT');
      expect(await kept.exited).toBe(130);
      expect(kept.lines.at(-1)).toMatch(
        /^tsop +\| stopped: operator, control plane, temp files removed; data kept in \.tsop\/dev$/,
      );
    };

    const first = await run();
    try {
      kubeconfig = first.kubeconfig;
      expect(kubectl('create', 'configmap', 'kept-by-dev', '--from-literal=answer=42')).toMatch(
        /configmap\/kept-by-dev created/,
      );
      // A second session on the same data while this one runs: refused in one line, nothing started.
      const clash = new Session(
        spawn(process.execPath, [join(TSOP, 'bin/tsop.js'), 'dev', '--keep'], {
          cwd: dir,
          env: { ...process.env, TMPDIR: sessionTmp, NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      expect(await clash.exited).toBe(2);
      expect(clash.lines.filter((l) => /^tsop: /.test(l))).toEqual([
        expect.stringMatching(
          /^tsop: dev: --keep: \/.*\/\.tsop\/dev is in use by a running etcd \(pid \d+\); stop that control plane first or use another folder$/,
        ),
      ]);
    } finally {
      await stop(first.session);
    }
    expect(existsSync(join(keepDir, 'etcd'))).toBe(true);

    const second = await run();
    try {
      // A new control plane (new temp dir, new certificates) on the same data.
      expect(second.kubeconfig).not.toBe(first.kubeconfig);
      kubeconfig = second.kubeconfig;
      expect(kubectl('get', 'configmap', 'kept-by-dev', '-o', 'jsonpath={.data.answer}')).toBe('42');
      // The CRD and the sample of the first (non --keep) session are not there: that one kept nothing.
      expect(kubectl('get', 'memcached', 'memcached-sample', '-o', 'jsonpath={.metadata.name}')).toMatch(/not ?found/i);
    } finally {
      await stop(second.session);
    }
    // Nothing else: no process on the kept data, no temp file; the data dir stays for next time.
    const onData = processesMentioning(keepDir);
    expect(onData).toEqual([]);
    expect(readdirSync(sessionTmp).filter((f) => !/^(tsop|node)-compile-cache$/.test(f))).toEqual([]);
    expect(readdirSync(keepDir)).toEqual(['etcd']);
  }, 400_000);
});
