/**
 * Imported kinds → the project's files, planned in the scaffold's virtual tree (nothing is
 * written until the caller commits the whole plan). An own kind takes `create api`'s pieces —
 * its PROJECT entry, group-version file, sample, roles and kustomization entries, through the
 * same plugin — with the imported types and a sample that fits its schema in place of the
 * template's. An external kind gets its types under src/external/ and its CRD under
 * config/crd/external/, where the controller tests `create api --external-api-path` writes install
 * CRDs from.
 */
import { UserError } from '../errors.js';
import { toYamlDocument } from '../yaml/go-yaml-writer.js';
import { scaffoldApi } from '../plugins/base/create-api.js';
import type { ProjectConfig } from '../project/config.js';
import { checkGroup, checkKind, checkVersion } from '../project/naming.js';
import { pluralOfKind } from '../project/plural.js';
import { resourceNames } from '../project/resource.js';
import type { Tree } from '../scaffold/tree.js';
import { authoredCrd, type Crd } from './crd.js';
import { groupInDomain, type ImportedKind } from './import-crd.js';
import { sampleYaml } from './sample.js';

/** Records own kinds into `tree`; returns the updated PROJECT config (already planned into the tree). */
export function planOwn(
  tree: Tree,
  config: ProjectConfig,
  kinds: readonly ImportedKind[],
  force: boolean,
): ProjectConfig {
  let next = config;
  for (const k of kinds) {
    const crd = k.source.crd;
    const kind = crd.spec.names.kind;
    const group = ownGroup(crd, config);
    checkKind(kind);
    if (group !== '') checkGroup(group, config.domain);
    const plural = crd.spec.names.plural !== pluralOfKind(kind) ? crd.spec.names.plural : undefined;
    for (const v of crd.spec.versions) {
      checkVersion(v.name);
      next = scaffoldApi(tree, next, {
        group,
        version: v.name,
        kind,
        ...(plural !== undefined ? { plural } : {}),
        resource: true,
        controller: false,
        namespaced: crd.spec.scope === 'Namespaced',
        force,
      });
    }
  }
  // After every version is recorded: create api marks a first version stored when a second comes,
  // and the imported files say which version is stored themselves.
  for (const k of kinds) {
    const crd = k.source.crd;
    for (const f of k.files) {
      tree.overwrite(f.file.path, k.rendered.get(f.file.path)!.text);
      const version = crd.spec.versions.find((v) => v.name === f.version)!;
      const resource = next.resources.find(
        (r) => r.kind === crd.spec.names.kind && r.version === f.version && !r.external && !r.core,
      )!;
      tree.overwrite(resourceNames(next, resource).paths.sample, sampleYaml(crd, version, next.projectName));
    }
  }
  return next;
}

/** Records external kinds: their types, and their CRD for the controller tests to install. */
export function planExternal(tree: Tree, kinds: readonly ImportedKind[], force: boolean): void {
  for (const k of kinds) {
    for (const f of k.files) tree.create(f.file.path, k.rendered.get(f.file.path)!.text, { force });
    tree.create(externalCrdPath(k.source.crd), toYamlDocument(authoredCrd(k.source.crd)), { force });
  }
}

export function externalCrdPath(crd: Crd): string {
  return `config/crd/external/${crd.spec.group}_${crd.spec.names.plural}.yaml`;
}

/** The kind's group within the project's domain (import-project.ts checks it is under it). */
function ownGroup(crd: Crd, config: ProjectConfig): string {
  const group = groupInDomain(crd.spec.group, config.domain);
  if (group === undefined)
    throw new UserError(
      `import crd: ${crd.metadata.name}: group ${crd.spec.group} is not under the project's domain ${config.domain}`,
    );
  return group;
}
