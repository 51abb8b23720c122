/**
 * How the reconcile runtime and the control-plane script reach a generated project.
 *
 * - The runtime is embedded as source: every file of tsop's `runtime/` is copied to the project's
 *   `src/runtime/`, except tests (`*.test.ts`, shared `*.contract.ts` suites), `testdata/` and
 *   `test-fixtures/`, which exercise tsop itself, and the test harness (`testing/`, `envtest/`),
 *   which the operator never runs: tests import it from tsop, the project's dev dependency
 *   (`tsop/testing`), as Go's envtest reaches only test binaries. The files of the harness that
 *   earlier templates imported stay as deprecated shims (harness-shims.ts). The runtime compiles
 *   unchanged there (relative `.js` imports, NodeNext) and depends only on @kubernetes/client-node,
 *   prom-client, pino, yaml and @opentelemetry/api.
 * - Optional modules arrive when the project starts using them: `webhook/` with its first webhook
 *   (`create webhook`, which also has main.ts make the server and pass it to the manager), and
 *   `sharding/` with `edit --sharding` (which has main.ts pass its `shardingEngine` to the manager;
 *   PROJECT records `sharding: true`). Until then the runtime's barrel (`index.ts`) leaves out its
 *   line, and nothing else imports it (a dependency rule of tsop's runtime holds that).
 * - `src/runtime/VERSION` holds the tsop version that wrote it, and `src/runtime/CHECKSUMS` the
 *   sha256 of every file it embedded (sha256sum's format: `cd src/runtime && sha256sum -c CHECKSUMS`).
 *   `tsop alpha update` replaces a runtime that still matches its checksums wholesale and merges
 *   one the user edited file by file.
 * - `scripts/control-plane.sh` is copied verbatim, so the project builds or finds the same etcd
 *   and kube-apiserver the runtime's envtest harness looks for.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { Tree } from './tree.js';
import { TSOP_ROOT } from '../version.js';
import { harnessShimFiles } from './harness-shims.js';

export const RUNTIME_DIR = 'src/runtime';
const SKIPPED_DIRS = new Set(['testdata', 'test-fixtures', 'node_modules']);
/** Top-level folders of tsop's runtime that ship only in the package (the test harness). */
const PACKAGE_ONLY = new Set(['testing', 'envtest']);

/** The runtime's modules a project has only once it uses them. */
export const OPTIONAL_MODULES = ['webhook', 'sharding'] as const;
export type OptionalModule = (typeof OPTIONAL_MODULES)[number];
const BARREL = `${RUNTIME_DIR}/index.ts`;

/** Project-relative path → content of every file of tsop's runtime as embedded, optional modules included (read once per process). */
let cached: Array<[string, string]> | undefined;

function allRuntimeFiles(): Array<[string, string]> {
  if (cached) return cached;
  const root = join(TSOP_ROOT, 'runtime');
  const out: Array<[string, string]> = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = rel ? posix.join(rel, e.name) : e.name;
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name) && !(rel === '' && PACKAGE_ONLY.has(e.name))) walk(path);
      } else if (e.isFile() && !/\.(test|contract)\.ts$/.test(e.name)) {
        out.push([posix.join(RUNTIME_DIR, path), readFileSync(join(root, path), 'utf8')]);
      }
    }
  };
  walk('');
  out.push(...harnessShimFiles(RUNTIME_DIR));
  cached = out.sort(([a], [b]) => (a < b ? -1 : 1));
  return cached;
}

/** The runtime module (top folder) a file of src/runtime/ is in; undefined for a file at its top. */
function moduleOf(path: string): string | undefined {
  const parts = path.slice(RUNTIME_DIR.length + 1).split('/');
  return parts.length > 1 ? parts[0] : undefined;
}
const barrelLine = (module: OptionalModule): string => `export * from './${module}/index.js';\n`;

/** The runtime's barrel with the lines of the optional modules a project lacks taken out. */
function barrelFor(full: string, modules: readonly OptionalModule[]): string {
  return OPTIONAL_MODULES.filter((m) => !modules.includes(m)).reduce(
    (text, m) => text.replace(barrelLine(m), ''),
    full,
  );
}

/** The runtime as a project with `modules` has it: every file but those of the optional modules it lacks. */
export function runtimeFiles(modules: readonly OptionalModule[] = []): Array<[string, string]> {
  const lacking = new Set<string>(OPTIONAL_MODULES.filter((m) => !modules.includes(m)));
  return allRuntimeFiles()
    .filter(([path]) => !lacking.has(moduleOf(path) ?? ''))
    .map(([path, content]): [string, string] => [path, path === BARREL ? barrelFor(content, modules) : content]);
}

export function embedRuntime(
  tree: Tree,
  tsopVersion: string,
  force: boolean,
  modules: readonly OptionalModule[] = [],
): void {
  const files = runtimeFiles(modules);
  for (const [path, content] of files) tree.create(path, content, { force });
  tree.create(`${RUNTIME_DIR}/VERSION`, `${tsopVersion}\n`, { force });
  tree.create(RUNTIME_CHECKSUMS, runtimeChecksums(files), { force });
}

/**
 * Adds an optional module to a project's runtime when it starts using it: the module's files, its
 * line in the barrel (when tsop's runtime barrel has one), and their checksums in CHECKSUMS; VERSION stays. Nothing when the project
 * has the module already (every project of tsop ≤ 0.2 has them all). A barrel the user changed
 * gets the line too, but keeps its recorded checksum, so `alpha update` still merges it.
 */
export function addRuntimeModule(tree: Tree, module: OptionalModule): void {
  const index = `${RUNTIME_DIR}/${module}/index.ts`;
  if (tree.exists(index)) return;
  const sums = new Map<string, string>();
  const listed = tree.read(RUNTIME_CHECKSUMS);
  for (const line of (listed ?? '').split('\n').filter(Boolean)) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (m) sums.set(m[2]!, m[1]!);
  }
  const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
  const local = (path: string): string => path.slice(RUNTIME_DIR.length + 1);
  for (const [path, content] of allRuntimeFiles()) {
    if (moduleOf(path) !== module) continue;
    if (!tree.exists(path)) tree.create(path, content);
    sums.set(local(path), sha(content));
  }
  // A module the runtime's barrel leaves out (sharding/: its names stay under runtime/sharding) gets no line.
  const inBarrel = allRuntimeFiles().some(([path, content]) => path === BARREL && content.includes(barrelLine(module)));
  const barrel = tree.read(BARREL);
  if (inBarrel && barrel !== undefined && !barrel.includes(barrelLine(module))) {
    const at = barrel.lastIndexOf("\nexport * from './");
    const end = at < 0 ? barrel.length : barrel.indexOf('\n', at + 1) + 1;
    const next = `${barrel.slice(0, end)}${barrelLine(module)}${barrel.slice(end)}`;
    tree.overwrite(BARREL, next);
    if (sums.get(local(BARREL)) === sha(barrel)) sums.set(local(BARREL), sha(next));
  }
  if (listed === undefined) return; // a runtime from a tsop that wrote no CHECKSUMS
  const lines = [...sums].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, hash]) => `${hash}  ${path}\n`);
  tree.overwrite(RUNTIME_CHECKSUMS, lines.join(''));
}

export const RUNTIME_CHECKSUMS = `${RUNTIME_DIR}/CHECKSUMS`;

/** `<sha256>  <path under src/runtime>` per file, as sha256sum writes them. */
export function runtimeChecksums(files: ReadonlyArray<readonly [string, string]>): string {
  const prefix = `${RUNTIME_DIR}/`;
  return files
    .map(([path, content]) => `${createHash('sha256').update(content).digest('hex')}  ${path.slice(prefix.length)}\n`)
    .join('');
}

/**
 * Whether a project's runtime is as tsop wrote it, by its CHECKSUMS: every listed file has its
 * checksum and no other file was added (VERSION and CHECKSUMS aside). `files` maps each file
 * under src/runtime/ (project-relative) to its content. Undefined when there is no CHECKSUMS
 * (a runtime from a tsop that did not write one).
 */
export function runtimeUnchanged(files: ReadonlyMap<string, string>): boolean | undefined {
  const listed = files.get(RUNTIME_CHECKSUMS);
  if (listed === undefined) return undefined;
  const expected = new Map<string, string>();
  for (const line of listed.split('\n').filter(Boolean)) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!m) return false;
    expected.set(`${RUNTIME_DIR}/${m[2]}`, m[1]!);
  }
  for (const [path, content] of files) {
    if (path === RUNTIME_CHECKSUMS || path === `${RUNTIME_DIR}/VERSION`) continue;
    if (expected.get(path) !== createHash('sha256').update(content).digest('hex')) return false;
  }
  return [...expected.keys()].every((p) => files.has(p));
}

export function copyControlPlaneScript(tree: Tree, force: boolean): void {
  tree.create('scripts/control-plane.sh', readFileSync(join(TSOP_ROOT, 'scripts/control-plane.sh'), 'utf8'), { force });
}
