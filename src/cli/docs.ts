/**
 * `tsop docs`: write the API reference (src/docs) to docs/api/ (or `--out`), one Markdown page
 * per group/version plus an index, from the same model and options as `tsop manifests`. Pages tsop
 * wrote for group/versions that are gone are removed; other files in the folder are left alone.
 * With `--check`, write nothing and fail when a page is out of date (for CI).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { UsageError, UserError, UserErrors } from '../errors.js';
import { TSOP_VERSION } from '../version.js';
import { GENERATED_MARK, renderApiDocs } from '../docs/render.js';
import type { ManifestOptions } from '../manifests/generate.js';
import { projectManifestOptions } from '../manifests/project-options.js';
import { parseProject, PROJECT_FILE } from '../project/config.js';
import { applyFiles, type FileOp } from '../scaffold/apply.js';
import { checkFlags, type FlagsOf } from '../flag.js';
import { DOCS_FLAGS } from './command-flags.js';

export type DocsFlags = FlagsOf<typeof DOCS_FLAGS>;

export interface DocsIO {
  out: (text: string) => void;
  err: (text: string) => void;
}

const stdio: DocsIO = { out: (t) => void process.stdout.write(t), err: (t) => void process.stderr.write(t) };

export async function runDocs(given: DocsFlags, io: DocsIO = stdio): Promise<void> {
  const flags = checkFlags(DOCS_FLAGS, given);
  const root = resolve(flags.dir ?? process.cwd());
  const outDir = resolve(root, flags.out ?? 'docs/api');
  const project = await readIfExists(join(root, PROJECT_FILE));
  if (project === undefined)
    throw new UsageError(
      `docs: ${root} is not a tsop project (no ${PROJECT_FILE} file); run it in the project's directory or pass --dir <project>`,
    );
  const options: ManifestOptions = {
    tsopVersion: TSOP_VERSION,
    ...projectManifestOptions(parseProject(project, PROJECT_FILE)),
  };
  const model = await (await import('../codegen/reader/sources.js')).readProjectApi(root);
  const docs = renderApiDocs(model, options);
  if (docs.errors.length > 0) throw new UserErrors(docs.errors);
  if (Object.keys(docs.files).length === 0) {
    io.err(`tsop: nothing to document: no @Resource classes under src/api\n`);
  }
  // Relative to the project when inside it, else the full path.
  const shown = (p: string): string => {
    const rel = relative(root, join(outDir, p));
    return rel.startsWith('..') ? join(outDir, p) : rel;
  };
  const ops: FileOp[] = [];
  for (const [path, content] of Object.entries(docs.files).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if ((await readIfExists(join(outDir, path))) !== content) ops.push({ path, content });
  }
  for (const path of await stalePages(outDir, docs.files)) ops.push({ path, remove: true });
  if (flags.check) {
    for (const op of ops)
      io.err(`tsop: ${shown(op.path)} is ${'remove' in op ? 'no longer generated' : 'out of date'}\n`);
    if (ops.length > 0)
      throw new UserError(
        `${ops.length} API reference page${ops.length === 1 ? ' is' : 's are'} out of date; run 'tsop docs' and commit the result`,
      );
    return;
  }
  applyFiles(outDir, ops);
  for (const op of ops) io.err(`${'remove' in op ? 'removed' : 'wrote'} ${shown(op.path)}\n`);
}

/** Pages tsop wrote earlier (they start with its mark) that this run does not write. */
async function stalePages(outDir: string, files: Record<string, string>): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(outDir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith('.md') || name in files) continue;
    if ((await readIfExists(join(outDir, name)))?.startsWith(GENERATED_MARK)) out.push(name);
  }
  return out;
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR') return undefined;
    throw error;
  }
}
