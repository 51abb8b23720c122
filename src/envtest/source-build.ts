/**
 * The build of the control-plane binaries from source: scripts/control-plane.sh (shipped with
 * tsop) through the Go module proxy, into setup-envtest's cache, for one exact version. What
 * `tsop envtest use --source` runs, and what `tsop envtest use` and `tsop dev` fall back to when
 * the download hosts cannot be reached and Go is installed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { UserError } from '../errors.js';
import { TSOP_ROOT } from '../version.js';

export const CONTROL_PLANE_SCRIPT = join(TSOP_ROOT, 'scripts/control-plane.sh');

export function goInstalled(): boolean {
  return spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;
}

export interface SourceBuild {
  /** An exact version, e.g. 1.36.3. */
  version: string;
  /** Also kube-controller-manager, kube-scheduler and kwok. */
  fuller: boolean;
  /** The cache root (`<root>/k8s/<version>-<os>-<arch>/`). */
  root: string;
  /** Each progress line of the build; without it, they go to this process's standard error. */
  onLine?: (line: string) => void;
}

/** Resolves with the directory the binaries are in; rejects with a UserError naming the script when the build fails. */
export function buildFromSource(build: SourceBuild): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [CONTROL_PLANE_SCRIPT], {
      env: {
        ...process.env,
        KUBE_VERSION: build.version,
        TSOP_ASSETS_ROOT: build.root,
        ...(build.fuller ? {} : { MINIMAL: '1' }),
      },
      stdio: ['ignore', 'pipe', build.onLine ? 'pipe' : 'inherit'],
    });
    if (build.onLine && child.stderr) createInterface({ input: child.stderr }).on('line', build.onLine);
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const dir = out.trim().split('\n').pop() ?? '';
      if (code === 0 && dir) resolve(dir);
      else
        reject(
          new UserError(
            `building the control-plane binaries from source failed (bash ${CONTROL_PLANE_SCRIPT} exited ${code ?? 'on a signal'}); its output says why`,
          ),
        );
    });
  });
}
