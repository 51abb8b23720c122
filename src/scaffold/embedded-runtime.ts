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

/** Project-relative path → content of the runtime as it is embedded (read once per process). */
let cached: Array<[string, string]> | undefined;

export function runtimeFiles(): Array<[string, string]> {
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

export function embedRuntime(tree: Tree, tsopVersion: string, force: boolean): void {
  for (const [path, content] of runtimeFiles()) tree.create(path, content, { force });
  tree.create(`${RUNTIME_DIR}/VERSION`, `${tsopVersion}\n`, { force });
  tree.create(RUNTIME_CHECKSUMS, runtimeChecksums(runtimeFiles()), { force });
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
