/**
 * `tsop alpha update` (kubebuilder's command): bring a project to a newer tsop's scaffolding on a
 * branch of its own, leaving the user's branch untouched until they merge it.
 *
 * 1. The scaffolds of both versions from the branch's PROJECT (--from-version, default PROJECT's
 *    cliVersion; --to-version, default this tsop), see src/upgrade/scaffold.ts.
 * 2. A new branch `tsop-update-from-<from>-to-<to>` (--output-branch) from the branch being
 *    updated (--from-branch, default the one checked out), checked out in the project's work tree.
 * 3. The 3-way merge (src/upgrade/three-way.ts); the manifests regenerated; `npm install` when the
 *    dependencies changed; one commit.
 * 4. The project's type-check; each error is reported with the tsop change that caused it
 *    (src/upgrade/explain.ts).
 *
 * Conflicts stay as unmerged paths on the new branch for the user to resolve; with --force (and
 * always with --ci) they are committed with their markers, so a job can push the branch for a
 * person to finish. Conflicts and type errors exit 1 (src/cli/exit-codes.ts); --ci opens nothing
 * interactive and also fails when the type-check cannot run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { UsageError, UserError, UserErrors } from '../errors.js';
import { recordedPlugins } from '../plugins/catalog.js';
import { helmPlugin } from '../plugins/helm/plugin.js';
import { PROJECT_FILE } from '../project/config.js';
import { loadProject } from '../project/load.js';
import { explainError, tsopChanges } from '../upgrade/explain.js';
import { scaffoldAt } from '../upgrade/scaffold.js';
import { applyUpdate, readTree, type Outcome } from '../upgrade/three-way.js';
import { typeCheck } from '../upgrade/typecheck.js';
import { TSOP_VERSION } from '../version.js';
import { stdio, type CommandIO } from './io.js';
import { checkFlags, type FlagsOf } from './flag-spec.js';
import { ALPHA_UPDATE_FLAGS } from './command-flags.js';

export type AlphaUpdateFlags = FlagsOf<typeof ALPHA_UPDATE_FLAGS>;

export async function runAlphaUpdate(given: AlphaUpdateFlags, io: CommandIO = stdio): Promise<void> {
  const flags = checkFlags(ALPHA_UPDATE_FLAGS, given);
  const root = resolve(flags.dir ?? process.cwd());
  const config = await loadProject(root, 'alpha update');
  const from = flags.fromVersion ?? config.cliVersion;
  if (!from)
    throw new UserError(
      `alpha update: PROJECT in ${root} records no cliVersion; pass --from-version <the tsop version that scaffolded it>`,
    );
  const to = flags.toVersion ?? TSOP_VERSION;
  const git = gitIn(root);
  await requireCleanGitTree(root);
  const start = await git(['rev-parse', '--abbrev-ref', 'HEAD']);
  const base = flags.fromBranch ?? start;
  if (base === 'HEAD')
    throw new UserError(
      'alpha update: no branch is checked out (a detached HEAD); check out the branch to update, or pass --from-branch <branch>',
    );
  if (!(await refExists(git, `refs/heads/${base}`)))
    throw new UserError(`alpha update: --from-branch: there is no branch '${base}' in this repository`);
  if (from === to) {
    io.err(`alpha update: the project is already at tsop ${to}; nothing to do\n`);
    return;
  }
  const branch = flags.outputBranch ?? `tsop-update-from-${from}-to-${to}`;
  if (await refExists(git, `refs/heads/${branch}`)) {
    throw new UserError(
      `alpha update: branch '${branch}' exists already (an earlier update?); delete it with 'git branch -D ${branch}', or pass --output-branch <name>`,
    );
  }
  const prefix = await git(['rev-parse', '--show-prefix']);
  const projectText = await git(['show', `${base}:${prefix}${PROJECT_FILE}`]);

  const work = mkdtempSync(join(tmpdir(), 'tsop-update-'));
  try {
    const ancestor = join(work, 'ancestor');
    const ours = join(work, 'ours');
    io.err(`alpha update: scaffolding the project with tsop ${from} and with tsop ${to}...\n`);
    const { generateProject } = await import('./alpha-generate.js');
    await scaffoldAt(from, projectText, ancestor, generateProject);
    await scaffoldAt(to, projectText, ours, generateProject);

    await git(['checkout', '-q', '-b', branch, base]);
    let outcomes: Map<string, Outcome>;
    try {
      outcomes = await applyUpdate(root, ancestor, ours, { from, to });
    } catch (error) {
      // Nothing of the user's is on the new branch yet: go back as if nothing happened.
      await execa('git', ['checkout', '-q', '-f', start], { cwd: root, reject: false });
      await execa('git', ['branch', '-q', '-D', branch], { cwd: root, reject: false });
      throw error;
    }
    for (const [path, outcome] of [...outcomes].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (outcome !== 'kept') io.err(`  ${outcome.padEnd(8)} ${path}\n`);
    }
    const conflicts = [...outcomes].filter(([, o]) => o === 'conflict').map(([p]) => p);
    const giveUp = `to give the update up: git checkout -f ${base} && git branch -D ${branch}`;
    if (conflicts.length > 0) {
      const what = `${conflicts.length} file(s) conflict between your changes and tsop ${to}: ${conflicts.join(', ')}`;
      if (!flags.force && !flags.ci) {
        throw new UserError(
          `alpha update: ${what}; they are unmerged on branch '${branch}' (your branch '${base}' is ` +
            `untouched): resolve the markers, 'git add' them, 'git commit', then 'npm run manifests' ` +
            `('git status' lists them; ${giveUp})`,
        );
      }
      await git(['add', '-A']);
      const sha = await commit(
        git,
        `Update tsop scaffolding from ${from} to ${to} (with conflicts)`,
        `Made by 'tsop alpha update': ${conflicts.length} file(s) hold conflict markers: ${conflicts.join(', ')}.`,
      );
      throw new UserError(
        `alpha update: ${what}; committed with their markers as ${sha} on branch '${branch}' (your branch '${base}' is untouched) for someone to resolve`,
      );
    }

    const { runManifests } = await import('./manifests.js');
    await runManifests({ dir: root, outputDir: 'config' }, { out: () => undefined, err: (t) => io.err(t) });
    const installed = await installWhenDependenciesChanged(root, git, base, prefix, flags, io);
    await git(['add', '-A']);
    if ((await git(['diff', '--cached', '--name-only'])) === '') {
      await git(['checkout', '-q', start]);
      await git(['branch', '-q', '-D', branch]);
      io.err(`alpha update: tsop ${from} and ${to} scaffold this project the same; nothing to commit\n`);
      return;
    }
    const changed = [...outcomes].filter(([, o]) => o !== 'kept').length;
    const sha = await commit(
      git,
      `Update tsop scaffolding from ${from} to ${to}`,
      `Made by 'tsop alpha update': ${changed} file(s) changed by a 3-way merge.`,
    );
    io.err(
      `alpha update: committed ${sha} on branch '${branch}' (tsop ${from} → ${to}); your branch ` +
        `'${base}' is untouched: review with 'git diff ${base}...${branch}', merge with 'git ` +
        `checkout ${base} && git merge ${branch}' (${giveUp})\n`,
    );
    // dist/ is not merged: the chart is rebuilt from the updated config/ by its own plugin.
    if (recordedPlugins(config).includes(helmPlugin))
      io.err(
        `alpha update: the Helm chart is not part of the merge; run 'npx tsop edit --plugins ${helmPlugin.key}' to rebuild it from config/ (your values.yaml and Chart.yaml are kept)\n`,
      );

    if (flags.typecheck === false) return;
    await reportTypeErrors(root, { from, to, ancestor, ours, installed, ci: flags.ci === true }, io);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The project's type-check on the committed result; each error with the tsop change behind it. */
async function reportTypeErrors(
  root: string,
  o: { from: string; to: string; ancestor: string; ours: string; installed: boolean; ci: boolean },
  io: CommandIO,
): Promise<void> {
  const checked = await typeCheck(root);
  if (!checked.ran) {
    const line = `alpha update: the type-check did not run: ${checked.why}; run 'npm install' and 'npx tsc -p tsconfig.json --noEmit'`;
    if (o.ci) throw new UsageError(line);
    io.err(`${line}\n`);
    return;
  }
  if (checked.errors.length === 0 && checked.other.length === 0) {
    io.err(`alpha update: the project type-checks with tsop ${o.to}\n`);
    return;
  }
  const changes = tsopChanges(readTree(o.ancestor), readTree(o.ours));
  const lines = [...checked.other, ...checked.errors.map((e) => explainError(e, changes, o))];
  throw new UserErrors([
    ...lines.map((l) => new UserError(l)),
    new UserError(
      `alpha update: the update is committed, but the project has ${lines.length} type error(s) (above, each with the tsop change behind it); fix them on the update branch`,
    ),
  ]);
}

/**
 * `npm install` when the update changed package.json's dependencies and the project has its
 * packages installed (or in CI), so the type-check sees the new ones and package-lock.json is
 * part of the update's commit.
 */
async function installWhenDependenciesChanged(
  root: string,
  git: Git,
  base: string,
  prefix: string,
  flags: AlphaUpdateFlags,
  io: CommandIO,
): Promise<boolean> {
  const deps = (text: string): string => {
    try {
      const pkg = JSON.parse(text) as Record<string, unknown>;
      return JSON.stringify([pkg['dependencies'], pkg['devDependencies']]);
    } catch {
      return text;
    }
  };
  const before = await git(['show', `${base}:${prefix}package.json`]).catch(() => '');
  const now = existsSync(join(root, 'package.json')) ? readFileSync(join(root, 'package.json'), 'utf8') : '';
  if (deps(before) === deps(now) || (!flags.ci && !existsSync(join(root, 'node_modules')))) return false;
  io.err('alpha update: the dependencies changed; running npm install...\n');
  const install = await execa('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, all: true, reject: false });
  if (install.exitCode !== 0) {
    const last = (install.all ?? '').trim().split('\n').pop() ?? '';
    io.err(`alpha update: npm install failed (${last}); run it yourself on the update branch\n`);
    return false;
  }
  return true;
}

type Git = (args: string[]) => Promise<string>;

function gitIn(cwd: string): Git {
  return async (args) => (await execa('git', args, { cwd })).stdout.trim();
}

async function refExists(git: Git, ref: string): Promise<boolean> {
  return git(['show-ref', '--verify', '--quiet', ref]).then(
    () => true,
    () => false,
  );
}

async function commit(git: Git, subject: string, body: string): Promise<string> {
  await git(['commit', '-q', '-m', `${subject}\n\n${body}`]);
  return git(['rev-parse', '--short', 'HEAD']);
}

async function requireCleanGitTree(root: string): Promise<void> {
  const inside = await execa('git', ['rev-parse', '--is-inside-work-tree'], { cwd: root, reject: false });
  if (inside.exitCode !== 0 || inside.stdout.trim() !== 'true') {
    throw new UsageError(
      `alpha update: ${root} is not in a git work tree; commit the project to git first ('git init && git add -A && git commit'), so the update can be reviewed and undone`,
    );
  }
  // Not trimmed: each line starts with its two status columns.
  const status = (
    await execa('git', ['status', '--porcelain', '--untracked-files=all', '--', '.'], { cwd: root })
  ).stdout
    .split('\n')
    .filter(Boolean);
  if (status.length > 0) {
    throw new UserError(
      `alpha update: ${root} has ${status.length} uncommitted change(s) (first: ${status[0]!.slice(3)}); commit or stash them first, so that no change of yours can be lost`,
    );
  }
}
