/**
 * `tsop manifests` as a pure function: the project's API model (codegen/reader) → the files under
 * config/ (CRDs and role.yaml), warnings, and every error found, each located at a source line.
 * Nothing here touches the disk or loads ts-morph; the command decides what to write.
 */
import { SourceError, UserError } from '../errors.js';
import { SchemaBuilder, type KindSchema } from '../codegen/schema.js';
import { kindSettings, rbacRules, webhookSet } from '../codegen/settings.js';
import { truncateDescription } from '../codegen/description.js';
import { commentMarkerWarnings, nearMissWarnings, unknownMarkerErrors } from '../codegen/marker-checks.js';
import type { ApiModel, Diagnostic, KindDef, SourcePos } from '../codegen/model.js';
import type { JSONSchemaProps } from '../codegen/jsonschema.js';
import { buildCrd, type CrdVersion } from './crd.js';
import { checkStructural, nestedDefaultWarnings } from './structural.js';
import { renderRbac } from './rbac.js';
import { toYamlDocument } from '../yaml/go-yaml-writer.js';
import {
  conflictingConfigurationNames,
  duplicateWebhookNames,
  hubProblems,
  renamedConfigurations,
  renderWebhooks,
  WEBHOOK_MANIFESTS,
  type RenamedConfiguration,
} from './webhook.js';

/** kubectl's client-side apply keeps the whole object in one annotation of at most this size. */
const LAST_APPLIED_LIMIT = 262144;

export interface ManifestOptions {
  tsopVersion: string;
  /** Shorten descriptions to this many characters; 0 removes them. */
  maxDescLen?: number;
  /**
   * controller-gen's `generateEmbeddedObjectMeta`: ObjectMeta nested in a spec (pod templates)
   * gets name, namespace, labels, annotations and finalizers, so they are not pruned.
   */
  generateEmbeddedObjectMeta?: boolean;
  /**
   * Write what controller-gen writes where tsop deliberately writes otherwise: `@UniqueItems` as
   * `uniqueItems: true` (tsop: `x-kubernetes-list-type: set`, since the API server refuses
   * uniqueItems in a CRD) and a nullable enum as `enum` + `nullable` (tsop: a CEL rule, since the
   * API server's enum check refuses null). For a Go repository that wants no diff at all.
   */
  controllerGenCompat?: boolean;
}

export interface ManifestResult {
  /** Path relative to the output directory (config/) → file content. */
  files: Record<string, string>;
  warnings: string[];
  /** Sorted by file and line; when not empty, nothing should be written. */
  errors: SourceError[];
  /** Webhook configurations `@WebhookConfiguration` renamed: files that still say the old name need it. */
  renamedWebhookConfigurations: RenamedConfiguration[];
}

export function generateManifests(model: ApiModel, opts: ManifestOptions): ManifestResult {
  const diagnostics: Diagnostic[] = [...model.diagnostics, ...unknownMarkerErrors(model)];
  const hints: Diagnostic[] = [...(model.warnings ?? []), ...nearMissWarnings(model), ...commentMarkerWarnings(model)];
  const builder = new SchemaBuilder(model, diagnostics, hints, {
    embeddedObjectMeta: opts.generateEmbeddedObjectMeta === true,
    controllerGenCompat: opts.controllerGenCompat === true,
  });
  const files: Record<string, string> = {};
  const warnings: string[] = [];
  const owners = new Map<string, string>(); // CRD file → kind, to catch two kinds with one plural

  for (const [, versions] of groupKinds(model.kinds)) {
    const first = versions[0];
    if (!first) continue;
    const inputs: CrdVersion[] = [];
    for (const kind of versions) {
      const before = diagnostics.length;
      const built = builder.kindSchema(kind);
      if (opts.maxDescLen !== undefined) shortenDescriptions(built.schema, opts.maxDescLen);
      // A kind whose types or markers failed would only repeat those errors as structural ones.
      const issues =
        diagnostics.length === before
          ? checkStructural(built.schema, { uniqueItems: opts.controllerGenCompat === true })
          : [];
      for (const issue of issues) {
        // Deeper than any field of the user's own types: the node came whole from a core type.
        const upstream =
          issue.path !== '' && !(issue.path in built.origins) && fieldAbove(built, issue.path) !== undefined;
        // Its own fix (remove '?', add @Default) cannot be applied to upstream source, so offer the ways around it.
        const message = upstream
          ? `${issue.message.replace(/; [^;]*$/, '')}; this comes from the upstream schema of a core ` +
            `type the field embeds: declare the shape yourself, or mark the field @Schemaless() ` +
            `@PreserveUnknownFields() @Type('object')`
          : issue.message;
        diagnostics.push({
          pos: originOf(built, issue.path, kind.pos),
          message: `${kind.kind} ${issue.path || '(root)'}: ${message}`,
        });
      }
      const nested = nestedDefaultWarnings(built.schema, (path) => path in built.origins);
      for (const w of nested) {
        if (built.defaultsWhenPresent.has(w.path)) continue;
        const pos = originOf(built, w.path, kind.pos);
        warnings.push(`${pos.file}:${pos.line}: ${kind.kind} ${w.path}: ${w.message}`);
      }
      for (const path of built.defaultsWhenPresent) {
        if (nested.some((w) => w.path === path)) continue;
        const pos = originOf(built, path, kind.pos);
        warnings.push(
          `${pos.file}:${pos.line}: ${kind.kind} ${path}: @DefaultsWhenPresent has no effect: the field is required, has a default, or has no defaults under it; remove it`,
        );
      }
      inputs.push({ name: kind.version, settings: kindSettings(kind, diagnostics), schema: built.schema });
    }
    const dup = duplicateVersion(versions);
    if (dup) {
      diagnostics.push({
        pos: dup.pos,
        message: `${dup.kind}: version ${dup.version} of ${dup.group} is declared twice; keep one class per kind and version`,
      });
      continue;
    }
    const out = buildCrd({ group: first.group, kind: first.kind, versions: inputs, tsopVersion: opts.tsopVersion });
    for (const p of out.problems) {
      const at = versions.find((v) => v.version === p.version) ?? first;
      diagnostics.push({ pos: at.pos, message: p.message });
    }
    for (const w of out.warnings) {
      const at = versions.find((v) => v.version === w.version) ?? first;
      hints.push({ pos: at.pos, message: `${at.kind}: ${w.message}` });
    }
    const path = `crd/bases/${first.group}_${out.plural}.yaml`;
    const owner = owners.get(path);
    if (owner !== undefined) {
      diagnostics.push({
        pos: first.pos,
        message: `${first.kind}: plural '${out.plural}' of ${first.group} is also ${owner}'s; give one of them another plural with @Resource({ plural })`,
      });
    }
    owners.set(path, first.kind);
    const yaml = toYamlDocument(out.crd);
    files[path] = yaml;
    // A CRD's JSON is at most about twice its YAML (escapes and quotes at most double a string;
    // braces and commas are paid for by YAML's `: `, `- ` and newlines), so one under a quarter
    // of the limit as YAML is under it as JSON and is not serialised a second time.
    const size = Buffer.byteLength(yaml) * 4 > LAST_APPLIED_LIMIT ? Buffer.byteLength(JSON.stringify(out.crd)) : 0;
    if (size > LAST_APPLIED_LIMIT) {
      warnings.push(
        `${path}: the CRD is ${size} bytes as JSON, over the ${LAST_APPLIED_LIMIT}-byte limit of ` +
          `client-side 'kubectl apply' (last-applied annotation); apply it with 'kubectl apply ` +
          `--server-side' or shorten descriptions with --max-desc-len`,
      );
    }
  }

  const float = builder.floats[0];
  if (float) {
    const n = builder.floats.length;
    const others = builder.floats
      .slice(1, 4)
      .map((x) => x.where)
      .join(', ');
    hints.push({
      pos: float.pos,
      message:
        `${float.where}${n > 1 ? ` and ${n - 1} more field${n > 2 ? 's' : ''} (${others}${n > 4 ? ', …' : ''})` : ''}: ` +
        `TypeScript 'number' becomes a float (type: number) in the CRD; use int32 or int64 for ` +
        `whole numbers, or add @Type('number') where a float is meant to silence this`,
    });
  }
  for (const h of hints) warnings.push(`${h.pos.file}:${h.pos.line}: ${h.message}`);

  const rules = rbacRules(model.controllers, diagnostics);
  if (rules.length > 0) {
    try {
      files['rbac/role.yaml'] = renderRbac(rules);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      const pos = model.controllers[0]?.pos ?? { file: 'src', line: 1 };
      for (const line of error.message.split('\n')) diagnostics.push({ pos, message: `@Rbac: ${line}` });
    }
  }

  // Admission webhooks (@Webhook, @WebhookConfiguration) and conversion hubs (@Hub): see webhook.ts.
  const hooks = webhookSet(model.webhooks ?? [], diagnostics);
  const at = (source: string | undefined): SourcePos => {
    const [file = 'src', line = '1'] = (source ?? '').split(/:(?=\d+$)/);
    return { file, line: Number(line) };
  };
  for (const { entry, message } of duplicateWebhookNames(hooks.entries))
    diagnostics.push({ pos: at(entry.source), message });
  for (const { at: c, message } of conflictingConfigurationNames(hooks.configurations))
    diagnostics.push({ pos: at(c.source), message });
  diagnostics.push(...hubProblems(model.kinds));
  const webhookYaml = renderWebhooks(hooks);
  if (webhookYaml !== undefined) files[WEBHOOK_MANIFESTS] = webhookYaml;

  const errors = diagnostics
    .sort((a, b) => (a.pos.file < b.pos.file ? -1 : a.pos.file > b.pos.file ? 1 : a.pos.line - b.pos.line))
    .map((d) => new SourceError(d.pos.file, d.pos.line, d.message));
  return {
    files: errors.length > 0 ? {} : files,
    warnings,
    errors,
    renamedWebhookConfigurations: renamedConfigurations(hooks),
  };
}

/** Kinds grouped into CRDs: same group and kind name → versions of one CRD. */
function groupKinds(kinds: KindDef[]): Map<string, KindDef[]> {
  const out = new Map<string, KindDef[]>();
  for (const k of kinds) {
    const key = `${k.group}/${k.kind}`;
    out.set(key, [...(out.get(key) ?? []), k]);
  }
  return out;
}

function duplicateVersion(versions: KindDef[]): KindDef | undefined {
  const seen = new Set<string>();
  for (const v of versions) {
    if (seen.has(v.version)) return v;
    seen.add(v.version);
  }
  return undefined;
}

/** The deepest path above `path` that is a field of the user's types, if any. */
function fieldAbove(built: KindSchema, path: string): string | undefined {
  for (let p = path.replace(/(\[\*\]|\.[^.[]*)$/, ''); p !== ''; p = p.replace(/(\[\*\]|\.[^.[]*)$/, '')) {
    if (p in built.origins) return p;
  }
  return undefined;
}

/** The source of the deepest field on `path` (`.spec.a[*].b` tries `.spec.a[*].b`, `.spec.a`, …). */
function originOf(built: KindSchema, path: string, fallback: SourcePos): SourcePos {
  for (let p = path; p !== ''; p = p.replace(/(\[\*\]|\.[^.[]*)$/, '')) {
    const pos = built.origins[p];
    if (pos) return pos;
  }
  return fallback;
}

function shortenDescriptions(s: JSONSchemaProps, max: number): void {
  if (s.description !== undefined) {
    const d = truncateDescription(s.description, max);
    if (d === undefined) delete s.description;
    else s.description = d;
  }
  for (const p of Object.values(s.properties ?? {})) shortenDescriptions(p, max);
  if (typeof s.additionalProperties === 'object') shortenDescriptions(s.additionalProperties, max);
  if (s.items) shortenDescriptions(s.items, max);
  for (const list of [s.allOf, s.anyOf, s.oneOf]) for (const x of list ?? []) shortenDescriptions(x, max);
}
