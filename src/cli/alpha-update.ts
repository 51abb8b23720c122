/**
 * `tsop alpha update` (kubebuilder's command): bring a project to a newer tsop's scaffolding on a
 * branch of its own, leaving the user's branch untouched until they merge it.
 *
 * 1. The scaffolds of both versions from the branch's PROJECT (--from-version, default PROJECT's
 *    cliVersion, found where the project's package-lock.json says it came from; --to-version,
 *    default this tsop; either may be a tarball or git ref), see src/upgrade/tsop-source.ts.
 * 2. A new branch `tsop-update-from-<from>-to-<to>` (--output-branch) from the branch being
 *    updated (--from-branch, default the one checked out), checked out in the project's work tree.
 * 3. The 3-way merge (src/upgrade/three-way.ts); the manifests regenerated; `npm install` when the
 *    dependencies changed; one commit.
 * 4. The project's type-check; each error is reported with the tsop change that caused it
 *    (src/upgrade/explain.ts).
 *
 * Conflicts stay as unmerged paths on the new branch for the user to resolve, with `npm install`
 * and the type-check report run all the same and the commit message prepared (MERGE_MSG); with
 * --force they are committed with their markers; --ci commits nothing that has conflicts (the
 * update branch is not left behind). Conflicts and type errors exit 1 (src/cli/exit-codes.ts);
 * --ci opens nothing interactive and also fails when the type-check cannot run. Uncommitted
 * changes to package.json and package-lock.json (the `npm i -D tsop@<new>` before the update)
 * are taken along onto the update branch.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { UsageError, UserError, UserErrors } from '../errors.js';
import { recordedPlugins } from '../plugins/catalog.js';
import { helmPlugin } from '../plugins/helm/plugin.js';
import { PROJECT_FILE } from '../project/config.js';
import { loadProject } from '../project/load.js';
import { explainError, tsopChanges } from '../upgrade/explain.js';
import { projectForUpdate, usedModules } from '../upgrade/runtime-modules.js';
import { installedTsop, type ScaffoldingTsop, thisTsop } from '../upgrade/scaffold.js';
import { applyUpdate, readTree, type Outcome, type UpdateResult } from '../upgrade/three-way.js';
import { branchPart, isVersion, tsopSpec } from '../upgrade/tsop-source.js';
import { typeCheck } from '../upgrade/typecheck.js';
import { TSOP_VERSION } from '../version.js';
import { stdio, type CommandIO } from './io.js';
import { checkFlags, type FlagsOf } from '../flag.js';
import { ALPHA_UPDATE_FLAGS } from './command-flags.js';

export type AlphaUpdateFlags = FlagsOf<typeof ALPHA_UPDATE_FLAGS>;

export async function runAlphaUpdate(given: AlphaUpdateFlags, io: CommandIO = stdio): Promise<void> {
  const flags = checkFlags(ALPHA_UPDATE_FLAGS, given);
  const root = resolve(flags.dir ?? process.cwd());
  const config = await loadProject(root, 'alpha update');
  const fromGiven = flags.fromVersion ?? config.cliVersion;
  if (!fromGiven)
    throw new UserError(
      `alpha update: PROJECT in ${root} records no cliVersion; pass --from-version <the tsop version that scaffolded it, or its tarball or git ref>`,
    );
  const git = gitIn(root);
  const carried = await requireCleanGitTree(root);
  const start = await git(['rev-parse', '--abbrev-ref', 'HEAD']);
  const base = flags.fromBranch ?? start;
  if (base === 'HEAD')
    throw new UserError(
      'alpha update: no branch is checked out (a detached HEAD); check out the branch to update, or pass --from-branch <branch>',
    );
  if (!(await refExists(git, `refs/heads/${base}`)))
    throw new UserError(`alpha update: --from-branch: there is no branch '${base}' in this repository`);
  if (carried.length > 0 && base !== start)
    throw new UserError(
      `alpha update: ${root} has uncommitted changes to ${carried.join(' and ')}, which only an update of the branch checked out ('${start}') can take along; commit them, or update '${start}'`,
    );
  if (flags.outputBranch !== undefined) await requireBranchName(git, flags.outputBranch);
  if (flags.toVersion === undefined && isVersion(fromGiven) && fromGiven.replace(/^v/, '') === TSOP_VERSION) {
    io.err(`alpha update: the project is already at tsop ${TSOP_VERSION}; nothing to do\n`);
    return;
  }
  const prefix = await git(['rev-parse', '--show-prefix']);
  const projectText = await git(['show', `${base}:${prefix}${PROJECT_FILE}`]);
  const lockText = await git(['show', `${base}:${prefix}package-lock.json`]).catch(() => undefined);

  const work = mkdtempSync(join(tmpdir(), 'tsop-update-'));
  try {
    const { generateProject } = await import('./alpha-generate.js');
    const tsopAt = async (given: string | undefined, name: string): Promise<ScaffoldingTsop> => {
      if (given === undefined || given.replace(/^v/, '') === TSOP_VERSION) return thisTsop(generateProject);
      const spec = tsopSpec(given, lockText, root, process.cwd());
      return installedTsop(spec, join(work, name), given);
    };
    const fromTsop = await tsopAt(fromGiven, 'from-tsop');
    const toTsop = await tsopAt(flags.toVersion, 'to-tsop');
    const [from, to] = [fromTsop.version, toTsop.version];
    if (from === to) {
      io.err(`alpha update: the project is already at tsop ${to}; nothing to do\n`);
      return;
    }
    const branch = flags.outputBranch ?? `tsop-update-from-${branchPart(from)}-to-${branchPart(to)}`;
    await requireBranchName(git, branch);
    if (await refExists(git, `refs/heads/${branch}`)) {
      throw new UserError(
        `alpha update: branch '${branch}' exists already (an earlier update?); delete it with 'git branch -D ${branch}', or pass --output-branch <name>`,
      );
    }
    const ancestor = join(work, 'ancestor');
    const ours = join(work, 'ours');
    io.err(`alpha update: scaffolding the project with tsop ${from} and with tsop ${to}...\n`);
    await fromTsop.scaffold(projectText, ancestor);
    // This tsop's scaffold takes in the sharding a project of tsop ≤ 0.2 uses without PROJECT saying so.
    const used = usedModules(root);
    const target = toTsop.version === TSOP_VERSION ? projectForUpdate(projectText, used) : projectText;
    await toTsop.scaffold(target, ours);

    const kept = new Map(carried.map((p) => [p, readFileSync(join(root, p))]));
    /** Back on the user's branch as if nothing happened, their uncommitted package files as they were. */
    const giveBack = async (): Promise<void> => {
      await execa('git', ['checkout', '-q', '-f', start], { cwd: root, reject: false });
      await execa('git', ['branch', '-q', '-D', branch], { cwd: root, reject: false });
      for (const [p, content] of kept) writeFileSync(join(root, p), content);
    };
    await git(['checkout', '-q', '-b', branch, base]);
    let update: UpdateResult;
    try {
      update = await applyUpdate(root, ancestor, ours, { from, to }, used);
    } catch (error) {
      await giveBack();
      throw error;
    }
    const { outcomes } = update;
    for (const line of outcomeLines(outcomes)) io.err(`${line}\n`);
    for (const note of update.notes) io.err(`alpha update: ${note}\n`);
    const conflicts = [...outcomes].filter(([, o]) => o === 'conflict').map(([p]) => p);
    const giveUp = `to give the update up: git checkout -f ${base} && git branch -D ${branch}`;
    const report = { from, to, ancestor, ours };
    if (conflicts.length > 0) {
      const what = `${conflicts.length} file(s) conflict between your changes and tsop ${to}: ${conflicts.join(', ')}`;
      const subject = `Update tsop scaffolding from ${from} to ${to}`;
      if (flags.ci && !flags.force) {
        // Nothing half-merged is committed in CI: a person resolves the conflicts where they can see them.
        await giveBack();
        throw new UserError(
          `alpha update: ${what}; nothing was committed and your branch '${base}' is as it was: run 'npx tsop alpha update' (without --ci) where someone can resolve them`,
        );
      }
      if (flags.force) {
        await git(['add', '-A']);
        const sha = await commit(
          git,
          `${subject} (with conflicts)`,
          `Made by 'tsop alpha update': ${conflicts.length} file(s) hold conflict markers: ${conflicts.join(', ')}.`,
        );
        throw new UserError(
          `alpha update: ${what}; committed with their markers as ${sha} on branch '${branch}' (your branch '${base}' is untouched) for someone to resolve`,
        );
      }
      // `git commit --no-edit` takes this message once the conflicts are resolved, as after a `git merge`.
      const mergeMsg = resolve(root, await git(['rev-parse', '--git-path', 'MERGE_MSG']));
      writeFileSync(
        mergeMsg,
        `${subject}\n\nMade by 'tsop alpha update' (${conflicts.length} conflict(s) resolved by hand).\n`,
      );
      if (!conflicts.includes('package.json')) await installWhenDependenciesChanged(root, git, base, prefix, flags, io);
      const checked = flags.typecheck === false ? undefined : await typeCheckReport(root, report);
      const steps =
        "resolve the markers and 'git add' each file, then run 'npm install', 'npx tsc -p tsconfig.json --noEmit' " +
        "and 'npm run manifests', and 'git add -A && git commit --no-edit' (the message is prepared)";
      throw new UserErrors([
        ...(checked?.lines ?? []).map((l) => new UserError(l)),
        new UserError(
          `alpha update: ${what}; they are unmerged on branch '${branch}' (your branch '${base}' is untouched)` +
            `${checked?.summary ? ` and ${checked.summary}` : ''}: ${steps} ('git status' lists them; ${giveUp})`,
        ),
      ]);
    }

    const { runManifests } = await import('./manifests.js');
    await runManifests({ dir: root, outputDir: 'config' }, { out: () => undefined, err: (t) => io.err(t) });
    await installWhenDependenciesChanged(root, git, base, prefix, flags, io);
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
    const checked = await typeCheckReport(root, report);
    if (checked.summary === undefined) {
      io.err(`alpha update: the project type-checks with tsop ${to}\n`);
      return;
    }
    if (!checked.ran) {
      const line = `alpha update: ${checked.summary}`;
      if (flags.ci) throw new UsageError(line);
      io.err(`${line}\n`);
      return;
    }
    throw new UserErrors([
      ...checked.lines.map((l) => new UserError(l)),
      new UserError(`alpha update: the update is committed, but ${checked.summary}; fix them on the update branch`),
    ]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The outcome lines: one per file, except the embedded runtime replaced wholesale, which is one
 * line of counts (it is tsop's code, ~100 files); runtime files merged with the user's edits or in
 * conflict are still named.
 */
export function outcomeLines(outcomes: ReadonlyMap<string, Outcome>): string[] {
  const lines: string[] = [];
  const runtime = new Map<Outcome, number>();
  for (const [path, outcome] of [...outcomes].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (outcome === 'kept') continue;
    const wholesale = outcome === 'created' || outcome === 'updated' || outcome === 'deleted';
    if (path.startsWith('src/runtime/') && wholesale) runtime.set(outcome, (runtime.get(outcome) ?? 0) + 1);
    else lines.push(`  ${outcome.padEnd(8)} ${path}`);
  }
  if (runtime.size > 0) {
    const total = [...runtime.values()].reduce((a, b) => a + b, 0);
    const counts = [...runtime].map(([o, n]) => `${n} ${o}`).join(', ');
    lines.unshift(`  runtime  src/runtime/: ${total} file(s) from tsop's new runtime (${counts})`);
  }
  return lines;
}

/**
 * The project's type-check, each error with the tsop change behind it: `summary` undefined when
 * it passes, else what went wrong in a phrase (type errors, or why it could not run).
 */
async function typeCheckReport(
  root: string,
  o: { from: string; to: string; ancestor: string; ours: string },
): Promise<{ ran: boolean; lines: string[]; summary: string | undefined }> {
  const checked = await typeCheck(root);
  if (!checked.ran)
    return {
      ran: false,
      lines: [],
      summary: `the type-check did not run: ${checked.why}; run 'npm install' and 'npx tsc -p tsconfig.json --noEmit'`,
    };
  if (checked.errors.length === 0 && checked.other.length === 0) return { ran: true, lines: [], summary: undefined };
  const changes = tsopChanges(readTree(o.ancestor), readTree(o.ours));
  const lines = [...checked.other, ...checked.errors.map((e) => explainError(e, changes, o))];
  return {
    ran: true,
    lines,
    summary: `the project has ${lines.length} type error(s) (above, each with the tsop change behind it)`,
  };
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

/** Files the update may find changed and take along: the tsop upgrade `npm i -D` just made. */
const CARRIED = ['package.json', 'package-lock.json'];

/**
 * Refuses a tree with uncommitted changes, except package.json and package-lock.json (the
 * `npm i -D tsop@<new>` that precedes an update), which are returned: the update branch takes
 * them along and commits them with the update.
 */
async function requireCleanGitTree(root: string): Promise<string[]> {
  const inside = await execa('git', ['rev-parse', '--is-inside-work-tree'], { cwd: root, reject: false });
  if (inside.exitCode !== 0 || inside.stdout.trim() !== 'true') {
    throw new UsageError(
      `alpha update: ${root} is not in a git work tree; commit the project to git first ('git init && git add -A && git commit'), so the update can be reviewed and undone`,
    );
  }
  const prefix = (await execa('git', ['rev-parse', '--show-prefix'], { cwd: root })).stdout.trim();
  // Not trimmed: each line starts with its two status columns; paths are from the repository's top.
  const status = (
    await execa('git', ['status', '--porcelain', '--untracked-files=all', '--', '.'], { cwd: root })
  ).stdout
    .split('\n')
    .filter(Boolean);
  const carried = status
    .filter((l) => /^(M[ M]| M)$/.test(l.slice(0, 2)) && CARRIED.some((p) => l.slice(3) === `${prefix}${p}`))
    .map((l) => l.slice(3 + prefix.length));
  const other = status.filter((l) => !carried.some((p) => l.slice(3) === `${prefix}${p}`));
  if (other.length > 0) {
    throw new UserError(
      `alpha update: ${root} has ${other.length} uncommitted change(s) (first: ${other[0]!.slice(3)}); ` +
        'commit or stash them first, so that no change of yours can be lost (package.json and package-lock.json may stay uncommitted: the update takes them along)',
    );
  }
  return carried;
}

/** A branch name git accepts, or one line saying why not. */
async function requireBranchName(git: Git, name: string): Promise<void> {
  const ok = await git(['check-ref-format', '--branch', name]).then(
    () => true,
    () => false,
  );
  if (!ok)
    throw new UserError(
      `alpha update: '${name}' is not a valid git branch name (no spaces, '..', ':', '~', '^', '?', '*', '[' or '\\'); pass --output-branch <name>`,
    );
}
