/**
 * The round trip, run on every import: the written TypeScript is read back by tsop's own reader
 * and generator (what `tsop manifests` runs, in memory) and the CRD it gives is compared with the
 * one imported. A marker `tsop manifests` refuses is dropped and named as a loss, and the files
 * are written again; a difference nobody predicted is named as a loss too. So whatever import
 * cannot carry over is said, never lost silently.
 */
import { posix } from 'node:path';
import { markerByName } from '../codegen/markers/index.js';
import { readApiModel } from '../codegen/reader/index.js';
import { generateManifests } from '../manifests/generate.js';
import type { ProjectManifestOptions } from '../manifests/project-options.js';
import { TSOP_VERSION } from '../version.js';
import { yamlLibrary } from '../yaml/library.js';
import { readBlockYaml } from '../yaml/block-reader.js';
import { crdDifferences, type Difference } from './compare.js';
import type { Crd } from './crd.js';
import type { Loss, TsClass, TsFile } from './model.js';
import { renderFile, type Rendered } from './render.js';

export interface RoundTripFile {
  file: TsFile;
  version: string;
  /** The group-version the file's directory declares. */
  group: string;
}

export interface RoundTripResult {
  rendered: Map<string, Rendered>;
  /** The CRD `tsop manifests` generates from the files; undefined when it reports errors. */
  generated?: Crd;
  /** Differences from the imported CRD that no loss predicted (each also added as a loss). */
  unexplained: Difference[];
  /** Errors `tsop manifests` still reports (file:line: message); none when it generated. */
  errors: string[];
  /** The warnings `tsop manifests` prints for the files (file:line: message). */
  warnings: string[];
}

const MAX_PASSES = 6;

export function roundTrip(
  crd: Crd,
  files: readonly RoundTripFile[],
  header: string,
  manifestOptions: ProjectManifestOptions,
): RoundTripResult {
  for (let pass = 1; ; pass++) {
    const rendered = new Map(files.map((f) => [f.file.path, renderFile(f.file, header)]));
    const sources: Record<string, string> = {};
    for (const f of files) {
      sources[f.file.path] = rendered.get(f.file.path)!.text;
      sources[posix.join(posix.dirname(f.file.path), 'groupversion.ts')] =
        `export const groupVersion = { group: '${f.group}', version: '${f.version}' } as const;\n`;
    }
    const result = generateManifests(readApiModel(sources), {
      tsopVersion: TSOP_VERSION,
      generateEmbeddedObjectMeta: manifestOptions.generateEmbeddedObjectMeta === true,
      controllerGenCompat: manifestOptions.controllerGenCompat === true,
      ...(manifestOptions.maxDescLen !== undefined ? { maxDescLen: manifestOptions.maxDescLen } : {}),
    });
    if (result.errors.length > 0) {
      const dropped = result.errors.every((e) => dropRefused(e.file, e.line, e.detail, rendered, files));
      if (dropped && pass < MAX_PASSES) continue;
      return { rendered, unexplained: [], errors: result.errors.map((e) => e.message), warnings: result.warnings };
    }
    const path = `crd/bases/${crd.spec.group}_${crd.spec.names.plural}.yaml`;
    const text = result.files[path];
    if (text === undefined)
      return {
        rendered,
        unexplained: [],
        errors: [`tsop manifests wrote no ${path} (it wrote ${Object.keys(result.files).join(', ') || 'nothing'})`],
        warnings: result.warnings,
      };
    const generated = (readBlockYaml(text)?.[0] ?? yamlLibrary().parse(text)) as Crd;
    const unexplained = crdDifferences(crd, generated).filter((d) => !explained(d, files));
    if (unexplained.length === 0) return { rendered, generated, unexplained, errors: [], warnings: result.warnings };
    const root = kindClass(
      files.find((f) => f.version === (unexplained[0]!.version || f.version))?.file ?? files[0]!.file,
    );
    for (const d of unexplained)
      root.losses.push({
        version: d.version,
        path: d.path,
        what: `the round trip changes ${d.path === 'crd' ? 'the CRD' : d.path || 'the root'}${d.version ? ` (${d.version})` : ''}: ${d.detail}`,
      });
    return {
      rendered: new Map(files.map((f) => [f.file.path, renderFile(f.file, header)])),
      generated,
      unexplained,
      errors: [],
      warnings: result.warnings,
    };
  }
}

/** Every loss the model predicted, by version. */
function lossesOf(files: readonly RoundTripFile[]): Loss[] {
  const out: Loss[] = [];
  for (const { file } of files) {
    for (const d of file.declarations) {
      if (d.kind === 'kindConst') continue;
      out.push(...d.losses);
      if (d.kind === 'class') for (const f of d.fields) out.push(...f.losses);
    }
  }
  return out;
}

/** A difference at a path where (or under which) a loss was predicted, wherever a shared type stands. */
function explained(d: Difference, files: readonly RoundTripFile[]): boolean {
  const losses = lossesOf(files);
  const shared = files.filter((f) => f.version === d.version).flatMap((f) => f.file.sharedPaths);
  const seen = new Set<string>();
  for (let path: string | undefined = d.path; path !== undefined && !seen.has(path); path = firstPathOf(path, shared)) {
    seen.add(path);
    const p = path;
    const hit = losses.some(
      (l) =>
        (l.version === d.version || d.version === '') &&
        (l.path === p ||
          (l.path !== '' && l.path !== 'crd' && (p.startsWith(`${l.path}.`) || p.startsWith(`${l.path}[`)))),
    );
    if (hit) return true;
  }
  return false;
}

/** The path a shared type's first use gives `path` (its prefix replaced), or undefined. */
function firstPathOf(path: string, shared: ReadonlyArray<[string, string]>): string | undefined {
  for (const [later, first] of shared) {
    if (path === later || path.startsWith(`${later}.`) || path.startsWith(`${later}[`))
      return first + path.slice(later.length);
  }
  return undefined;
}

/**
 * A decorator `tsop manifests` refused at `file:line`: removed from the model and named as a loss
 * at the place it stood. False when the line holds no decorator (the error cannot be undone so).
 */
function dropRefused(
  file: string,
  line: number,
  detail: string,
  rendered: Map<string, Rendered>,
  files: readonly RoundTripFile[],
): boolean {
  const ref = rendered.get(file)?.lines.get(line);
  const owner = files.find((f) => f.file.path === file);
  if (!ref || !owner || ref.decl.kind !== 'class') return false;
  const holder = ref.field ?? ref.decl;
  // A kind's problems are reported at its first line: the marker they name is the one to drop.
  const named = /@(\w+)/.exec(detail)?.[1];
  const decorator = holder.decorators.find((d) => d.name === named) ?? ref.decorator;
  const at = decorator ? holder.decorators.indexOf(decorator) : -1;
  if (!decorator || at < 0) return false;
  holder.decorators.splice(at, 1);
  const what = detail.replace(/^[^:]*: /, '');
  const kindMarker = markerByName(decorator.name)?.target === 'kind';
  holder.losses.push({
    version: owner.version,
    path: kindMarker ? 'crd' : holder.path,
    what: `@${decorator.name} (tsop manifests refuses it: ${what})`,
  });
  return true;
}

function kindClass(file: TsFile): TsClass {
  const classes = file.declarations.filter((d): d is TsClass => d.kind === 'class');
  return classes[classes.length - 1]!;
}
