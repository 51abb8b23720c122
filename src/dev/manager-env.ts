/**
 * The environment the manager's container declares in config/manager/manager.yaml (deploy-image's
 * `<KIND>_IMAGE`, or any variable a user adds there), so that the operator `tsop dev` runs sees
 * what it sees in the cluster. Only literal `value`s count: a `valueFrom` (a Secret, a field of
 * the pod) has no meaning outside the cluster. The session's own environment wins over both.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const MANAGER_MANIFEST = 'config/manager/manager.yaml';

interface Container {
  name?: unknown;
  env?: unknown;
}

/** name → value of the literal variables of the `manager` container (else the first container). */
export function declaredManagerEnv(manifest: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const doc of parseAllDocuments(manifest)) {
    const object = doc.toJS() as { kind?: unknown; spec?: { template?: { spec?: { containers?: unknown } } } } | null;
    if (object?.kind !== 'Deployment') continue;
    const containers = object.spec?.template?.spec?.containers;
    if (!Array.isArray(containers) || containers.length === 0) continue;
    const manager = (containers as Container[]).find((c) => c.name === 'manager') ?? (containers[0] as Container);
    if (!Array.isArray(manager.env)) continue;
    for (const entry of manager.env as Array<{ name?: unknown; value?: unknown }>) {
      if (typeof entry?.name === 'string' && typeof entry.value === 'string') out[entry.name] = entry.value;
    }
  }
  return out;
}

/** The project's declared manager environment, or none when the file is missing or not YAML. */
export function readManagerEnv(root: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(join(root, MANAGER_MANIFEST), 'utf8');
  } catch {
    return {};
  }
  try {
    return declaredManagerEnv(text);
  } catch {
    return {};
  }
}
