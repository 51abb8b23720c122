/**
 * The use case behind `tsop import crd`: CRDs → the project's files, with every loss named. The
 * import is checked whole before anything is planned: a CRD of another domain, a round trip
 * `tsop manifests` cannot complete, or (without `allowLossy`) anything the TypeScript cannot say
 * stops it with one line per problem and nothing written.
 */
import { UserError, UserErrors } from '../errors.js';
import { projectManifestOptions, withManifestOptions } from '../manifests/project-options.js';
import { boilerplate, BOILERPLATE_FILE, scaffoldYear } from '../scaffold/boilerplate.js';
import { tsopSettings, type ProjectConfig } from '../project/config.js';
import type { Tree } from '../scaffold/tree.js';
import type { CrdSource } from './crd.js';
import { CoreTypeMatcher } from './core-types.js';
import {
  externalTypesPath,
  groupInDomain,
  importCrd,
  inferMaxDescLen,
  ownTypesPath,
  type ImportedKind,
  type ImportMode,
} from './import-crd.js';
import { planExternal, planOwn } from './plan.js';

export interface ImportPlan {
  kinds: ImportedKind[];
  /** The PROJECT config after the plan. */
  config: ProjectConfig;
  /** `file:line: not expressible: …`, one per loss (empty when every CRD came through whole). */
  lossLines: string[];
  /** What the import inferred for the project (a manifests option the CRDs show), one line each. */
  notes: string[];
}

export interface ImportOptions {
  mode: ImportMode;
  allowLossy: boolean;
  force: boolean;
  /** The command messages name (default `import crd`). */
  command?: 'import crd' | 'import kubebuilder';
}

export function planImport(
  tree: Tree,
  config: ProjectConfig,
  crds: readonly CrdSource[],
  o: ImportOptions,
): ImportPlan {
  if (o.mode === 'own') {
    const foreign = crds.find((c) => groupInDomain(c.crd.spec.group, config.domain) === undefined);
    if (foreign) {
      const { group } = foreign.crd.spec;
      throw new UserError(
        `import crd: ${foreign.crd.metadata.name} is in the group ${group}, which is not under the ` +
          `project's domain ${config.domain}; a project serves kinds of its own domain: pass ` +
          `--external to use the kind without serving it, or import it into a project made with ` +
          `'tsop init --domain ${group.includes('.') ? group.slice(group.indexOf('.') + 1) : group}'`,
      );
    }
  }
  const settings = tsopSettings(config);
  const header = tree.read(BOILERPLATE_FILE) ?? boilerplate(settings.license, settings.owner, scaffoldYear());
  // The project's manifests settings (for `import kubebuilder`, its Makefile's already): the round
  // trip generates with them, as `tsop manifests` will.
  // CRDs written with crd:maxDescLen=0 say so by having no description at all: a project with no
  // kinds of its own yet takes that setting, so its CRDs come back the same. One with kinds keeps
  // its own setting (taking 0 would drop their descriptions).
  const projectOptions = projectManifestOptions(config);
  const inferred = o.mode === 'own' && !hasOwnKinds(config) ? inferMaxDescLen(crds, projectOptions) : undefined;
  const manifestOptions = inferred ? { ...projectOptions, maxDescLen: inferred.maxDescLen } : projectOptions;
  const matcher = new CoreTypeMatcher(manifestOptions);
  const kinds = crds.map((source) =>
    importCrd(source, {
      mode: o.mode,
      typesPath: o.mode === 'own' ? (crd, version) => ownTypesPath(config, crd, version) : externalTypesPath,
      header,
      manifestOptions,
      matcher,
    }),
  );
  const failed = kinds.flatMap((k) =>
    (k.roundTrip?.errors ?? []).map(
      (e) =>
        new UserError(
          `${o.command ?? 'import crd'}: ${k.source.origin}: tsop manifests cannot read the TypeScript written for ${k.source.crd.metadata.name}: ${e}`,
        ),
    ),
  );
  if (failed.length > 0) throw new UserErrors(failed);
  const lossLines = kinds.flatMap((k) =>
    k.losses.map(
      ({ file, line, loss }) =>
        `${file}:${line}: not expressible: ${loss.what}${loss.path && loss.path !== 'crd' ? ` (at ${loss.path} of ${loss.version})` : ''}`,
    ),
  );
  if (lossLines.length > 0 && !o.allowLossy) {
    throw new UserErrors([
      ...lossLines.map((l) => new UserError(l)),
      new UserError(
        `${o.command ?? 'import crd'}: ${lossLines.length} ` +
          `thing${lossLines.length === 1 ? '' : 's'} of the CRD${crds.length === 1 ? '' : 's'} ` +
          `cannot be said in TypeScript (listed above), so nothing was written; pass --allow-lossy ` +
          `to write the closest TypeScript with a '// tsop: not expressible' comment at each`,
      ),
    ]);
  }
  const settled = inferred ? withManifestOptions(config, { maxDescLen: inferred.maxDescLen }) : config;
  const next = o.mode === 'own' ? planOwn(tree, settled, kinds, o.force) : (planExternal(tree, kinds, o.force), config);
  return { kinds, config: next, lossLines, notes: inferred ? [inferred.note] : [] };
}

/** Whether the project already serves kinds of its own (whose CRDs its settings shape). */
function hasOwnKinds(config: ProjectConfig): boolean {
  return config.resources.some((r) => r.api !== undefined && r.external !== true);
}
