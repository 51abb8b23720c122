/**
 * How the reconcile runtime and the control-plane script reach a generated project.
 *
 * - The runtime is embedded as source: every file of tsop's `runtime/` is copied to the project's
 *   `src/runtime/`, except tests (`*.test.ts`, shared `*.contract.ts` suites), `testdata/` and
 *   `test-fixtures/`, which exercise tsop itself. It compiles unchanged there (relative `.js` imports, NodeNext) and depends only on
 *   @kubernetes/client-node, prom-client, pino and yaml (plus vitest/typescript for `testing/`).
 * - `src/runtime/VERSION` holds the tsop version that wrote it. A later tsop may refresh the
 *   folder when that file still names a tsop version (the user has not taken the runtime over);
 *   users who edit the runtime should delete VERSION.
 * - `scripts/control-plane.sh` is copied verbatim, so the project builds or finds the same etcd
 *   and kube-apiserver the runtime's envtest harness looks for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tree } from '../scaffold/tree.js';

const TSOP_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RUNTIME_DIR = 'src/runtime';
const SKIPPED_DIRS = new Set(['testdata', 'test-fixtures', 'node_modules']);

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
        if (!SKIPPED_DIRS.has(e.name)) walk(path);
      } else if (e.isFile() && !/\.(test|contract)\.ts$/.test(e.name)) {
        out.push([posix.join(RUNTIME_DIR, path), readFileSync(join(root, path), 'utf8')]);
      }
    }
  };
  walk('');
  cached = out.sort(([a], [b]) => (a < b ? -1 : 1));
  return cached;
}

export function embedRuntime(tree: Tree, tsopVersion: string, force: boolean): void {
  for (const [path, content] of runtimeFiles()) tree.create(path, content, { force });
  tree.create(`${RUNTIME_DIR}/VERSION`, `${tsopVersion}\n`, { force });
}

export function copyControlPlaneScript(tree: Tree, force: boolean): void {
  tree.create('scripts/control-plane.sh', readFileSync(join(TSOP_ROOT, 'scripts/control-plane.sh'), 'utf8'), { force });
}

/** The runtime version stamped in a project, or undefined when absent (taken over by the user). */
export function embeddedRuntimeVersion(tree: Tree): string | undefined {
  return tree.read(`${RUNTIME_DIR}/VERSION`)?.trim() || undefined;
}
