/**
 * The runtime's optional modules in an update. A new scaffold has `src/runtime/webhook/` only
 * when PROJECT has webhooks, and `src/runtime/sharding/` only when PROJECT records `sharding`
 * (`edit --sharding`), while every project of tsop ≤ 0.2 has both; an update takes one away from a
 * project that does not use it, unless the project's own code imports it (a webhook written by
 * hand, a test) or, for sharding, its code or manifests ask for sharding (`sharding:` or
 * `shardingEngine` in its TypeScript, `--sharding=` in config/, a ring in the Helm chart's values): then the new scaffold gets the
 * module as `create webhook` or `edit --sharding` would add it, when it is this tsop's, and
 * otherwise the project's copy is kept as it is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseProject, renderProject } from '../project/config.js';
import { filesUnder } from '../project/files.js';
import { addRuntimeModule, OPTIONAL_MODULES, RUNTIME_DIR, type OptionalModule } from '../scaffold/embedded-runtime.js';
import { Tree } from '../scaffold/tree.js';
import { TSOP_VERSION } from '../version.js';

const SKIPPED = new Set(['node_modules', 'build', 'dist', '.git']);

/** The texts of the project's own TypeScript files: under src/, outside src/runtime/. */
function projectSources(root: string): string[] {
  return filesUnder(root, 'src', SKIPPED)
    .filter((p) => /\.[cm]?tsx?$/.test(p) && !p.startsWith(`${RUNTIME_DIR}/`))
    .map((p) => readFileSync(join(root, p), 'utf8'));
}

/** Asks for sharding: the manager's option or its engine in TypeScript, the flag in a manifest. */
const SHARDING_IN_CODE = /\bshardingEngine\b|\bsharding\s*:\s*[{a-zA-Z]/;
const SHARDING_FLAG = /--sharding=/;
/** The Helm chart's values with a ring (`sharding:` then `ring: <name>`). */
const SHARDING_VALUE = /^sharding:\n\s+ring:\s*["']?[a-z0-9]/m;

/** The optional modules the project uses: those its code imports, and sharding when its code or config/ asks for it. */
export function usedModules(root: string): OptionalModule[] {
  const code = projectSources(root);
  const used = new Set<OptionalModule>(
    OPTIONAL_MODULES.filter((m) => {
      const imported = new RegExp(`from\\s+['"][^'"]*\\bruntime/${m}/`);
      return code.some((t) => imported.test(t));
    }),
  );
  if (!used.has('sharding')) {
    const read = (paths: string[]): string[] => paths.map((p) => readFileSync(join(root, p), 'utf8'));
    const manifests = read(filesUnder(root, 'config', SKIPPED).filter((p) => /\.ya?ml$/.test(p)));
    const values = read(existsSync(join(root, 'dist/chart/values.yaml')) ? ['dist/chart/values.yaml'] : []);
    if (
      code.some((t) => SHARDING_IN_CODE.test(t)) ||
      manifests.some((t) => SHARDING_FLAG.test(t)) ||
      values.some((t) => SHARDING_VALUE.test(t))
    )
      used.add('sharding');
  }
  return OPTIONAL_MODULES.filter((m) => used.has(m));
}

/**
 * `ours` (the new scaffold, path → content) with the optional modules `wanted` that it lacks:
 * added when it is this tsop's scaffold. Returns the modules it could not add (the project's copy
 * of those stays).
 */
export function addModules(ours: Map<string, string>, wanted: readonly OptionalModule[]): OptionalModule[] {
  const missing = wanted.filter((m) => !ours.has(`${RUNTIME_DIR}/${m}/index.ts`));
  if (missing.length === 0) return [];
  if (ours.get(`${RUNTIME_DIR}/VERSION`)?.trim() !== TSOP_VERSION) return missing;
  const tree = new Tree({ read: (path) => ours.get(path) });
  for (const m of missing) addRuntimeModule(tree, m);
  for (const c of tree.listChanges()) {
    if (c.kind === 'delete') ours.delete(c.path);
    else ours.set(c.path, c.content);
  }
  return [];
}

/**
 * The PROJECT the new scaffold is made from. A project of tsop ≤ 0.2 that uses sharding has the
 * module but a PROJECT that does not record it (there was no `edit --sharding`): the new scaffold
 * is made as after `edit --sharding`, so the update has main.ts pass the engine and PROJECT record
 * it, and the operator still starts with its `--sharding` flag.
 */
export function projectForUpdate(projectText: string, used: readonly OptionalModule[]): string {
  if (!used.includes('sharding')) return projectText;
  const config = parseProject(projectText);
  return config.sharding === true ? projectText : renderProject({ ...config, sharding: true });
}
