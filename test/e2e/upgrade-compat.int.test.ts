/**
 * tsop's compatibility promise, end to end: code written against the previous release's templates
 * compiles, and passes its tests, after `alpha update` to this one — for a project that installed
 * tsop from tarballs, as the book's install does, with no registry that knows tsop.
 *
 * The previous release is built from this repository's history: OLD_RELEASE is the last commit
 * whose reconciler took its client in its constructor (`new OrderReconciler(mgr.client)`). Both it
 * and this checkout are packed to tarballs; the registry on loopback (package-registry.ts) serves
 * every other package and no tsop at all. A project made by tsop 0.1.0 installed from its tarball
 * — two groups (`edit --multigroup` between them), a webhook — gets its user's edits in 0.1's
 * API (a client given to the reconciler in their own test, `this.client` and `this.recorder`, a
 * deep import of a runtime file that has since moved, a test suite of their own on the embedded
 * harness, which has since moved into tsop's package, an import of their own, a line in main.ts, a
 * field in the spec, a dev dependency sorting next to tsop) and is committed on main. The CI
 * recipe of docs/guides/upgrades.md, run as written (the new tarball for `tsop@latest`), installs
 * the new tsop, commits the update on its branch (main untouched) and pushes it; on that branch
 * `npm test` (manifests, tsc, the controller tests against a real control plane) passes, and
 * `tsop manifests` warns at each line that uses what 0.3 removes. A user whose edit conflicts with
 * the new template gets the type-check report all the same, and finishes with `git commit --no-edit`.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
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
/** Where the previous release's tarball is kept between runs, by commit (as the control-plane binaries are). */
const OLD_RELEASE_CACHE = join(process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'tsop-test', 'releases');

/** A test file of the user's, written against 0.1: the harness imported from the embedded runtime. */
const USER_SUITE = `import { expect, it } from 'vitest';
import { configMapKind } from '../../runtime/apimachinery/index.js';
import { createClient } from '../../runtime/client/index.js';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';

describeWithControlPlane('config maps', {}, (env) => {
  it('reads back what it wrote', async () => {
    const client = createClient(env.cp.kubeConfig);
    try {
      await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'user-suite', namespace: 'default' }, data: { region: 'eu' } });
      const read = await client.get(configMapKind, { namespace: 'default', name: 'user-suite' });
      expect(read.data?.['region']).toBe('eu');
    } finally {
      client.close();
    }
  });
});
`;

/** Edits `file` in place (the first match); fails the test when `from` is not in it. */
function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text.includes(from), `${file} should contain ${from}`).toBe(true);
  writeFileSync(file, text.replace(from, to));
}

/** The CI recipe of the upgrades guide, as written there. */
function ciRecipe(): string {
  const guide = readFileSync(join(TSOP, 'docs/guides/upgrades.md'), 'utf8');
  const section = guide.slice(guide.indexOf('## In CI'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  expect(block, 'the upgrades guide has a CI recipe').toBeDefined();
  return block!;
}

describe('a project of the previous release, installed from tarballs, updated with alpha update', () => {
  let registry: LocalRegistry;
  let work: string;
  let project: string;
  /** The packed tsop of each version. */
  let oldTarball: string;
  let newTarball: string;
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
  const branch = 'tsop-update';

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
    const pack = async (dir: string): Promise<string> => {
      const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
        cwd: dir,
        env: cleanEnv(),
        extendEnv: false,
        all: true,
        reject: false,
      });
      expect(packed.exitCode, packed.all).toBe(0);
      return join(work, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);
    };
    // The previous release, built as its own `npm install` would build it, once per machine: a
    // commit's tarball never changes, and its npm ci and tsc build cost half a minute of CPU.
    const oldSha = execFileSync('git', ['rev-parse', `${OLD_RELEASE}^{commit}`], {
      cwd: TSOP,
      encoding: 'utf8',
    }).trim();
    const cached = join(OLD_RELEASE_CACHE, `tsop-${OLD}-${oldSha}.tgz`);
    oldTarball = join(work, `tsop-${OLD}.tgz`);
    if (existsSync(cached)) copyFileSync(cached, oldTarball);
    else {
      const old = join(work, 'tsop-old');
      mkdirSync(old);
      const archive = execFileSync('git', ['archive', OLD_RELEASE], { cwd: TSOP, maxBuffer: 256 * 1024 * 1024 });
      await execa('tar', ['-x', '-C', old], { input: archive });
      expect(JSON.parse(readFileSync(join(old, 'package.json'), 'utf8')).version).toBe(OLD);
      for (const args of [
        ['ci', '--ignore-scripts', '--no-audit', '--no-fund'],
        ['run', '--silent', 'build'],
      ]) {
        const step = await execa('npm', args, {
          cwd: old,
          env: cleanEnv(),
          extendEnv: false,
          all: true,
          reject: false,
        });
        expect(step.exitCode, `npm ${args.join(' ')} in tsop ${OLD}\n${step.all}`).toBe(0);
      }
      renameSync(await pack(old), oldTarball);
      rmSync(old, { recursive: true, force: true });
      // Written under a temporary name and renamed, so a run stopped midway leaves no half tarball.
      mkdirSync(OLD_RELEASE_CACHE, { recursive: true });
      copyFileSync(oldTarball, `${cached}.${process.pid}`);
      renameSync(`${cached}.${process.pid}`, cached);
    }
    // This checkout's dist/ is built once per run by the integration project's globalSetup.
    newTarball = await pack(TSOP);
  }, 15 * MINUTES);

  afterAll(async () => {
    await registry?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it(
    `scaffolds with tsop ${OLD} from its tarball (two groups, a webhook), and the user edits it with 0.1's API and commits on main`,
    async () => {
      project = join(work, 'shop-operator');
      mkdirSync(project);
      // Installed as the book installs it: tsop from its tarball, then the project's own `npx tsop`.
      await ok(
        'npx',
        ['--yes', '--package', oldTarball, 'tsop', 'init', '--domain', 'example.com', '--skip-install'],
        project,
      );
      // With a dev dependency of the user's that sorts right before tsop.
      await ok('npm', ['install', '--no-audit', '--no-fund', '-D', oldTarball, '@types/semver@7'], project);
      const tsop = (...args: string[]) => ok('npx', ['tsop', ...args], project);
      // Both groups after `edit --multigroup`: 0.1.0 scaffolds a kind made before it under its
      // group's folder all the same, so its own scaffold disagrees with such a project.
      await tsop('edit', '--multigroup');
      await tsop(
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
      );
      await tsop('create', 'webhook', '--group', 'shop', '--version', 'v1', '--kind', 'Order', '--defaulting');
      await tsop(
        'create',
        'api',
        '--group',
        'billing',
        '--version',
        'v1',
        '--kind',
        'Invoice',
        '--resource',
        '--controller',
      );
      const controller = join(project, 'src/controllers/shop/order-controller.ts');
      expect(readFileSync(controller, 'utf8')).toContain('constructor(private readonly client: Client) {}');
      edit(
        controller,
        'import { controllerFor } from',
        [
          "import { configMapKind } from '../../runtime/apimachinery/index.js';",
          // A deep import of a runtime file that moved to runtime/rest/ since 0.1.0.
          "import { HttpStatusError } from '../../runtime/apimachinery/http.js';",
          'import { controllerFor } from',
        ].join('\n'),
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
          "  /** The user's helper: a status error from the API server, by the deep import. */",
          '  static isStatusError(error: unknown): boolean {',
          '    return error instanceof HttpStatusError;',
          '  }',
          '',
          '  setupWithManager(mgr: Manager): void {',
        ].join('\n'),
      );
      edit(
        join(project, 'src/api/shop/v1/order.ts'),
        '  foo?: string;\n',
        "  foo?: string;\n  /** The region the order ships to (the user's field). */\n  region?: string;\n",
      );
      edit(
        join(project, 'src/controllers/shop/order-controller.test.ts'),
        "  it('returns without error for a Order that does not exist', async () => {",
        [
          '  it("the user\'s own test: a reconciler given a client, as tsop 0.1\'s test builds it", async () => {',
          '    const own = new OrderReconciler(client);',
          "    expect(await own.reconcile({ namespace: 'default', name: 'nothing-here' }, ctx())).toBeFalsy();",
          '    expect(OrderReconciler.isStatusError(new Error())).toBe(false);',
          '  });',
          '',
          "  it('returns without error for a Order that does not exist', async () => {",
        ].join('\n'),
      );
      // A suite of the user's own on 0.1's embedded harness, which tsop has since moved into its package.
      writeFileSync(join(project, 'src/controllers/shop/config-map.test.ts'), USER_SUITE);
      edit(
        join(project, 'src/main.ts'),
        '// +kubebuilder:scaffold:imports',
        "// +kubebuilder:scaffold:imports\n// The user's own line in main.ts.",
      );
      // Committed with its package-lock.json, which records where tsop came from.
      const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
      expect(pkg.devDependencies.tsop).toMatch(/^file:.*tsop-0\.1\.0\.tgz$/);
      expect(
        Object.keys(pkg.devDependencies).indexOf('tsop') - Object.keys(pkg.devDependencies).indexOf('@types/semver'),
      ).toBe(1);
      await ok('git', ['init', '-q', '-b', 'main'], project);
      await ok('git', ['add', '-A'], project);
      await ok('git', ['commit', '-q', '-m', "scaffold with tsop 0.1.0 and the user's edits"], project);
      expect(await ok('git', ['status', '--porcelain'], project)).toBe('');
    },
    15 * MINUTES,
  );

  it(
    "the guide's CI recipe, run as written, installs the new tsop, commits the update on its branch and pushes it; main is untouched",
    async () => {
      const origin = join(work, 'origin.git');
      await ok('git', ['init', '-q', '--bare', origin], work);
      await ok('git', ['remote', 'add', 'origin', origin], project);
      const main = await ok('git', ['rev-parse', 'main'], project);
      const recipe = ciRecipe();
      expect(recipe).toContain('npm i -D tsop@latest');
      const update = await run('bash', ['-e', '-c', recipe.replace('tsop@latest', newTarball)], project);
      expect(update.exitCode, update.all).toBe(0);
      expect(update.stderr).not.toMatch(/^\s+conflict /m);
      expect(update.stderr).toMatch(/^ {2}merged {3}src\/controllers\/shop\/order-controller\.ts$/m);
      expect(update.stderr).toMatch(/^ {2}merged {3}package\.json$/m);
      // The runtime is one line of counts, not a hundred lines.
      expect(update.stderr).toMatch(/^ {2}runtime {2}src\/runtime\/: \d+ file\(s\) from tsop's new runtime \(/m);
      expect(update.stderr).not.toMatch(/^ {2}\w+ +src\/runtime\/\S+\.ts$/m);
      expect(update.stderr).toContain('alpha update: the dependencies changed; running npm install...');
      expect(update.stderr).toContain(`alpha update: the project type-checks with tsop ${TSOP_VERSION}`);
      expect(await ok('git', ['rev-parse', 'main'], project)).toBe(main);
      expect(await ok('git', ['rev-parse', '--abbrev-ref', 'HEAD'], project)).toBe(branch);
      expect(await ok('git', ['status', '--porcelain'], project)).toBe('');
      expect(await ok('git', ['rev-parse', branch], origin)).toBe(await ok('git', ['rev-parse', branch], project));
      const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
      expect(pkg.devDependencies.tsop).toMatch(/^file:.*tsop-0\.2\.0\.tgz$/);
      expect(pkg.devDependencies['@types/semver']).toMatch(/^\^7\./);
      const controller = readFileSync(join(project, 'src/controllers/shop/order-controller.ts'), 'utf8');
      // The user's code in 0.1's API is kept, next to the new template's.
      expect(controller).toContain('const configMaps = await this.client.list(configMapKind');
      expect(controller).toContain("this.recorder?.event(order, 'Normal', 'ConfigMapsSeen'");
      expect(controller).toContain("import { HttpStatusError } from '../../runtime/apimachinery/http.js';");
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
      expect(test.all).toMatch(/✓ src\/controllers\/shop\/order-controller\.test\.ts \(3 tests\)/);
      // The user's suite on the harness's old path: the shim hands it the harness from the package.
      expect(test.all).toMatch(/✓ src\/controllers\/shop\/config-map\.test\.ts \(1 test\)/);
      expect(test.all).toContain(
        "tsop: warning: src/controllers/shop/config-map.test.ts:4: describeWithControlPlane (from the runtime) is deprecated since tsop 0.3.0, removed in 0.4.0: import it from 'tsop/testing'.",
      );
      const controller = readFileSync(join(project, 'src/controllers/shop/order-controller.ts'), 'utf8').split('\n');
      const at = (needle: string): number => controller.findIndex((l) => l.includes(needle)) + 1;
      expect(test.all).toContain(
        `tsop: warning: src/controllers/shop/order-controller.ts:${at('await this.client.list')}: this.client is deprecated since tsop 0.2.0, removed in 0.3.0`,
      );
      expect(test.all).toContain(
        `tsop: warning: src/controllers/shop/order-controller.ts:${at('this.recorder?.event')}: this.recorder is deprecated since tsop 0.2.0, removed in 0.3.0`,
      );
      expect(test.all).toMatch(
        /tsop: warning: src\/controllers\/shop\/order-controller\.test\.ts:\d+: new OrderReconciler\(client\) is deprecated since tsop 0\.2\.0/,
      );
    },
    15 * MINUTES,
  );

  it(
    'a user whose edit conflicts with the new template gets npm install and the type-check report all the same, and finishes with git commit --no-edit',
    async () => {
      const other = join(work, 'conflicting');
      await ok('git', ['clone', '-q', '-b', 'main', project, other], work);
      // The packages as the update branch left them (ignored by git): npm install finds nothing to do.
      symlinkSync(join(project, 'node_modules'), join(other, 'node_modules'), 'dir');
      edit(
        join(other, 'src/controllers/shop/order-controller.ts'),
        'constructor(private readonly client: Client) {}',
        "constructor(private readonly client: Client, private readonly zone = 'eu') {}",
      );
      await ok('git', ['commit', '-q', '-am', 'the user gives the reconciler a zone'], other);
      // As the guide's first recipe: the new tsop installed (uncommitted), then the update.
      await ok('npm', ['i', '-D', '--no-audit', '--no-fund', newTarball], other);
      const update = await run('npx', ['tsop', 'alpha', 'update'], other);
      expect(update.exitCode, update.all).toBe(1);
      const updateBranch = `tsop-update-from-${OLD}-to-${TSOP_VERSION}`;
      const lines = update.stderr.trim().split('\n');
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^tsop: src\/controllers\/shop\/order-controller\.ts:\d+:\d+: TS1185 Merge conflict marker encountered\. — a conflict the update left in this file/,
        ),
      );
      expect(lines[lines.length - 1]).toMatch(
        new RegExp(
          `^tsop: alpha update: \\d+ file\\(s\\) conflict between your changes and tsop ${TSOP_VERSION.replace(/\./g, '\\.')}: .*src/controllers/shop/order-controller\\.ts.*; ` +
            `they are unmerged on branch '${updateBranch}' \\(your branch 'main' is untouched\\) and the project has \\d+ type error\\(s\\) .*` +
            "run 'npm install', 'npx tsc -p tsconfig\\.json --noEmit' and 'npm run manifests', and 'git add -A && git commit --no-edit'",
        ),
      );
      expect(await ok('git', ['status', '--porcelain'], other)).toMatch(
        /^UU src\/controllers\/shop\/order-controller\.ts$/m,
      );
      // Resolved by taking tsop's side; the prepared message is the commit's.
      const unmerged = (await ok('git', ['diff', '--name-only', '--diff-filter=U'], other)).split('\n');
      await ok('git', ['checkout', '--theirs', '--', ...unmerged], other);
      await ok('git', ['add', '-A'], other);
      await ok('git', ['commit', '-q', '--no-edit'], other);
      expect(await ok('git', ['log', '--format=%s', '-1'], other)).toBe(
        `Update tsop scaffolding from ${OLD} to ${TSOP_VERSION}`,
      );
      expect(existsSync(join(other, '.git/MERGE_MSG'))).toBe(false);
      expect(
        await ok('git', ['show', '--format=', '--name-only', 'HEAD', '--', 'package.json', 'package-lock.json'], other),
      ).toBe('package-lock.json\npackage.json');
    },
    15 * MINUTES,
  );
});
