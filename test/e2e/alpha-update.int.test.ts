/**
 * `tsop alpha update` from version A to version B, both published to a real registry on loopback
 * (package-registry.ts) and both packed from this checkout; B differs from A in its templates
 * (main.ts' header comment, the Dockerfile's base image) and in one runtime file, and C drops a
 * runtime export the scaffolded controller uses. A project made by `npx tsop@A` and edited by its
 * user is updated by `npx tsop@B alpha update` on a branch of its own: the untouched runtime (by
 * its CHECKSUMS) is replaced, the user's edits to a controller and to src/main.ts survive next to
 * B's changes in one commit, and the user's branch is untouched until they merge; a conflicting
 * edit is reported by file name and left as an unmerged path `git status` explains, with the
 * commit message prepared (with --ci: nothing committed, no branch left, exit 1); a dirty tree and
 * a version no registry has are refused with one line; A named by its tarball works; the update to C
 * type-checks the project and names the runtime change behind each error.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TSOP_VERSION } from '../../src/version.js';
import { startLocalRegistry, type LocalRegistry } from './package-registry.js';
import { linkNodeModules } from '../scaffold/node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const MINUTES = 60_000;
const BASE = TSOP_VERSION.replace(/-.*$/, '');
const A = `${BASE}-update.1`;
const B = `${BASE}-update.2`;
const C = `${BASE}-update.3`;
const B_HEADER = "The operator's entry point (changed in tsop B)";
/** The builder stage's base image line, whatever image this checkout's template names. */
const BUILDER_FROM = /FROM [^\s\\]+ AS builder/;
const B_RUNTIME_LINE = '// Changed in tsop B.';

/** Edits `file` in place (the first match); fails the test when `from` is not in it. */
function edit(file: string, from: string | RegExp, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(typeof from === 'string' ? text.includes(from) : from.test(text), `${file} should contain ${from}`).toBe(true);
  writeFileSync(file, text.replace(from, to));
}

describe('tsop alpha update', () => {
  let registry: LocalRegistry;
  let work: string;
  let env: Record<string, string>;
  const run = (cmd: string, args: string[], cwd: string) =>
    execa(cmd, args, { cwd, env, extendEnv: false, all: true, reject: false });
  const ok = async (cmd: string, args: string[], cwd: string): Promise<string> => {
    const r = await run(cmd, args, cwd);
    expect(r.exitCode, `${cmd} ${args.join(' ')}\n${r.all}`).toBe(0);
    return r.stdout;
  };

  /** The checkout packed as `version`; `change` edits the unpacked package before it is packed again. */
  /** A's tarball, as published. */
  let packedA: string;
  async function publishAs(version: string, packed: string, change?: (pkg: string) => void): Promise<string> {
    const dir = join(work, `pkg-${version}`);
    mkdirSync(dir);
    await ok('tar', ['-xzf', packed, '-C', dir], work);
    const pkg = join(dir, 'package');
    edit(join(pkg, 'package.json'), `"version": "${TSOP_VERSION}"`, `"version": "${version}"`);
    change?.(pkg);
    const out = await ok('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], pkg);
    const tarball = join(dir, (JSON.parse(out) as Array<{ filename: string }>)[0]!.filename);
    await registry.publish(tarball);
    return tarball;
  }

  beforeAll(async () => {
    registry = await startLocalRegistry();
    work = mkdtempSync(join(tmpdir(), 'tsop-alpha-update-'));
    env = {
      ...registry.env,
      NO_COLOR: '1',
      GIT_AUTHOR_NAME: 'User',
      GIT_AUTHOR_EMAIL: 'user@example.com',
      GIT_COMMITTER_NAME: 'User',
      GIT_COMMITTER_EMAIL: 'user@example.com',
    };
    const out = await ok('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], TSOP);
    const packed = join(work, (JSON.parse(out) as Array<{ filename: string }>)[0]!.filename);
    packedA = await publishAs(A, packed);
    await publishAs(B, packed, (pkg) => {
      const templates = join(pkg, 'dist/bundle/templates.precompiled.cjs');
      edit(templates, "The operator's entry point", B_HEADER);
      edit(templates, BUILDER_FROM, 'FROM node:26-bookworm-slim AS builder');
      const manager = join(pkg, 'runtime/manager/manager.ts');
      writeFileSync(manager, `${readFileSync(manager, 'utf8')}${B_RUNTIME_LINE}\n`);
    });
    await publishAs(C, packed, (pkg) => {
      const templates = join(pkg, 'dist/bundle/templates.precompiled.cjs');
      edit(templates, "The operator's entry point", B_HEADER);
      edit(templates, BUILDER_FROM, 'FROM node:26-bookworm-slim AS builder');
      const manager = join(pkg, 'runtime/manager/manager.ts');
      writeFileSync(manager, `${readFileSync(manager, 'utf8')}${B_RUNTIME_LINE}\n`);
      // A breaking runtime change: the client no longer exports patchStatus, which the scaffolded controller calls.
      edit(
        join(pkg, 'runtime/client/index.ts'),
        "export { patchStatus, type WithStatus } from './status.js';\n",
        "export { type WithStatus } from './status.js';\n",
      );
    });
  }, 5 * MINUTES);

  afterAll(async () => {
    await registry?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  let project: string;
  it(
    'scaffolds with A and lets the user commit edits',
    async () => {
      project = join(work, 'shop-operator');
      mkdirSync(project);
      await ok('npx', ['--yes', `tsop@${A}`, 'init', '--domain', 'example.com', '--skip-install'], project);
      await ok(
        'npx',
        ['--yes', `tsop@${A}`, 'create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Order'],
        project,
      );
      expect(readFileSync(join(project, 'src/runtime/VERSION'), 'utf8')).toBe(`${A}\n`);
      await ok('sha256sum', ['--check', '--strict', '--quiet', 'CHECKSUMS'], join(project, 'src/runtime'));
      await ok('git', ['init', '-q', '-b', 'main'], project);
      await ok('git', ['add', '-A'], project);
      await ok('git', ['commit', '-q', '-m', 'scaffold'], project);
      edit(
        join(project, 'src/main.ts'),
        '// +kubebuilder:scaffold:imports',
        "// +kubebuilder:scaffold:imports\n// The user's own line in main.ts.",
      );
      writeFileSync(
        join(project, 'src/controllers/order-controller.ts'),
        `${readFileSync(join(project, 'src/controllers/order-controller.ts'), 'utf8')}\n/** The user's own export. */\nexport const userNote = 'kept';\n`,
      );
      await ok('git', ['commit', '-q', '-am', 'user edits'], project);
    },
    10 * MINUTES,
  );

  it(
    'refuses a dirty tree with one line and changes nothing',
    async () => {
      writeFileSync(join(project, 'README.md'), `${readFileSync(join(project, 'README.md'), 'utf8')}\nuncommitted\n`);
      const refused = await run('npx', ['--yes', `tsop@${B}`, 'alpha', 'update'], project);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused.stderr).toMatch(
        /^tsop: alpha update: .* has 1 uncommitted change\(s\) \(first: README\.md\); commit or stash them first/,
      );
      expect(await ok('git', ['status', '--porcelain'], project)).toBe(' M README.md');
      await ok('git', ['checkout', '--', 'README.md'], project);
      // A version no registry has: npm's own error (ETARGET here, E404 where no tsop is published), and how to name an unpublished version, in one line.
      const missing = await run('npx', ['--yes', `tsop@${B}`, 'alpha', 'update', '--from-version', '9.9.9'], project);
      expect(missing.exitCode).toBe(1);
      expect(missing.stderr.trim().split('\n')).toHaveLength(1);
      expect(missing.stderr).toMatch(
        new RegExp(
          /^tsop: alpha update: could not install tsop 9\.9\.9 from tsop@9\.9\.9 \(npm (E404|ETARGET): .*\); /.source +
            /if tsop 9\.9\.9 was installed from a tarball or git rather than a registry, pass it: --from-version file:/
              .source,
        ),
      );
      expect(await ok('git', ['status', '--porcelain'], project)).toBe('');
      expect(await ok('git', ['branch', '--list'], project)).toBe('* main');
    },
    5 * MINUTES,
  );

  /** A clone of the project whose user pinned the builder image (a conflict with B) and patched the runtime. */
  async function conflicting(name: string): Promise<string> {
    const other = join(work, name);
    await ok('git', ['clone', '-q', project, other], work);
    edit(join(other, 'Dockerfile'), BUILDER_FROM, 'FROM node:22.12-bookworm-slim AS builder');
    // A user edit to the runtime: it is merged file by file instead of replaced.
    edit(join(other, 'src/runtime/manager/manager.ts'), '\n', "\n// The user's fix in the runtime.\n");
    await ok('git', ['commit', '-q', '-am', 'user pins node and patches the runtime'], other);
    return other;
  }

  it(
    "reports a conflicting edit by file name and leaves it unmerged on the update branch for git status; the user's branch is untouched",
    async () => {
      const other = await conflicting('conflicting');
      const mainBefore = await ok('git', ['rev-parse', 'main'], other);
      const update = await run('npx', ['--yes', `tsop@${B}`, 'alpha', 'update'], other);
      expect(update.exitCode, update.all).toBe(1);
      expect(update.stderr).toMatch(
        new RegExp(
          `^tsop: alpha update: 1 file\\(s\\) conflict between your changes and tsop .*: Dockerfile; ` +
            `they are unmerged on branch 'tsop-update-from-${A}-to-${B}' \\(your branch 'main' is ` +
            `untouched\\) and the type-check did not run: .*: resolve the markers and 'git add' each file, then run 'npm install'`,
          'm',
        ),
      );
      expect(await ok('git', ['rev-parse', '--abbrev-ref', 'HEAD'], other)).toBe(`tsop-update-from-${A}-to-${B}`);
      expect(await ok('git', ['rev-parse', 'main'], other)).toBe(mainBefore);
      const status = await ok('git', ['status', '--porcelain'], other);
      expect(status).toMatch(/^UU Dockerfile$/m);
      expect(status).toMatch(/^M {2}src\/runtime\/manager\/manager\.ts$/m);
      const dockerfile = readFileSync(join(other, 'Dockerfile'), 'utf8');
      expect(dockerfile).toMatch(/^<<<<<<< Dockerfile \(yours\)\nFROM node:22\.12-bookworm-slim AS builder\n/m);
      expect(dockerfile).toContain('FROM node:26-bookworm-slim AS builder');
      // A runtime file the user changed is merged and named; the commit message is prepared for `git commit --no-edit`.
      expect(update.stderr).toMatch(/^ {2}merged {3}src\/runtime\/manager\/manager\.ts$/m);
      expect(readFileSync(join(other, '.git/MERGE_MSG'), 'utf8')).toMatch(
        new RegExp(`^Update tsop scaffolding from ${A} to ${B}\n`),
      );
      const manager = readFileSync(join(other, 'src/runtime/manager/manager.ts'), 'utf8');
      expect(manager).toContain("// The user's fix in the runtime.");
      expect(manager).toContain(B_RUNTIME_LINE);
      // Giving up, as the message says, leaves the user where they were.
      await ok('git', ['checkout', '-q', '-f', 'main'], other);
      await ok('git', ['branch', '-q', '-D', `tsop-update-from-${A}-to-${B}`], other);
      expect(await ok('git', ['status', '--porcelain'], other)).toBe('');
      expect(readFileSync(join(other, 'Dockerfile'), 'utf8')).toContain('FROM node:22.12-bookworm-slim AS builder');
    },
    10 * MINUTES,
  );

  it(
    '--ci: conflicts commit nothing and leave no update branch; the user is back where they were, and the exit code is 1',
    async () => {
      const other = await conflicting('conflicting-ci');
      const mainBefore = await ok('git', ['rev-parse', 'main'], other);
      const update = await run(
        'npx',
        ['--yes', `tsop@${B}`, 'alpha', 'update', '--ci', '--output-branch', 'tsop-update'],
        other,
      );
      expect(update.exitCode, update.all).toBe(1);
      expect(update.stderr).toMatch(
        new RegExp(
          /^tsop: alpha update: 1 file\(s\) conflict between your changes and tsop .*: Dockerfile; nothing was committed/
            .source +
            / and your branch 'main' is as it was: run 'npx tsop alpha update' \(without --ci\) where someone can resolve them$/
              .source,
          'm',
        ),
      );
      expect(await ok('git', ['status', '--porcelain'], other)).toBe('');
      expect(await ok('git', ['rev-parse', '--abbrev-ref', 'HEAD'], other)).toBe('main');
      expect(await ok('git', ['branch', '--list', 'tsop-update'], other)).toBe('');
      expect(await ok('git', ['rev-parse', 'main'], other)).toBe(mainBefore);
    },
    10 * MINUTES,
  );

  it(
    'updates to B in one commit on the update branch: runtime replaced, user edits kept, B changes in; main moves only when merged',
    async () => {
      const mainBefore = await ok('git', ['rev-parse', 'main'], project);
      // The old version named by its tarball, as for a tsop no registry has.
      const update = await run(
        'npx',
        ['--yes', `tsop@${B}`, 'alpha', 'update', '--from-version', `file:${packedA}`],
        project,
      );
      expect(update.exitCode, update.all).toBe(0);
      expect(update.stderr).toMatch(/^ {2}merged {3}src\/main\.ts$/m);
      // The runtime replaced as a whole is one line of counts (manager.ts, VERSION, CHECKSUMS).
      expect(update.stderr).toMatch(
        /^ {2}runtime {2}src\/runtime\/: 3 file\(s\) from tsop's new runtime \(3 updated\)$/m,
      );
      const branch = `tsop-update-from-${A}-to-${B}`;
      expect(update.stderr).toContain(
        `on branch '${branch}' (tsop ${A} → ${B}); your branch 'main' is untouched: review with 'git diff main...${branch}', merge with 'git checkout main && git merge ${branch}'`,
      );
      // No packages installed here: the type-check says it did not run, and how to run it.
      expect(update.stderr).toContain(
        "alpha update: the type-check did not run: the project's packages are not installed",
      );
      expect(await ok('git', ['status', '--porcelain'], project)).toBe('');
      expect(await ok('git', ['rev-parse', 'main'], project)).toBe(mainBefore);
      expect(await ok('git', ['log', '--format=%s', '-1', branch], project)).toBe(
        `Update tsop scaffolding from ${A} to ${B}`,
      );
      await ok('git', ['checkout', '-q', 'main'], project);
      await ok('git', ['merge', '-q', '--ff-only', branch], project);
      const main = readFileSync(join(project, 'src/main.ts'), 'utf8');
      expect(main).toContain(B_HEADER);
      expect(main).toContain("// The user's own line in main.ts.");
      expect(readFileSync(join(project, 'src/controllers/order-controller.ts'), 'utf8')).toContain(
        "export const userNote = 'kept';",
      );
      expect(readFileSync(join(project, 'src/runtime/manager/manager.ts'), 'utf8')).toMatch(
        new RegExp(`${B_RUNTIME_LINE}\n$`),
      );
      expect(readFileSync(join(project, 'src/runtime/VERSION'), 'utf8')).toBe(`${B}\n`);
      // B's CHECKSUMS came with B's runtime, so the next update sees it untouched again.
      await ok('sha256sum', ['--check', '--strict', '--quiet', 'CHECKSUMS'], join(project, 'src/runtime'));
      expect(readFileSync(join(project, 'Dockerfile'), 'utf8')).toContain('FROM node:26-bookworm-slim AS builder');
      expect(readFileSync(join(project, 'PROJECT'), 'utf8')).toContain(`cliVersion: ${B}`);
      expect(
        (JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
          .devDependencies['tsop'],
      ).toBe(`^${B}`);
    },
    10 * MINUTES,
  );

  it(
    '--to-version C, which drops a runtime export the controller calls: the update is committed, then each type error is reported with the runtime change behind it (exit 1)',
    async () => {
      // The project's packages, as `npm install` would leave them (tsop's own, linked; ignored by git).
      linkNodeModules(project);
      writeFileSync(join(project, '.git/info/exclude'), 'node_modules\n');
      const update = await run('npx', ['--yes', `tsop@${B}`, 'alpha', 'update', '--to-version', C], project);
      expect(update.exitCode, update.all).toBe(1);
      const lines = update.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('tsop: '));
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            /^tsop: src\/controllers\/order-controller\.ts:\d+:\d+: TS2305 Module/.source +
              / '"\.\.\/runtime\/client\/index\.js"' has no exported member 'patchStatus'\. — caused by tsop/.source +
              / .*-update\.3: src\/runtime\/client\/index\.ts no longer has `export \{ patchStatus, type WithStatus/
                .source +
              / \} from '\.\/status\.js';`$/.source,
          ),
        ),
      );
      expect(lines[lines.length - 1]).toMatch(
        /^tsop: alpha update: the update is committed, but the project has \d+ type error\(s\)/,
      );
      expect(await ok('git', ['log', '--format=%s', '-1', `tsop-update-from-${B}-to-${C}`], project)).toBe(
        `Update tsop scaffolding from ${B} to ${C}`,
      );
      expect(await ok('git', ['log', '--format=%s', '-1', 'main'], project)).toBe(
        `Update tsop scaffolding from ${A} to ${B}`,
      );
    },
    10 * MINUTES,
  );
});
