/**
 * `tsop manifests`: read the project's API, generate its CRDs, RBAC and webhook configurations,
 * and write them all at once into the kustomize tree (or, with `check`, say which are out of date
 * and how). `verify` (install on a throwaway control plane) is a stage above this one, passed in
 * by the command (src/cli/manifests.ts), so this module imports nothing from the layers above.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
// The yaml library is loaded only for --check's breaking-change scan and a webhook manifest that may be stale.
import { yamlLibrary } from '../yaml/library.js';
import { UsageError, UserError, UserErrors } from '../errors.js';
import { TSOP_VERSION } from '../version.js';
import { VERSION_ANNOTATION } from './crd.js';
import { generateManifests, type ManifestOptions } from './generate.js';
import { projectManifestOptions } from './project-options.js';
import type { FlagsOf } from '../flag.js';
import type { MANIFESTS_FLAGS } from './flags.js';
import { isGeneratedWebhookManifest, WEBHOOK_MANIFESTS, type RenamedConfiguration } from './webhook.js';
import { parseProject, PROJECT_FILE, type ProjectConfig } from '../project/config.js';
import type { ApiModel } from '../codegen/model.js';
import { applyFiles, type FileOp } from '../scaffold/apply.js';
import { kustomizeBuildFiles } from '../project/kustomize-tree.js';
import { findDeprecatedUses } from '../project/deprecated-uses.js';

/**
 * What a run is asked to do: the command's flags (flags.ts), checked by the command. The ones
 * that name a PROJECT setting (maxDescLen, generateEmbeddedObjectMeta, controllerGenCompat)
 * override it; `verify` needs a `Verifier`.
 */
export type ManifestsRun = FlagsOf<typeof MANIFESTS_FLAGS>;

/** The `verify` stage (src/verify/command.ts), given by the command that offers it. */
export type Verifier = (
  cmd: { root: string; options: ManifestOptions; readModel: () => Promise<ApiModel>; check?: () => Promise<void> },
  io: ManifestsIO,
) => Promise<void>;

export interface ManifestsIO {
  out: (text: string) => void;
  err: (text: string) => void;
}

const stdio: ManifestsIO = { out: (t) => void process.stdout.write(t), err: (t) => void process.stderr.write(t) };

/** Reads a project's API model; the default parses in this thread (codegen/reader/background.ts reads on a worker). */
export type ApiReader = (root: string) => Promise<ApiModel>;

// Imported on call: the reader loads ts-morph, which only parsing needs.
const readHere: ApiReader = async (root) => (await import('../codegen/reader/sources.js')).readProjectApi(root);

export async function runManifests(
  flags: ManifestsRun,
  io: ManifestsIO = stdio,
  readApi: ApiReader = readHere,
  verifier?: Verifier,
): Promise<void> {
  const root = resolve(flags.dir ?? process.cwd());
  const outDir = resolve(root, flags.outputDir ?? 'config');
  const project = await readProject(root);
  const notAProject = `${root} is not a tsop project (no ${PROJECT_FILE} file); run it in the project's directory or pass --dir <project>`;
  if (flags.check && project === undefined) throw new UsageError(`manifests --check: ${notAProject}`);
  const opts: ManifestOptions = { tsopVersion: TSOP_VERSION, ...(project ? projectManifestOptions(project) : {}) };
  if (flags.maxDescLen !== undefined) opts.maxDescLen = flags.maxDescLen;
  if (flags.generateEmbeddedObjectMeta !== undefined)
    opts.generateEmbeddedObjectMeta = flags.generateEmbeddedObjectMeta;
  if (flags.controllerGenCompat !== undefined) opts.controllerGenCompat = flags.controllerGenCompat;
  if (flags.verify) {
    if (!verifier) throw new UsageError('manifests: verify is not offered here; run tsop manifests --verify');
    const check = flags.check ? { check: () => runManifests({ ...flags, verify: false }, io, readApi) } : {};
    return verifier({ root, options: opts, readModel: () => readApi(root), ...check }, io);
  }
  const model = await readApi(root);
  const result = generateManifests(model, opts);
  for (const w of result.warnings) io.err(`tsop: warning: ${w}\n`);
  // Code that the next minor version will no longer compile: say so now, at its line.
  if (project) for (const u of findDeprecatedUses(root)) io.err(`tsop: warning: ${u.file}:${u.line}: ${u.message}\n`);
  if (result.errors.length > 0) throw new UserErrors(result.errors);
  for (const w of await oldConfigurationNames(root, outDir, result.renamedWebhookConfigurations))
    io.err(`tsop: warning: ${w}\n`);

  const entries = Object.entries(result.files).sort(([a], [b]) => (a < b ? -1 : 1));
  if (entries.length === 0 && project === undefined) throw new UsageError(`manifests: ${notAProject}`);
  if (entries.length === 0)
    io.err(`tsop: nothing to generate: no @Resource classes under src/api and no @Rbac controllers under src\n`);
  const shown = (p: string): string => relative(root, join(outDir, p)) || p;
  // Only --check compares and diffs: a plain run does not load those modules.
  const compare = flags.check ? { ...(await import('./diff.js')), ...(await import('./breaking.js')) } : undefined;
  let stale = 0;
  const breaking: string[] = [];
  // Written all at once at the end: a failure part-way leaves every file as it was.
  const writes: FileOp[] = [];
  for (const [path, content] of entries) {
    const file = join(outDir, path);
    const current = await readIfExists(file);
    if (current === content) continue;
    stale++;
    if (compare) {
      io.out(compare.unifiedDiff(current ?? '', content, `a/${shown(path)}`, `b/${shown(path)}`));
      if (current !== undefined && path.startsWith('crd/')) {
        for (const line of compare.breakingChanges(parseYaml(current, shown(path)), yamlLibrary().parse(content)))
          breaking.push(`${shown(path)}: ${line}`);
      }
    } else writes.push({ path, content });
  }
  // CRDs tsop wrote earlier for kinds that are gone (renamed, removed). Only files carrying tsop's
  // annotation are touched, so hand-written CRDs in the same folder are safe.
  const staleHooks = await staleWebhooks(outDir, result.files);
  for (const path of [...(await staleCrds(outDir, result.files)), ...staleHooks]) {
    stale++;
    if (compare)
      io.out(
        compare.unifiedDiff(await readFile(join(outDir, path), 'utf8'), '', `a/${shown(path)}`, `b/${shown(path)}`),
      );
    else writes.push({ path, remove: true });
  }
  // The webhook layer lists the file it removes; kustomize would fail on the missing file.
  // (create webhook lists it again with the next defaulting or validating webhook.)
  const layer = staleHooks.length > 0 ? await readIfExists(join(outDir, WEBHOOK_KUSTOMIZATION)) : undefined;
  if (layer !== undefined && /^- manifests\.yaml\n/m.test(layer)) {
    const content = layer.replace(/^- manifests\.yaml\n/m, '');
    stale++;
    if (compare)
      io.out(
        compare.unifiedDiff(layer, content, `a/${shown(WEBHOOK_KUSTOMIZATION)}`, `b/${shown(WEBHOOK_KUSTOMIZATION)}`),
      );
    else writes.push({ path: WEBHOOK_KUSTOMIZATION, content });
  }
  if (!compare) {
    applyFiles(outDir, writes);
    for (const w of writes) io.err(`${'remove' in w ? 'removed' : 'wrote'} ${shown(w.path)}\n`);
    return;
  }
  if (breaking.length > 0) io.err(`breaking changes:\n${breaking.map((b) => `  ${b}`).join('\n')}\n`);
  if (stale > 0)
    throw new UserError(
      `${stale} generated file${stale === 1 ? ' is' : 's are'} out of date; run 'tsop manifests' and commit the result`,
    );
}

/**
 * Lines of the kustomize tree that still name a webhook configuration `@WebhookConfiguration`
 * renamed (a replacement's source, a ClusterRole's resourceNames, a patch of your own): kustomize
 * would select nothing there, or the manager would look for the old name. Each line config/default's
 * build reads is a warning of its own; lines it does not read yet (the scaffold's commented-out
 * alternatives, such as the self-provisioned certificate's files) are one warning per name.
 */
async function oldConfigurationNames(
  root: string,
  outDir: string,
  renamed: readonly RenamedConfiguration[],
): Promise<string[]> {
  if (renamed.length === 0) return [];
  let names: string[];
  try {
    names = (await readdir(outDir, { recursive: true }))
      .filter((n) => /\.ya?ml$/.test(n) && n !== WEBHOOK_MANIFESTS)
      .sort();
  } catch {
    return [];
  }
  // Without a readable config/default, every line counts as in use.
  const inBuild = await kustomizeBuildFiles(outDir);
  // The old name as a whole word: not part of a longer name.
  const words = renamed.map((r) => ({
    r,
    word: new RegExp(`(?<![-a-z0-9.])${r.from.replace(/[.]/g, '\\.')}(?![-a-z0-9.])`),
    unused: new Map<string, number[]>(),
  }));
  const out: string[] = [];
  for (const name of names) {
    const file = relative(root, join(outDir, name));
    const used = inBuild === undefined || inBuild.has(name.split('\\').join('/'));
    const lines = (await readFile(join(outDir, name), 'utf8')).split('\n');
    for (const { r, word, unused } of words) {
      lines.forEach((line, i) => {
        if (!word.test(line)) return;
        if (used && !/^\s*#/.test(line))
          out.push(
            `${file}:${i + 1} still names ${r.from}, which @WebhookConfiguration (${r.source}) renames to '${r.to}'; write '${r.to}' there too`,
          );
        else unused.set(file, [...(unused.get(file) ?? []), i + 1]);
      });
    }
  }
  for (const { r, unused } of words) {
    const where = [...unused].map(([file, lines]) => `${file}:${lines.join(',')}`);
    if (where.length > 0)
      out.push(
        `${where.join(', ')} (not in config/default's build yet) still name ${r.from}, which @WebhookConfiguration (${r.source}) renames to '${r.to}'; write '${r.to}' there before you enable them`,
      );
  }
  return out;
}

async function staleCrds(outDir: string, files: Record<string, string>): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(join(outDir, 'crd/bases'));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names.sort()) {
    const path = `crd/bases/${name}`;
    if (!name.endsWith('.yaml') || path in files) continue;
    if ((await readFile(join(outDir, path), 'utf8')).includes(`${VERSION_ANNOTATION}:`)) out.push(path);
  }
  return out;
}

const WEBHOOK_KUSTOMIZATION = 'webhook/kustomization.yaml';

/**
 * config/webhook/manifests.yaml when no `@Webhook` is left, if the generator wrote it (a
 * hand-written file there is left alone).
 */
async function staleWebhooks(outDir: string, files: Record<string, string>): Promise<string[]> {
  if (WEBHOOK_MANIFESTS in files) return [];
  const text = await readIfExists(join(outDir, WEBHOOK_MANIFESTS));
  if (text === undefined) return [];
  let docs: unknown[];
  try {
    const parsed = yamlLibrary().parseAllDocuments(text);
    if (!Array.isArray(parsed) || parsed.some((d) => d.errors.length > 0)) return [];
    docs = parsed.map((d) => d.toJS() as unknown);
  } catch {
    return [];
  }
  return isGeneratedWebhookManifest(
    text,
    docs.filter((d) => d !== null && d !== undefined),
  )
    ? [WEBHOOK_MANIFESTS]
    : [];
}

async function readProject(root: string): Promise<ProjectConfig | undefined> {
  const text = await readIfExists(join(root, PROJECT_FILE));
  return text === undefined ? undefined : parseProject(text, PROJECT_FILE);
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function parseYaml(text: string, name: string): unknown {
  try {
    return yamlLibrary().parse(text);
  } catch (error) {
    throw new UserError(
      `${name}: cannot parse the committed file (${(error as Error).message.split('\n')[0]}); regenerate it`,
    );
  }
}
