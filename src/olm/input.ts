/**
 * The manifests a bundle is made from: `kubectl kustomize <kustomize-dir>` (the manager image set
 * to $IMG, as `npm run build-installer` does), or every YAML file under --input-dir.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { UserError } from '../errors.js';
import { findKubectl } from '../plugins/helm/kustomize.js';
import type { Obj } from './objects.js';
import { parseDocuments } from '../yaml/documents-reader.js';

export type ManifestsSource = { kustomizeDir: string } | { inputDir: string };

export async function readManifestsInput(
  root: string,
  source: ManifestsSource,
  env: NodeJS.ProcessEnv,
): Promise<Obj[]> {
  if ('inputDir' in source) return readDir(join(root, source.inputDir), source.inputDir);
  const kubectl = findKubectl(env);
  if (kubectl === undefined) {
    throw new UserError(
      'generate bundle: kubectl not found (looked at $KUBECTL, PATH, $KUBEBUILDER_ASSETS and the control-plane cache); install kubectl, or build the manifests elsewhere and pass --input-dir <dir>',
    );
  }
  const result = await execa(kubectl, ['kustomize', source.kustomizeDir], {
    cwd: root,
    reject: false,
    env: { ...env },
  });
  if (result.exitCode !== 0) {
    const why = String(result.stderr).trim().split('\n').pop() ?? '';
    const hint = /no such file|does not exist|unable to find/i.test(why)
      ? `; run 'tsop generate kustomize manifests' first`
      : '; fix it and run the command again';
    throw new UserError(`generate bundle: 'kubectl kustomize ${source.kustomizeDir}' failed: ${why}${hint}`);
  }
  const img = env['IMG'];
  const text = String(result.stdout);
  return parseDocuments(
    img ? text.replaceAll('image: controller:latest', `image: ${img}`) : text,
    `kubectl kustomize ${source.kustomizeDir}`,
  );
}

function readDir(dir: string, shown: string): Obj[] {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true }).map(String).sort();
  } catch {
    throw new UserError(
      `--input-dir: ${shown} is not a readable folder; pass the folder holding the operator's manifests`,
    );
  }
  const docs: Obj[] = [];
  for (const name of names) {
    const file = join(dir, name);
    if (!/\.(ya?ml|json)$/.test(name) || !statSync(file).isFile()) continue;
    docs.push(...parseDocuments(readFileSync(file, 'utf8'), join(shown, name)));
  }
  return docs;
}
