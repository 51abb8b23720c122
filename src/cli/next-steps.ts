/**
 * The "next:" line `create api` and `create webhook` end with, as kubebuilder's do: install what
 * the scaffold added to package.json, fill in the new files, then the given step.
 */
import type { Change } from '../scaffold/tree.js';

/** Regenerate and test through the project's scripts (tsop is its devDependency: `npx tsop`, not `tsop`). */
export const REGENERATE_AND_TEST = "run 'npm run manifests' (or 'npx tsop manifests') and 'npm test'";

export function nextStepsLine(changes: readonly Change[], fillIn: readonly string[], then: string): string {
  // --external-api-module added a dependency: it must be installed before the project builds.
  const install = changes.some((c) => c.path === 'package.json')
    ? "run 'npm install' (package.json has a new dependency), "
    : '';
  return `next: ${install}${fillIn.length > 0 ? `fill in ${fillIn.join(' and ')}, then ` : ''}${then}`;
}
