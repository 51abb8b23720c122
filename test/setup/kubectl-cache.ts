/**
 * Vitest global setup: points kubectl's discovery and HTTP cache (KUBECACHEDIR) at a temp folder
 * for the whole run and removes it afterwards. Without it every kubectl call the tests make against
 * a harness API server leaves a per-port folder under ~/.kube/cache on the user's machine.
 * Workers start after this runs, so they and the processes they spawn inherit the variable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  if (process.env.KUBECACHEDIR) return () => {};
  const dir = mkdtempSync(join(tmpdir(), 'tsop-kubecache-'));
  process.env.KUBECACHEDIR = dir;
  return () => {
    rmSync(dir, { recursive: true, force: true });
    delete process.env.KUBECACHEDIR;
  };
}
