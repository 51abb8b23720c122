/**
 * The CRDs the API server is shown when the generator refused something: the same model with
 * each refused decorator (or, failing that, field) left out, so one run reports the generator's
 * errors and the server's together, and the samples are still checked against everything else.
 * A CRD that still fails on its own is left out, and said so.
 */
import type { SourceError } from '../errors.js';
import type { ApiModel, FieldDef, KindDef, MarkerUse, TypeRef } from '../codegen/model.js';
import type { ManifestResult } from '../manifests/generate.js';

export type Generate = (model: ApiModel) => ManifestResult;

export interface Pruned {
  /** The CRD files (config/-relative path → YAML) that generate without errors. */
  files: Record<string, string>;
  /** `group/Kind` of the CRDs that could not be generated even so. */
  skipped: string[];
}

const ROUNDS = 8;

export function generateForServer(model: ApiModel, generate: Generate): Pruned {
  // Only CRDs go to the server: RBAC and webhooks are checked by the generator alone.
  const m: ApiModel = { ...structuredClone(model), controllers: [], webhooks: [], diagnostics: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const result = generate(m);
    if (result.errors.length === 0) return { files: crdsOf(result.files), skipped: [] };
    const at = new Map<string, string[]>();
    for (const e of result.errors) at.set(where(e), [...(at.get(where(e)) ?? []), e.detail]);
    if (!dropMarkers(m, at) && !dropFields(m, at)) break;
  }
  return eachCrdAlone(m, generate);
}

const where = (e: SourceError): string => `${e.file}:${e.line}`;
const here = (at: Map<string, string[]>, m: { pos: { file: string; line: number } }): boolean =>
  at.has(`${m.pos.file}:${m.pos.line}`);

function crdsOf(files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).filter(([path]) => path.startsWith('crd/')));
}

function dropMarkers(m: ApiModel, at: Map<string, string[]>): boolean {
  let dropped = false;
  // Several decorators on one line: drop the ones the errors name, or all when none is named.
  const refused = (u: MarkerUse, line: MarkerUse[]): boolean => {
    const details = at.get(`${u.pos.file}:${u.pos.line}`);
    if (!details) return false;
    const named = line.filter((x) => details.some((d) => d.includes(`@${x.name}`)));
    return named.length === 0 || named.includes(u);
  };
  const keep = (uses: MarkerUse[]): MarkerUse[] => {
    const kept = uses.filter(
      (u) =>
        !refused(
          u,
          uses.filter((x) => x.pos.file === u.pos.file && x.pos.line === u.pos.line),
        ),
    );
    dropped ||= kept.length !== uses.length;
    return kept;
  };
  const inType = (t: TypeRef): void => {
    if (t.markers) t.markers = keep(t.markers);
    if (t.kind === 'array') inType(t.items);
    else if (t.kind === 'map') inType(t.values);
    else if (t.kind === 'nullable') inType(t.type);
    else if (t.kind === 'object') inFields(t.fields);
  };
  const inFields = (fields: FieldDef[]): void => {
    for (const f of fields) {
      f.markers = keep(f.markers);
      inType(f.type);
    }
  };
  for (const k of m.kinds) k.markers = keep(k.markers);
  for (const t of Object.values(m.types)) {
    t.markers = keep(t.markers);
    inFields(t.fields);
  }
  return dropped;
}

function dropFields(m: ApiModel, at: Map<string, string[]>): boolean {
  let dropped = false;
  const keep = (fields: FieldDef[]): FieldDef[] => {
    const kept = fields.filter((f) => !here(at, f));
    dropped ||= kept.length !== fields.length;
    for (const f of kept) if (f.type.kind === 'object') f.type.fields = keep(f.type.fields);
    return kept;
  };
  for (const t of Object.values(m.types)) t.fields = keep(t.fields);
  return dropped;
}

/** Last resort: each CRD (a kind's versions) generated alone; those that still fail are skipped. */
function eachCrdAlone(m: ApiModel, generate: Generate): Pruned {
  const crds = new Map<string, KindDef[]>();
  for (const k of m.kinds) crds.set(`${k.group}/${k.kind}`, [...(crds.get(`${k.group}/${k.kind}`) ?? []), k]);
  const files: Record<string, string> = {};
  const skipped: string[] = [];
  for (const [name, kinds] of [...crds].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const result = generate({ ...m, kinds });
    if (result.errors.length > 0) skipped.push(name);
    else Object.assign(files, crdsOf(result.files));
  }
  return { files, skipped };
}
