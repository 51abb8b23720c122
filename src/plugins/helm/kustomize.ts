/**
 * The project's kustomize output, as `npm run build-installer` makes it: `kubectl kustomize
 * config/default` with the manager image set to $IMG. kubectl comes from $KUBECTL, PATH,
 * $KUBEBUILDER_ASSETS, or the control-plane cache scripts/control-plane.sh fills (newest first).
 */
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { UserError } from '../../errors.js';

export async function kustomizeBuild(root: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const kubectl = findKubectl(env);
  if (kubectl === undefined) {
    throw new UserError(
      [
        'edit --plugins helm/v2-alpha: kubectl not found (looked at $KUBECTL, PATH, $KUBEBUILDER_ASSETS and',
        "the control-plane cache); install kubectl, or run 'npm run build-installer' elsewhere and pass",
        '--manifests dist/install.yaml',
      ].join(' '),
    );
  }
  const result = await execa(kubectl, ['kustomize', 'config/default'], { cwd: root, reject: false, env: { ...env } });
  if (result.exitCode !== 0) {
    const why = String(result.stderr).trim().split('\n').pop() ?? '';
    throw new UserError(
      `edit --plugins helm/v2-alpha: 'kubectl kustomize config/default' failed: ${why}; fix config/ and run it again`,
    );
  }
  const img = env['IMG'];
  const text = String(result.stdout);
  return img ? text.replaceAll('image: controller:latest', `image: ${img}`) : text;
}

export function findKubectl(env: NodeJS.ProcessEnv): string | undefined {
  if (env['KUBECTL']) return env['KUBECTL'];
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'kubectl'))) return join(dir, 'kubectl');
  }
  if (env['KUBEBUILDER_ASSETS'] && existsSync(join(env['KUBEBUILDER_ASSETS'], 'kubectl')))
    return join(env['KUBEBUILDER_ASSETS'], 'kubectl');
  const cache = join(env['XDG_DATA_HOME'] || join(homedir(), '.local', 'share'), 'kubebuilder-envtest', 'k8s');
  let versions: string[] = [];
  try {
    versions = readdirSync(cache).sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
  } catch {
    return undefined;
  }
  return versions.map((v) => join(cache, v, 'kubectl')).find((p) => existsSync(p));
}
