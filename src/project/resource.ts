/**
 * Where a resource's files go and the names templates use, derived from the PROJECT settings
 * and one group/version/kind. Pure: kubebuilder's layout in TypeScript form —
 *   single group: src/api/<version>/, src/controllers/
 *   multigroup:   src/api/<group>/<version>/, src/controllers/<group>/
 * PROJECT's recorded `path` is the truth for a kind that has one: a kind created before
 * `edit --multigroup` keeps src/api/<version>/, and its controller, webhook and file names keep the
 * layout that path shows, so every scaffolder (and `alpha generate`) finds it where it is.
 */
import { posix } from 'node:path';
import type { ProjectConfig, ProjectResource } from './config.js';
import { camelKind, fullGroup, lowerKind } from './naming.js';
import { pluralOfKind } from './plural.js';

export interface ResourceNames {
  group: string;
  version: string;
  kind: string;
  domain: string;
  /** `batch.example.com` (or the domain alone for an empty group). */
  fullGroup: string;
  plural: string;
  /** `cronjob`. */
  lowerKind: string;
  /** `cronJob`. */
  camelKind: string;
  /** `batch.example.com/v1`. */
  apiVersion: string;
  namespaced: boolean;
  /** Prefix for per-kind files shared across groups (`batch_cronjob` in multigroup, else `cronjob`). */
  filePrefix: string;
  /** Prefix of the kind's ClusterRole names (`batch-cronjob` in multigroup, else `cronjob`), as kubebuilder names them. */
  rolePrefix: string;
  /** The layout this kind's files follow: its recorded path's, else the project's. */
  multigroup: boolean;
  paths: {
    apiDir: string;
    groupVersion: string;
    types: string;
    controllerDir: string;
    controller: string;
    controllerTest: string;
    sample: string;
    crd: string;
  };
}

/** Where the project's own kinds record their types (`path`); a built-in or another project's kind records an import path there. */
function recordedApiDir(r: ProjectResource): string | undefined {
  return r.core === true || r.external === true ? undefined : r.path;
}

const layoutApiDir = (multigroup: boolean, r: ProjectResource): string =>
  multigroup ? posix.join('src/api', r.group || 'core', r.version) : posix.join('src/api', r.version);

/** Whether a kind's files follow the multigroup layout: the one its recorded path shows, else the project's setting. */
export function resourceMultigroup(config: ProjectConfig, r: ProjectResource): boolean {
  const recorded = recordedApiDir(r);
  if (recorded === layoutApiDir(false, r)) return false;
  if (recorded === layoutApiDir(true, r)) return true;
  return config.multigroup === true;
}

export function resourceNames(config: ProjectConfig, r: ProjectResource): ResourceNames {
  const multigroup = resourceMultigroup(config, r);
  const lk = lowerKind(r.kind);
  const plural = r.plural ?? pluralOfKind(r.kind);
  const fg = fullGroup(r.group, r.domain);
  const apiDir = recordedApiDir(r) ?? layoutApiDir(multigroup, r);
  const controllerDir = multigroup ? posix.join('src/controllers', r.group || 'core') : 'src/controllers';
  return {
    group: r.group,
    version: r.version,
    kind: r.kind,
    domain: r.domain,
    fullGroup: fg,
    plural,
    lowerKind: lk,
    camelKind: camelKind(r.kind),
    apiVersion: `${fg}/${r.version}`,
    namespaced: r.api?.namespaced ?? true,
    filePrefix: multigroup && r.group ? `${r.group}_${lk}` : lk,
    rolePrefix: multigroup && r.group ? `${r.group}-${lk}` : lk,
    multigroup,
    paths: {
      apiDir,
      groupVersion: posix.join(apiDir, 'groupversion.ts'),
      // A kind named GroupVersion would overwrite the group-version file of its directory.
      types: posix.join(apiDir, lk === 'groupversion' ? 'groupversion-types.ts' : `${lk}.ts`),
      controllerDir,
      controller: posix.join(controllerDir, `${lk}-controller.ts`),
      controllerTest: posix.join(controllerDir, `${lk}-controller.test.ts`),
      sample: `config/samples/${r.group || 'core'}_${r.version}_${lk}.yaml`,
      crd: `config/crd/bases/${fg}_${plural}.yaml`,
    },
  };
}

/** A relative ESM import specifier from one project file to another (`.ts` → `.js`). */
export function importPath(from: string, to: string): string {
  let rel = posix.relative(posix.dirname(from), to).replace(/\.ts$/, '.js');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return rel;
}

/** The same group/version/kind (domain included) as an existing resource. */
export function sameGVK(a: ProjectResource, b: ProjectResource): boolean {
  return a.group === b.group && a.version === b.version && a.kind === b.kind && a.domain === b.domain;
}

/** The name a kind's first controller runs under: `memcached`, `cache-memcached` in the multigroup layout. */
export function defaultControllerName(_config: ProjectConfig, n: ResourceNames): string {
  return n.multigroup ? `${n.group}-${n.lowerKind}` : n.lowerKind;
}

/** The file of a kind's controller by name: the kind's own for its first, `<name>-controller.ts` beside it for the others. */
export function controllerFile(config: ProjectConfig, n: ResourceNames, name: string): string {
  return name === defaultControllerName(config, n)
    ? n.paths.controller
    : posix.join(n.paths.controllerDir, `${name}-controller.ts`);
}

/** The names a resource's controllers run under: PROJECT's `controllers` list, or the default one for `controller: true`. */
export function controllerNames(config: ProjectConfig, r: ProjectResource): string[] {
  return (
    r.controllers?.map((c) => c.name) ?? (r.controller ? [defaultControllerName(config, resourceNames(config, r))] : [])
  );
}
