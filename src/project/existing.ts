/**
 * What `tsop init` finds in the directory before it plans anything: nothing, a tsop project, or
 * another tool's operator project (kubebuilder's PROJECT, or a Go module built on
 * controller-runtime). init refuses to scaffold over another tool's project unless told to, and
 * never drops the resources a project lists.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { LAYOUT, PROJECT_FILE } from './config.js';

export type ExistingProject =
  | { kind: 'none' }
  /** A tsop PROJECT; `resources` are the kinds it lists (`Memcached.cache`). */
  | { kind: 'tsop'; resources: string[] }
  /** kubebuilder's (or operator-sdk's) Go project: `what` says how it was recognised. */
  | { kind: 'go'; what: string; resources: string[] };

export function existingProject(root: string): ExistingProject {
  const project = read(join(root, PROJECT_FILE));
  if (project !== undefined) {
    let data: { layout?: unknown; resources?: unknown } = {};
    try {
      data = (parse(project) ?? {}) as typeof data;
    } catch {
      // Not YAML: neither tool wrote it; the caller's own checks report the existing file.
    }
    const layout = Array.isArray(data.layout)
      ? data.layout.map(String)
      : typeof data.layout === 'string'
        ? [data.layout]
        : [];
    const resources = (Array.isArray(data.resources) ? data.resources : []).map((r) => {
      const { kind, group } = (r ?? {}) as { kind?: unknown; group?: unknown };
      return group ? `${String(kind)}.${String(group)}` : String(kind);
    });
    if (layout.includes(LAYOUT)) return { kind: 'tsop', resources };
    if (layout.length > 0) return { kind: 'go', what: `PROJECT layout ${layout.join(', ')}`, resources };
    return { kind: 'tsop', resources };
  }
  const goMod = read(join(root, 'go.mod'));
  if (goMod?.includes('sigs.k8s.io/controller-runtime')) {
    return { kind: 'go', what: 'go.mod requires sigs.k8s.io/controller-runtime', resources: [] };
  }
  return { kind: 'none' };
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
