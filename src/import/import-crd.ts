/**
 * One CRD → its TypeScript files, with everything that could not be carried over: the pure core
 * of `tsop import`. Each version gets one file (kind-file.ts); for the project's own kinds the
 * round trip (round-trip.ts) checks the files give back the same CRD and names every loss at the
 * line of its `// tsop: not expressible` comment. External kinds are types only: nothing is
 * generated from them, so there is no round trip to check.
 *
 * Everything is written and checked with the project's manifests options, as `tsop manifests`
 * will generate: a core type matches with its descriptions as `maxDescLen` leaves them.
 * CRDs with no description anywhere are what controller-gen's `crd:maxDescLen=0` writes:
 * inferMaxDescLen says so, for the caller to import them with 0 and keep it in the project.
 */
import { posix } from 'node:path';
import { MANIFESTS_PLUGIN, type ProjectManifestOptions } from '../manifests/project-options.js';
import type { ProjectConfig } from '../project/config.js';
import { resourceNames } from '../project/resource.js';
import { RUNTIME_DIR } from '../scaffold/embedded-runtime.js';
import type { Crd, CrdSource } from './crd.js';
import type { CoreTypeMatcher } from './core-types.js';
import { hasDescription } from './descriptions.js';
import { kindFile } from './kind-file.js';
import type { Loss } from './model.js';
import type { Rendered } from './render.js';
import { renderFile } from './render.js';
import { roundTrip, type RoundTripFile, type RoundTripResult } from './round-trip.js';

export type ImportMode = 'own' | 'external';

export type ImportSettings = CommonSettings &
  (
    | {
        /** The project's manifests options: the files are written for them and the round trip generates with them. */
        manifestOptions: ProjectManifestOptions;
      }
    | {
        /** @deprecated Pass manifestOptions (its generateEmbeddedObjectMeta); kept so callers written before it compile. */
        embeddedObjectMeta: boolean;
      }
  );

interface CommonSettings {
  mode: ImportMode;
  /** Where a version's types file goes (project-relative). */
  typesPath: (crd: Crd, version: string) => string;
  /** The project's license header, put on top of each file. */
  header: string;
  /** Core-type schemas, shared by the imports of one run. */
  matcher: CoreTypeMatcher;
}

/** A manifests option the CRDs themselves show, which the project did not set. */
export interface InferredOption {
  maxDescLen: 0;
  /** One line for the user: what was inferred, from what, and where it is kept. */
  note: string;
}

export interface ImportedKind {
  source: CrdSource;
  files: RoundTripFile[];
  rendered: Map<string, Rendered>;
  /** What the TypeScript cannot say, each at the line of its comment. */
  losses: Array<{ file: string; line: number; loss: Loss }>;
  /** The round trip (own kinds). */
  roundTrip?: RoundTripResult;
}

export function importCrd(source: CrdSource, s: ImportSettings): ImportedKind {
  const { crd } = source;
  const manifestOptions =
    'manifestOptions' in s ? s.manifestOptions : { generateEmbeddedObjectMeta: s.embeddedObjectMeta };
  const matcher = s.matcher.for(manifestOptions);
  const storage = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0]!;
  const files: RoundTripFile[] = crd.spec.versions.map((version) => {
    const path = s.typesPath(crd, version.name);
    const file = kindFile(
      { crd, version, carriesCrdSettings: version === storage },
      {
        style: s.mode === 'own' ? 'decorated' : 'plain',
        path,
        runtimeDir: posix.relative(posix.dirname(path), RUNTIME_DIR),
        matcher,
        manifestOptions,
      },
    );
    return { file, version: version.name, group: crd.spec.group };
  });
  if (s.mode === 'external') {
    const rendered = new Map(files.map((f) => [f.file.path, renderFile(f.file, s.header)]));
    return { source, files, rendered, losses: [] };
  }
  const result = roundTrip(crd, files, s.header, manifestOptions);
  const losses = [...result.rendered].flatMap(([file, r]) => r.losses.map(({ line, loss }) => ({ file, line, loss })));
  return { source, files, rendered: result.rendered, losses, roundTrip: result };
}

/**
 * maxDescLen 0 when the project sets no maxDescLen and every CRD of the import has fields but no
 * description anywhere, as controller-gen's `crd:maxDescLen=0` writes them; else undefined. One
 * answer for the whole import, since the option is the project's: a caller that takes it imports
 * each CRD with it, keeps it in PROJECT and prints the note (and must not take it when the
 * project already has kinds whose descriptions it would drop).
 */
export function inferMaxDescLen(
  sources: readonly CrdSource[],
  options: ProjectManifestOptions,
): InferredOption | undefined {
  if (options.maxDescLen !== undefined || sources.length === 0) return undefined;
  for (const { crd } of sources) {
    const schemas = crd.spec.versions.map((v) => v.schema.openAPIV3Schema);
    if (!schemas.some((root) => Object.keys(root.properties ?? {}).length > 0) || schemas.some(hasDescription))
      return undefined;
  }
  const what =
    sources.length === 1
      ? `${sources[0]!.origin}: ${sources[0]!.crd.metadata.name} has`
      : `the ${sources.length} CRDs have`;
  return {
    maxDescLen: 0,
    note:
      `import crd: ${what} no description anywhere, as controller-gen's crd:maxDescLen=0 writes ` +
      `them, so the project's manifests options now say maxDescLen: 0 ` +
      `(plugins.${MANIFESTS_PLUGIN} in PROJECT) and tsop manifests writes them the same`,
  };
}

/** The group of a CRD without the project's domain (`flights` of `flights.example.com`), or undefined when it is not under the domain. */
export function groupInDomain(group: string, domain: string): string | undefined {
  if (domain === '') return group;
  if (group === domain) return '';
  return group.endsWith(`.${domain}`) ? group.slice(0, -domain.length - 1) : undefined;
}

/** The types file of one version of an own kind: where `tsop create api` puts it. */
export function ownTypesPath(config: ProjectConfig, crd: Crd, version: string): string {
  const group = groupInDomain(crd.spec.group, config.domain) ?? crd.spec.group;
  return resourceNames(config, { group, version, kind: crd.spec.names.kind, domain: config.domain }).paths.types;
}

/** The types file of an external kind: src/external/<group>/<version>/<kind>.ts. */
export function externalTypesPath(crd: Crd, version: string): string {
  return `src/external/${crd.spec.group}/${version}/${crd.spec.names.kind.toLowerCase()}.ts`;
}
