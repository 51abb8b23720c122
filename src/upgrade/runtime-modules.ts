/**
 * The runtime's optional modules in an update. A new scaffold has `src/runtime/webhook/` only
 * when PROJECT has webhooks, while every project of tsop ≤ 0.2 has it; an update takes it away
 * from a project without webhooks, unless the project's own code imports it (a webhook written by
 * hand, a test): then the new scaffold gets the module as `create webhook` would add it, when it
 * is this tsop's, and otherwise the project's copy is kept as it is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesUnder } from '../project/files.js';
import { addRuntimeModule, OPTIONAL_MODULES, RUNTIME_DIR, type OptionalModule } from '../scaffold/embedded-runtime.js';
import { Tree } from '../scaffold/tree.js';
import { TSOP_VERSION } from '../version.js';

const SKIPPED = new Set(['node_modules', 'build', 'dist', '.git']);

/** The optional modules that a TypeScript file of the project outside src/runtime/ imports. */
export function importedModules(root: string): OptionalModule[] {
  const sources = filesUnder(root, 'src', SKIPPED).filter(
    (p) => /\.[cm]?tsx?$/.test(p) && !p.startsWith(`${RUNTIME_DIR}/`),
  );
  const texts = sources.map((p) => readFileSync(join(root, p), 'utf8'));
  return OPTIONAL_MODULES.filter((m) => {
    const imported = new RegExp(`from\\s+['"][^'"]*\\bruntime/${m}/`);
    return texts.some((t) => imported.test(t));
  });
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
