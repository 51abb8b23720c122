/**
 * The 3-way merge of `alpha update`, file by file: the ancestor is what the old tsop scaffolds from
 * PROJECT, "ours" what the new one scaffolds, the project is the user's. A file tsop did not change
 * stays the user's; one the user did not change takes tsop's; one both changed is merged with
 * `git merge-file`, a conflict left with markers and as an unmerged index entry (stages 1, 2, 3, as
 * git's own merges leave them), so `git status` lists it and `git checkout --ours/--theirs` work.
 *
 * The embedded runtime (src/runtime/) is tsop's: while it matches its CHECKSUMS (the user did not
 * touch it) it is replaced wholesale, else merged file by file; an optional module the project's
 * code imports is never taken away (runtime-modules.ts). package.json is merged as data
 * (src/upgrade/package-json.ts). Generated manifests (CRDs,
 * role.yaml) are not merged: the caller regenerates them.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { execa } from 'execa';
import { runtimeUnchanged, type OptionalModule } from '../scaffold/embedded-runtime.js';
import { filesUnder } from '../project/files.js';
import { mergePackageJson } from './package-json.js';
import { addModules, usedModules } from './runtime-modules.js';

export type Outcome = 'created' | 'updated' | 'merged' | 'deleted' | 'conflict' | 'kept';

/** How the conflict markers name the three sides. */
export interface MergeLabels {
  from: string;
  to: string;
}

export interface UpdateResult {
  outcomes: Map<string, Outcome>;
  /** What the user should know of a merge that went through (package.json's tsop entry). */
  notes: string[];
}

const RUNTIME = 'src/runtime/';
/** Written by `tsop manifests`, so regenerated rather than merged. */
const GENERATED = (path: string): boolean => path.startsWith('config/crd/bases/') || path === 'config/rbac/role.yaml';
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'build', 'dist']);

export async function applyUpdate(
  root: string,
  ancestorDir: string,
  oursDir: string,
  labels: MergeLabels,
  /** The optional runtime modules the project uses, when the caller has read them already. */
  used: readonly OptionalModule[] = usedModules(root),
): Promise<UpdateResult> {
  const read = (path: string): string | undefined => readOrUndefined(join(root, path));
  const ours = readTree(oursDir);
  // Optional runtime modules the project uses stay, whatever PROJECT says.
  const kept = addModules(ours, used).map((m) => `${RUNTIME}${m}/`);
  const keep = (path: string): boolean => kept.some((k) => path.startsWith(k));
  const ancestor = alignAncestor(readTree(ancestorDir), ours, (path) => existsSync(join(root, path)));
  const outcomes = new Map<string, Outcome>();
  const notes: string[] = [];

  // The runtime: replaced wholesale unless the user changed it since the ancestor wrote it.
  const projectRuntime = listFiles(root, RUNTIME.slice(0, -1)).map((p) => posix.join(RUNTIME, p));
  const ancestorRuntime = [...ancestor.keys()].filter((p) => p.startsWith(RUNTIME));
  // By its CHECKSUMS; a runtime from a tsop that wrote none is compared with the ancestor's.
  const runtimeNow = new Map(projectRuntime.map((p) => [p, read(p) ?? '']));
  const untouched =
    runtimeUnchanged(runtimeNow) ??
    (projectRuntime.length === ancestorRuntime.length &&
      ancestorRuntime.every((p) => runtimeNow.get(p) === ancestor.get(p)));

  const paths = new Set([...ancestor.keys(), ...ours.keys()]);
  for (const path of [...paths].sort()) {
    if (GENERATED(path)) continue;
    const base = ancestor.get(path);
    const next = ours.get(path);
    const current = read(path);
    if (path.startsWith(RUNTIME) && untouched) {
      if (next === undefined && keep(path)) continue;
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
      if (next === undefined && keep(path)) continue;
      if (next === undefined) remove(root, path, current, outcomes);
      else write(root, path, next, 'updated', outcomes);
      continue;
    }
    if (next === undefined) {
      outcomes.set(path, 'kept'); // this tsop no longer scaffolds it, but the user changed it
      continue;
    }
    if (current === next) continue;
    const asData = isPackageJson(path) ? mergePackageJson(current, base ?? '{}', next, { ...labels, path }) : undefined;
    if (asData) notes.push(...asData.notes);
    const merged = asData ?? resolveImportConflicts(await mergeFile(current, base ?? '', next, path, labels));
    writeFileSync(join(root, path), merged.text);
    if (merged.conflicts) {
      outcomes.set(path, 'conflict');
      await markUnmerged(root, path, base, current, next);
    } else {
      outcomes.set(path, 'merged');
    }
  }
  // Deletions under the runtime, when it is replaced wholesale.
  if (untouched) for (const p of projectRuntime) if (!ours.has(p) && !keep(p)) remove(root, p, read(p), outcomes);
  // Stage the clean results now; conflicts stay unmerged for `git status`.
  const clean = [...outcomes].filter(([, o]) => o !== 'conflict' && o !== 'kept').map(([p]) => p);
  if (clean.length > 0) await execa('git', ['add', '-A', '--', ...clean], { cwd: root });
  return { outcomes, notes };
}

const isPackageJson = (path: string): boolean => path === 'package.json';

/**
 * The old scaffold with its files at the places the project has them. An older tsop may put a
 * file elsewhere than it once wrote it for the same PROJECT (0.1.0's `alpha generate` put a
 * kind created before `edit --multigroup` under its group's folder, while the project and this
 * tsop keep it at PROJECT's `path`); compared at the wrong place, the user's file would look new
 * on both sides and conflict whole. So a file only the old scaffold has, at a place the project
 * lacks, is moved to where the new scaffold and the project both have the one file of that name
 * the old scaffold lacks.
 */
export function alignAncestor(
  ancestor: ReadonlyMap<string, string>,
  ours: ReadonlyMap<string, string>,
  inProject: (path: string) => boolean,
): Map<string, string> {
  const aligned = new Map(ancestor);
  const newHere = [...ours.keys()].filter((p) => !ancestor.has(p) && !p.startsWith(RUNTIME) && inProject(p));
  for (const [path, text] of ancestor) {
    if (ours.has(path) || path.startsWith(RUNTIME) || inProject(path)) continue;
    const same = newHere.filter((p) => posix.basename(p) === posix.basename(path));
    const others = [...ancestor.keys()].filter((p) => p !== path && posix.basename(p) === posix.basename(path));
    if (same.length !== 1 || others.some((p) => !ours.has(p) && !inProject(p))) continue;
    aligned.delete(path);
    aligned.set(same[0]!, text);
  }
  return aligned;
}

const IMPORT = /^import\s.*\sfrom\s+['"][^'"]+['"];?\s*$|^import\s+['"][^'"]+['"];?\s*$/;

/**
 * A conflict whose sides only add imports (the user imported something where tsop's new template
 * imports something else) is no conflict: both sides' imports are kept, each line once, and once
 * in the file: a side may hold an import the other has just outside the conflict (the same lines
 * in another order). Any other conflict stays, with its markers.
 */
export function resolveImportConflicts(merged: { text: string; conflicts: boolean }): {
  text: string;
  conflicts: boolean;
} {
  if (!merged.conflicts) return merged;
  let left = 0;
  const CONFLICT = /^<<<<<<< [^\n]*\n([\s\S]*?)^=======\n([\s\S]*?)^>>>>>>> [^\n]*\n/gm;
  const outside = new Set(
    merged.text
      .replace(CONFLICT, '')
      .split('\n')
      .filter((l) => IMPORT.test(l)),
  );
  const text = merged.text.replace(CONFLICT, (block, yours: string, theirs: string) => {
    const lines = [...yours.split('\n'), ...theirs.split('\n')].filter((l) => l.trim() !== '');
    if (lines.length === 0 || !lines.every((l) => IMPORT.test(l))) {
      left++;
      return block;
    }
    const kept = [...new Set(lines)].filter((l) => !outside.has(l));
    return kept.length > 0 ? `${kept.join('\n')}\n` : '';
  });
  return { text, conflicts: left > 0 };
}

/** Every file of a scaffold, by path (posix, relative to `dir`). */
export function readTree(dir: string): Map<string, string> {
  return new Map(listFiles(dir, '').map((p) => [p, readFileSync(join(dir, p), 'utf8')]));
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
  // A folder left empty goes too (a runtime module the project no longer has), as git would leave it.
  for (
    let dir = posix.dirname(path);
    dir !== '.' && readdirSync(join(root, dir)).length === 0;
    dir = posix.dirname(dir)
  )
    rmdirSync(join(root, dir));
}

/** `git merge-file -p`: the merged text and whether it holds conflict markers. */
async function mergeFile(
  current: string,
  base: string,
  other: string,
  path: string,
  labels: MergeLabels,
): Promise<{ text: string; conflicts: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'tsop-merge-'));
  try {
    const files = { current: join(dir, 'current'), base: join(dir, 'base'), other: join(dir, 'other') };
    writeFileSync(files.current, current);
    writeFileSync(files.base, base);
    writeFileSync(files.other, other);
    const names = ['-L', `${path} (yours)`, '-L', `${path} (tsop ${labels.from})`, '-L', `${path} (tsop ${labels.to})`];
    const merged = await execa('git', ['merge-file', '-p', ...names, files.current, files.base, files.other], {
      reject: false,
      stripFinalNewline: false,
    });
    // Exit status: the number of conflicts (capped at 127); negative (>127) is an error.
    if (merged.exitCode === undefined || merged.exitCode > 127)
      throw new Error(`git merge-file failed on ${path}: ${merged.stderr}`);
    return { text: merged.stdout, conflicts: merged.exitCode > 0 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Records a conflict in the index as git's own merges do: stages 1 (base), 2 (yours), 3 (tsop's). */
async function markUnmerged(
  root: string,
  path: string,
  base: string | undefined,
  current: string,
  next: string,
): Promise<void> {
  const git = async (args: string[], input?: string): Promise<string> =>
    (await execa('git', args, { cwd: root, ...(input !== undefined ? { input } : {}) })).stdout;
  const top = (await git(['rev-parse', '--show-toplevel'])).trim();
  const prefix = (await git(['rev-parse', '--show-prefix'])).trim();
  const mode = (await git(['ls-files', '-s', '--', path])).split(' ')[0] || '100644';
  const blob = async (text: string): Promise<string> => (await git(['hash-object', '-w', '--stdin'], text)).trim();
  const full = posix.join(prefix, path);
  const lines = [`0 ${'0'.repeat(40)}\t${full}`];
  if (base !== undefined) lines.push(`${mode} ${await blob(base)} 1\t${full}`);
  lines.push(`${mode} ${await blob(current)} 2\t${full}`, `${mode} ${await blob(next)} 3\t${full}`);
  await execa('git', ['update-index', '--index-info'], { cwd: top, input: `${lines.join('\n')}\n` });
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
  return filesUnder(join(root, rel), '', SKIPPED_DIRS);
}
