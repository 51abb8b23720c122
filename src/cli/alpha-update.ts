/**
 * `tsop alpha update`: bring a generated project to this tsop's scaffolding with a 3-way merge.
 *
 * - ancestor: what the project's recorded tsop version (PROJECT cliVersion, or --from-version)
 *   scaffolds from PROJECT — that version's own `alpha generate`, run through npx;
 * - theirs: the project as committed; ours: what this tsop scaffolds from the same PROJECT.
 *
 * The embedded runtime (src/runtime/) is tsop's: when it still matches its CHECKSUMS (the user did
 * not touch it) it is replaced wholesale; otherwise each file is merged like any other. Generated
 * manifests (CRDs, role.yaml) are not merged but regenerated. A file is merged with
 * `git merge-file`; a conflict is left with markers and as an unmerged index entry, so
 * `git status` lists it and `git checkout --ours/--theirs` work. It runs only in a git work tree
 * with nothing uncommitted, and a clean update becomes one commit the user can review or revert.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { execa } from 'execa';
import { UsageError, UserError } from '../errors.js';
import { HELM_PLUGIN, HELM_PROJECT_KEY } from '../plugins/helm/index.js';
import { runtimeUnchanged } from '../plugins/runtime.js';
import { loadProject } from '../project/load.js';
import { TSOP_VERSION } from '../version.js';
import { generateProject } from './alpha-generate.js';
import { stdio, type CommandIO } from './io.js';

export interface AlphaUpdateFlags {
  dir?: string;
  fromVersion?: string;
}

const RUNTIME = 'src/runtime/';
/** Written by `tsop manifests`, so regenerated rather than merged. */
const GENERATED = (path: string): boolean => path.startsWith('config/crd/bases/') || path === 'config/rbac/role.yaml';
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'build', 'dist']);

type Outcome = 'created' | 'updated' | 'merged' | 'deleted' | 'conflict' | 'kept';

export async function runAlphaUpdate(flags: AlphaUpdateFlags, io: CommandIO = stdio): Promise<void> {
  const root = resolve(flags.dir ?? process.cwd());
  const config = await loadProject(root, 'alpha update');
  const from = flags.fromVersion ?? config.cliVersion;
  if (!from) throw new UserError(`alpha update: PROJECT in ${root} records no cliVersion; pass --from-version <the tsop version that scaffolded it>`);
  await requireCleanGitTree(root);
  if (from === TSOP_VERSION) {
    io.err(`alpha update: the project is already at tsop ${TSOP_VERSION}; nothing to do\n`);
    return;
  }

  const work = mkdtempSync(join(tmpdir(), 'tsop-update-'));
  try {
    const ancestor = join(work, 'ancestor');
    const ours = join(work, 'ours');
    io.err(`alpha update: scaffolding the project with tsop ${from} (npx tsop@${from} alpha generate)...\n`);
    const old = await execa('npx', ['--yes', `tsop@${from}`, 'alpha', 'generate', '--input-dir', root, '--output-dir', ancestor], { cwd: work, all: true, reject: false });
    if (old.exitCode !== 0) {
      const last = (old.all ?? '').trim().split('\n').pop() ?? '';
      throw new UserError(`alpha update: tsop ${from} could not re-scaffold the project (npx tsop@${from} alpha generate exited ${old.exitCode}: ${last}); pass --from-version with a tsop version that has 'alpha generate'`);
    }
    io.err(`alpha update: scaffolding it with tsop ${TSOP_VERSION}...\n`);
    await generateProject(config, ours);

    const outcomes = await applyUpdate(root, ancestor, ours, from);
    const conflicts = [...outcomes].filter(([, o]) => o === 'conflict').map(([p]) => p);
    const changed = [...outcomes].filter(([, o]) => o !== 'kept' && o !== 'conflict');
    for (const [path, outcome] of [...outcomes].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (outcome !== 'kept') io.err(`  ${outcome.padEnd(8)} ${path}\n`);
    }
    if (conflicts.length > 0) {
      throw new UserError(
        `alpha update: ${conflicts.length} file(s) conflict between your changes and tsop ${TSOP_VERSION}: ${conflicts.join(', ')}; resolve the markers, 'git add' them and 'git commit' ('git status' lists them)`,
      );
    }
    const { runManifests } = await import('./manifests.js');
    await runManifests({ dir: root, outputDir: 'config' }, { out: () => undefined, err: (t) => io.err(t) });
    await git(root, ['add', '-A']);
    const staged = (await git(root, ['diff', '--cached', '--name-only'])).trim();
    if (staged === '') {
      io.err(`alpha update: tsop ${from} and ${TSOP_VERSION} scaffold this project the same; nothing to commit\n`);
      return;
    }
    await git(root, ['commit', '-q', '-m', `Update tsop scaffolding from ${from} to ${TSOP_VERSION}\n\nMade by 'tsop alpha update': ${changed.length} file(s) changed by a 3-way merge.`]);
    const sha = (await git(root, ['rev-parse', '--short', 'HEAD'])).trim();
    io.err(`alpha update: committed ${sha} (tsop ${from} → ${TSOP_VERSION}); review it with 'git show ${sha}', undo it with 'git revert ${sha}'; then run 'npm install'\n`);
    // dist/ is not merged: the chart is rebuilt from the updated config/ by its own plugin.
    if (config.plugins[HELM_PROJECT_KEY] !== undefined) io.err(`alpha update: the Helm chart is not part of the merge; run 'npx tsop edit --plugins ${HELM_PLUGIN}' to rebuild it from config/ (your values.yaml and Chart.yaml are kept)\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function requireCleanGitTree(root: string): Promise<void> {
  const inside = await execa('git', ['rev-parse', '--is-inside-work-tree'], { cwd: root, reject: false });
  if (inside.exitCode !== 0 || inside.stdout.trim() !== 'true') {
    throw new UsageError(`alpha update: ${root} is not in a git work tree; commit the project to git first ('git init && git add -A && git commit'), so the update can be reviewed and undone`);
  }
  const status = (await git(root, ['status', '--porcelain', '--untracked-files=all', '--', '.'])).split('\n').filter(Boolean);
  if (status.length > 0) {
    throw new UserError(`alpha update: ${root} has ${status.length} uncommitted change(s) (first: ${status[0]!.slice(3)}); commit or stash them first, so that no change of yours can be lost`);
  }
}

async function applyUpdate(root: string, ancestorDir: string, oursDir: string, from: string): Promise<Map<string, Outcome>> {
  const ancestor = readTree(ancestorDir);
  const ours = readTree(oursDir);
  const read = (path: string): string | undefined => readOrUndefined(join(root, path));
  const outcomes = new Map<string, Outcome>();

  // The runtime: replaced wholesale unless the user changed it since the ancestor wrote it.
  const projectRuntime = listFiles(root, RUNTIME.slice(0, -1)).map((p) => posix.join(RUNTIME, p));
  const ancestorRuntime = [...ancestor.keys()].filter((p) => p.startsWith(RUNTIME));
  // By its CHECKSUMS; a runtime from a tsop that wrote none is compared with the ancestor's.
  const runtimeNow = new Map(projectRuntime.map((p) => [p, read(p) ?? '']));
  const untouched = runtimeUnchanged(runtimeNow) ?? (projectRuntime.length === ancestorRuntime.length && ancestorRuntime.every((p) => runtimeNow.get(p) === ancestor.get(p)));

  const paths = new Set([...ancestor.keys(), ...ours.keys()]);
  for (const path of [...paths].sort()) {
    if (GENERATED(path)) continue;
    const base = ancestor.get(path);
    const next = ours.get(path);
    const current = read(path);
    if (path.startsWith(RUNTIME) && untouched) {
      if (next === undefined) remove(root, path, current, outcomes);
      else if (current !== next) write(root, path, next, current === undefined ? 'created' : 'updated', outcomes);
      continue;
    }
    if (next === base) continue; // tsop did not change it: the project's version stands
    if (current === undefined) {
      if (base === undefined && next !== undefined) write(root, path, next, 'created', outcomes); // new in this tsop
      continue; // the user deleted it
    }
    if (current === base) {
      if (next === undefined) remove(root, path, current, outcomes);
      else write(root, path, next, 'updated', outcomes);
      continue;
    }
    if (next === undefined) {
      outcomes.set(path, 'kept'); // this tsop no longer scaffolds it, but the user changed it
      continue;
    }
    if (current === next) continue;
    const merged = await mergeFile(current, base ?? '', next, path, from);
    writeFileSync(join(root, path), merged.text);
    if (merged.conflicts) {
      outcomes.set(path, 'conflict');
      await markUnmerged(root, path, base, current, next);
    } else {
      outcomes.set(path, 'merged');
    }
  }
  // Deletions under the runtime, when it is replaced wholesale.
  if (untouched) for (const p of projectRuntime) if (!ours.has(p)) remove(root, p, read(p), outcomes);
  // Stage the clean results now; conflicts stay unmerged for `git status`.
  const clean = [...outcomes].filter(([, o]) => o !== 'conflict' && o !== 'kept').map(([p]) => p);
  if (clean.length > 0) await git(root, ['add', '-A', '--', ...clean]);
  return outcomes;
}

function write(root: string, path: string, content: string, outcome: Outcome, outcomes: Map<string, Outcome>): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
  outcomes.set(path, outcome);
}

function remove(root: string, path: string, current: string | undefined, outcomes: Map<string, Outcome>): void {
  if (current === undefined) return;
  unlinkSync(join(root, path));
  outcomes.set(path, 'deleted');
}

/** `git merge-file -p`: the merged text and whether it holds conflict markers. */
async function mergeFile(current: string, base: string, other: string, path: string, from: string): Promise<{ text: string; conflicts: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'tsop-merge-'));
  try {
    const files = { current: join(dir, 'current'), base: join(dir, 'base'), other: join(dir, 'other') };
    writeFileSync(files.current, current);
    writeFileSync(files.base, base);
    writeFileSync(files.other, other);
    const labels = ['-L', `${path} (yours)`, '-L', `${path} (tsop ${from})`, '-L', `${path} (tsop ${TSOP_VERSION})`];
    const merged = await execa('git', ['merge-file', '-p', ...labels, files.current, files.base, files.other], { reject: false, stripFinalNewline: false });
    // Exit status: the number of conflicts (capped at 127); negative (>127) is an error.
    if (merged.exitCode === undefined || merged.exitCode > 127) throw new Error(`git merge-file failed on ${path}: ${merged.stderr}`);
    return { text: merged.stdout, conflicts: merged.exitCode > 0 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Records a conflict in the index as git's own merges do: stages 1 (base), 2 (yours), 3 (tsop's). */
async function markUnmerged(root: string, path: string, base: string | undefined, current: string, next: string): Promise<void> {
  const top = (await git(root, ['rev-parse', '--show-toplevel'])).trim();
  const prefix = (await git(root, ['rev-parse', '--show-prefix'])).trim();
  const mode = (await git(root, ['ls-files', '-s', '--', path])).split(' ')[0] || '100644';
  const blob = async (text: string): Promise<string> => (await execa('git', ['hash-object', '-w', '--stdin'], { cwd: root, input: text })).stdout.trim();
  const full = posix.join(prefix, path);
  const lines = [`0 ${'0'.repeat(40)}\t${full}`];
  if (base !== undefined) lines.push(`${mode} ${await blob(base)} 1\t${full}`);
  lines.push(`${mode} ${await blob(current)} 2\t${full}`, `${mode} ${await blob(next)} 3\t${full}`);
  await execa('git', ['update-index', '--index-info'], { cwd: top, input: lines.join('\n') + '\n' });
}

async function git(cwd: string, args: string[]): Promise<string> {
  return (await execa('git', args, { cwd })).stdout;
}

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Every file under `root/rel` (posix, relative to it), skipping dependency and output folders. */
function listFiles(root: string, rel: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(join(root, rel, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = dir ? posix.join(dir, e.name) : e.name;
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) walk(path);
      } else if (e.isFile()) out.push(path);
    }
  };
  walk('');
  return out;
}

function readTree(dir: string): Map<string, string> {
  return new Map(listFiles(dir, '').map((p) => [p, readFileSync(join(dir, p), 'utf8')]));
}
