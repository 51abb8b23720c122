/**
 * tsop's compatibility promise, end to end: code written against the previous release's templates
 * compiles, and passes its tests, after `alpha update` to this one.
 *
 * The previous release is built from this repository's history: OLD_RELEASE is the last commit
 * whose reconciler took its client in its constructor (`new OrderReconciler(mgr.client)`), the
 * change the issue that asked for this test tripped over. Both it and this checkout are packed and
 * published to a registry on loopback (package-registry.ts). A project made by `npx tsop@0.1.0`
 * gets its user's edits in 0.1's API — a client given to the reconciler in their own test, the
 * reconciler's `this.client` and `this.recorder` in their logic, an import of their own, a line in
 * main.ts, a field in the spec — and is committed on main. `npx tsop@<this> alpha update` commits
 * the update on a branch of its own (main untouched), installs the new dependencies and
 * type-checks it; on that branch `npm test` (manifests, tsc, the controller tests against a real
 * control plane) passes, and `tsop manifests` warns at each line that uses what 0.3 removes.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TSOP_VERSION } from '../../src/version.js';
import { cleanEnv, startLocalRegistry, type LocalRegistry } from './package-registry.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const MINUTES = 60_000;
/** The parent of the commit that made reconcilers take their client from the manager (cfaad56). */
const OLD_RELEASE = 'cfaad5619cef5668fa4ddb933c5beef1c55b8146^';
const OLD = '0.1.0';

/** Edits `file` in place (the first match); fails the test when `from` is not in it. */
function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text.includes(from), `${file} should contain ${from}`).toBe(true);
  writeFileSync(file, text.replace(from, to));
}

describe('a project of the previous release, updated with alpha update', () => {
  let registry: LocalRegistry;
  let work: string;
  let project: string;
  const env = () => ({
    ...registry.env,
    NO_COLOR: '1',
    GIT_AUTHOR_NAME: 'User',
    GIT_AUTHOR_EMAIL: 'user@example.com',
    GIT_COMMITTER_NAME: 'User',
    GIT_COMMITTER_EMAIL: 'user@example.com',
  });
  const run = (cmd: string, args: string[], cwd: string) =>
    execa(cmd, args, { cwd, env: env(), extendEnv: false, all: true, reject: false });
  const ok = async (cmd: string, args: string[], cwd: string): Promise<string> => {
    const r = await run(cmd, args, cwd);
    expect(r.exitCode, `${cmd} ${args.join(' ')}\n${r.all}`).toBe(0);
    return r.stdout;
  };
  const branch = `tsop-update-from-${OLD}-to-${TSOP_VERSION}`;

  beforeAll(async () => {
    // The old release comes from git history: a clone without it cannot run this test, so it says how to get it.
    try {
      execFileSync('git', ['cat-file', '-e', `${OLD_RELEASE}^{commit}`], { cwd: TSOP, stdio: 'ignore' });
    } catch {
      throw new Error(
        `this test builds tsop ${OLD} from commit ${OLD_RELEASE}, which this clone lacks; run 'git fetch --unshallow' (or clone without --depth)`,
      );
    }
    registry = await startLocalRegistry();
    work = mkdtempSync(join(tmpdir(), 'tsop-upgrade-compat-'));
    const publish = async (dir: string): Promise<void> => {
      const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
        cwd: dir,
        env: cleanEnv(),
        extendEnv: false,
        all: true,
        reject: false,
      });
      expect(packed.exitCode, packed.all).toBe(0);
      await registry.publish(join(work, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename));
    };
    // The previous release, built as its own `npm install` would build it.
    const old = join(work, 'tsop-old');
    mkdirSync(old);
    const archive = execFileSync('git', ['archive', OLD_RELEASE], { cwd: TSOP, maxBuffer: 256 * 1024 * 1024 });
    await execa('tar', ['-x', '-C', old], { input: archive });
    expect(JSON.parse(readFileSync(join(old, 'package.json'), 'utf8')).version).toBe(OLD);
    for (const args of [
      ['ci', '--ignore-scripts', '--no-audit', '--no-fund'],
      ['run', '--silent', 'build'],
    ]) {
      const step = await execa('npm', args, { cwd: old, env: cleanEnv(), extendEnv: false, all: true, reject: false });
      expect(step.exitCode, `npm ${args.join(' ')} in tsop ${OLD}\n${step.all}`).toBe(0);
    }
    await publish(old);
    // This checkout's dist/ is built once per run by the integration project's globalSetup.
    await publish(TSOP);
  }, 15 * MINUTES);

  afterAll(async () => {
    await registry?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it(
    `scaffolds with tsop ${OLD}, and the user edits it with 0.1's API and commits on main`,
    async () => {
      project = join(work, 'shop-operator');
      mkdirSync(project);
      await ok('npx', ['--yes', `tsop@${OLD}`, 'init', '--domain', 'example.com', '--skip-install'], project);
      await ok(
        'npx',
        [
          '--yes',
          `tsop@${OLD}`,
          'create',
          'api',
          '--group',
          'shop',
          '--version',
          'v1',
          '--kind',
          'Order',
          '--resource',
          '--controller',
        ],
        project,
      );
      const controller = join(project, 'src/controllers/order-controller.ts');
      expect(readFileSync(controller, 'utf8')).toContain('constructor(private readonly client: Client) {}');
      edit(
        controller,
        'import { controllerFor } from',
        "import { configMapKind } from '../runtime/apimachinery/index.js';\nimport { controllerFor } from",
      );
      edit(
        controller,
        '    // Add your logic here: compare the spec with what exists and create, update or delete.\n',
        [
          '    // Add your logic here: compare the spec with what exists and create, update or delete.',
          "    // The user's logic, written against tsop 0.1: the client and the recorder are fields of the reconciler.",
          '    const configMaps = await this.client.list(configMapKind, { namespace: req.namespace, signal: ctx.signal });',
          '    this.noteConfigMaps(order, configMaps.items.length);',
          '',
        ].join('\n'),
      );
      edit(
        controller,
        '  setupWithManager(mgr: Manager): void {',
        [
          "  /** The user's helper: an event through the recorder field. */",
          '  private noteConfigMaps(order: Order, count: number): void {',
          "    this.recorder?.event(order, 'Normal', 'ConfigMapsSeen', 'Reconcile', `${count} config map(s) in ${order.spec?.region ?? 'no region'}`);",
          '  }',
          '',
          '  setupWithManager(mgr: Manager): void {',
        ].join('\n'),
      );
      edit(
        join(project, 'src/api/v1/order.ts'),
        '  foo?: string;\n',
        "  foo?: string;\n  /** The region the order ships to (the user's field). */\n  region?: string;\n",
      );
      edit(
        join(project, 'src/controllers/order-controller.test.ts'),
        "  it('returns without error for a Order that does not exist', async () => {",
        [
          '  it("the user\'s own test: a reconciler given a client, as tsop 0.1\'s test builds it", async () => {',
          '    const own = new OrderReconciler(client);',
          "    expect(await own.reconcile({ namespace: 'default', name: 'nothing-here' }, ctx())).toBeFalsy();",
          '  });',
          '',
          "  it('returns without error for a Order that does not exist', async () => {",
        ].join('\n'),
      );
      edit(
        join(project, 'src/main.ts'),
        '// +kubebuilder:scaffold:imports',
        "// +kubebuilder:scaffold:imports\n// The user's own line in main.ts.",
      );
      // Installed as the user works with it (tsop 0.1.0 from the registry, by its ^0.1.0 range), and
      // committed with its package-lock.json.
      await ok('npm', ['install', '--no-audit', '--no-fund'], project);
      await ok('git', ['init', '-q', '-b', 'main'], project);
      await ok('git', ['add', '-A'], project);
      await ok('git', ['commit', '-q', '-m', "scaffold with tsop 0.1.0 and the user's edits"], project);
      expect(await ok('git', ['ls-files', 'package-lock.json'], project)).toBe('package-lock.json');
      expect(await ok('git', ['status', '--porcelain'], project)).toBe('');
    },
    15 * MINUTES,
  );

  it(
    'alpha update commits the update on a branch of its own, installs its new dependencies and type-checks it; main is untouched',
    async () => {
      const main = await ok('git', ['rev-parse', 'main'], project);
      const update = await run('npx', ['--yes', `tsop@${TSOP_VERSION}`, 'alpha', 'update'], project);
      expect(update.exitCode, update.all).toBe(0);
      expect(update.stderr).not.toMatch(/^\s+conflict /m);
      expect(update.stderr).toMatch(/^ {2}merged {3}src\/controllers\/order-controller\.ts$/m);
      expect(update.stderr).toContain('alpha update: the dependencies changed; running npm install...');
      expect(update.stderr).toContain(`alpha update: the project type-checks with tsop ${TSOP_VERSION}`);
      expect(await ok('git', ['rev-parse', 'main'], project)).toBe(main);
      expect(await ok('git', ['rev-parse', '--abbrev-ref', 'HEAD'], project)).toBe(branch);
      expect(await ok('git', ['status', '--porcelain'], project)).toBe('');
      const controller = readFileSync(join(project, 'src/controllers/order-controller.ts'), 'utf8');
      // The user's code in 0.1's API is kept, next to the new template's.
      expect(controller).toContain('const configMaps = await this.client.list(configMapKind');
      expect(controller).toContain("this.recorder?.event(order, 'Normal', 'ConfigMapsSeen'");
      expect(controller).toContain('const { client, recorder } = this.wired();');
      expect(readFileSync(join(project, 'PROJECT'), 'utf8')).toContain(`cliVersion: ${TSOP_VERSION}`);
      expect(readFileSync(join(project, 'src/runtime/VERSION'), 'utf8')).toBe(`${TSOP_VERSION}\n`);
    },
    15 * MINUTES,
  );

  it(
    "on the update branch, npm test passes (manifests, type-check, the user's and tsop's controller tests on a real control plane), and manifests warns at each use of what 0.3 removes",
    async () => {
      const test = await run('npm', ['test'], project);
      expect(test.exitCode, test.all).toBe(0);
      expect(test.all).toMatch(/✓ src\/controllers\/order-controller\.test\.ts \(3 tests\)/);
      const controller = readFileSync(join(project, 'src/controllers/order-controller.ts'), 'utf8').split('\n');
      const at = (needle: string): number => controller.findIndex((l) => l.includes(needle)) + 1;
      expect(test.all).toContain(
        `tsop: warning: src/controllers/order-controller.ts:${at('await this.client.list')}: this.client is deprecated since tsop 0.2.0, removed in 0.3.0`,
      );
      expect(test.all).toContain(
        `tsop: warning: src/controllers/order-controller.ts:${at('this.recorder?.event')}: this.recorder is deprecated since tsop 0.2.0, removed in 0.3.0`,
      );
      expect(test.all).toMatch(
        /tsop: warning: src\/controllers\/order-controller\.test\.ts:\d+: new OrderReconciler\(client\) is deprecated since tsop 0\.2\.0/,
      );
    },
    15 * MINUTES,
  );

  it(
    'merging the branch brings main the update',
    async () => {
      await ok('git', ['checkout', '-q', 'main'], project);
      await ok('git', ['merge', '-q', '--ff-only', branch], project);
      expect(await ok('git', ['log', '--format=%s', '-1'], project)).toBe(
        `Update tsop scaffolding from ${OLD} to ${TSOP_VERSION}`,
      );
    },
    MINUTES,
  );
});
