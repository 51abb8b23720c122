/**
 * Scripts a plugin adds to the project's package.json (Helm's helm-deploy, OLM's bundle): only
 * those missing are added, so a script the user changed stays as it is.
 */
import type { Tree } from './tree.js';

export function addMissingScripts(tree: Tree, scripts: Readonly<Record<string, string>>): void {
  const text = tree.read('package.json');
  if (text === undefined) return;
  let pkg: { scripts?: Record<string, string> };
  try {
    pkg = JSON.parse(text) as { scripts?: Record<string, string> };
  } catch {
    return; // not ours to repair; npm reports it
  }
  const current = pkg.scripts ?? {};
  const missing = Object.entries(scripts).filter(([name]) => current[name] === undefined);
  if (missing.length === 0) return;
  pkg.scripts = { ...current, ...Object.fromEntries(missing) };
  tree.overwrite('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
}
