/**
 * Temp folders that belong to the running test file: made on first use, removed after the file's
 * tests (test/setup/remove-file-temp-roots.ts, a setup file, registers that per file). A helper
 * module cannot make its folder at import and remove it in a module-level `afterAll`: the unit
 * project runs without isolation, so the files of a worker share one instance of the helper, and
 * that hook would belong to the first of them only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const roots = new Map<string, string>();

/** The running file's temp folder named with `prefix`, made on the first call. */
export function fileTempRoot(prefix: string): string {
  let root = roots.get(prefix);
  if (!root) {
    root = mkdtempSync(join(tmpdir(), prefix));
    roots.set(prefix, root);
  }
  return root;
}

/** Removes every folder `fileTempRoot` made since the last call. */
export function removeFileTempRoots(): void {
  for (const root of roots.values()) rmSync(root, { recursive: true, force: true });
  roots.clear();
}
