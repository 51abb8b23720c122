/**
 * One CRD → its TypeScript files, with everything that could not be carried over: the pure core
 * of `tsop import`. Each version gets one file (kind-file.ts); for the project's own kinds the
 * round trip (round-trip.ts) checks the files give back the same CRD and names every loss at the
 * line of its `// tsop: not expressible` comment. External kinds are types only: nothing is
 * generated from them, so there is no round trip to check.
 */
import { posix } from 'node:path';
import type { ProjectConfig } from '../project/config.js';
import { resourceNames } from '../project/resource.js';
import { RUNTIME_DIR } from '../scaffold/embedded-runtime.js';
import type { Crd, CrdSource } from './crd.js';
import type { CoreTypeMatcher } from './core-types.js';
import { kindFile } from './kind-file.js';
import type { Loss } from './model.js';
import type { Rendered } from './render.js';
import { renderFile } from './render.js';
import { roundTrip, type RoundTripFile, type RoundTripResult } from './round-trip.js';

export type ImportMode = 'own' | 'external';

export interface ImportSettings {
  mode: ImportMode;
  /** Where a version's types file goes (project-relative). */
  typesPath: (crd: Crd, version: string) => string;
  /** The project's license header, put on top of each file. */
  header: string;
  embeddedObjectMeta: boolean;
  matcher: CoreTypeMatcher;
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
  const storage = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0]!;
  const files: RoundTripFile[] = crd.spec.versions.map((version) => {
    const path = s.typesPath(crd, version.name);
    const file = kindFile(
      { crd, version, carriesCrdSettings: version === storage },
      {
        style: s.mode === 'own' ? 'decorated' : 'plain',
        path,
        runtimeDir: posix.relative(posix.dirname(path), RUNTIME_DIR),
        matcher: s.matcher,
        embeddedObjectMeta: s.embeddedObjectMeta,
      },
    );
    return { file, version: version.name, group: crd.spec.group };
  });
  if (s.mode === 'external') {
    const rendered = new Map(files.map((f) => [f.file.path, renderFile(f.file, s.header)]));
    return { source, files, rendered, losses: [] };
  }
  const result = roundTrip(crd, files, s.header, s.embeddedObjectMeta);
  const losses = [...result.rendered].flatMap(([file, r]) => r.losses.map(({ line, loss }) => ({ file, line, loss })));
  return { source, files, rendered: result.rendered, losses, roundTrip: result };
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
