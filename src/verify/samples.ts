/**
 * Every sample in config/samples, dry-run applied on the API server once its CRD is in: a
 * refusal becomes one finding per cause at the sample's line, with the decorator behind the rule
 * it broke; an accepted sample reports each default the server filled in (and the @Default it came
 * from), so what a user gets is visible before anything is deployed.
 */
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document } from 'yaml';
import type { ApiModel } from '../codegen/model.js';
import { causesOf, type ApiClient } from './api.js';
import type { Finding } from './finding.js';
import { objectPathToSchemaPath, type Clue, type SourceMap } from './origins.js';

interface Sample {
  file: string;
  line: number;
  doc: Document;
  lines: LineCounter;
  object: Record<string, unknown>;
}

interface Resource {
  name: string;
  kind: string;
  namespaced: boolean;
}

/** Dry-runs every sample; returns how many were sent. */
export async function checkSamples(
  api: ApiClient,
  root: string,
  samplesDir: string,
  model: ApiModel,
  sources: SourceMap,
  findings: Finding[],
): Promise<number> {
  const samples = await readSamples(root, samplesDir, findings);
  const discovery = new Map<string, Resource[] | undefined>();
  const namespaces = new Set(['default']);
  for (const s of samples) {
    const apiVersion = String(s.object['apiVersion']);
    const kindName = String(s.object['kind']);
    const meta = (s.object['metadata'] ?? {}) as { name?: string; generateName?: string; namespace?: string };
    const label = `${kindName} ${meta.name ?? meta.generateName ?? '(no name)'}`;
    const at = (pos: { line: number }): { file: string; line: number } => ({ file: s.file, line: pos.line });
    if (!discovery.has(apiVersion)) discovery.set(apiVersion, await resources(api, apiVersion));
    const resource = discovery.get(apiVersion)?.find((r) => r.kind === kindName && !r.name.includes('/'));
    if (!resource) {
      findings.push({
        severity: 'error',
        pos: at(s),
        message: `${label}: the API server serves no kind ${kindName} in ${apiVersion}; check apiVersion and kind against the @Resource classes`,
      });
      continue;
    }
    const namespace = meta.namespace ?? 'default';
    if (resource.namespaced && !namespaces.has(namespace)) {
      await api.apply(
        `/api/v1/namespaces/${namespace}`,
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
        false,
      );
      namespaces.add(namespace);
    }
    const base = `${apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`}${resource.namespaced ? `/namespaces/${namespace}` : ''}/${resource.name}`;
    const res = meta.name
      ? await api.apply(`${base}/${meta.name}`, s.object, true)
      : await api.createDryRun(base, s.object);
    const [group = '', version = apiVersion] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    const kind = model.kinds.find((k) => k.group === group && k.version === version && k.kind === kindName);
    for (const w of res.warnings) findings.push({ severity: 'warning', pos: at(s), message: `${label}: ${w}` });
    if (res.status >= 300) {
      for (const cause of causesOf(res)) {
        const field = cause.field ?? '';
        const message = cause.message ?? '';
        const rule = kind ? sources.locate(kind, objectPathToSchemaPath(field), clueOf(message)) : undefined;
        findings.push({
          severity: 'error',
          pos: at({ line: lineOf(s, field) }),
          message: `${label}: ${field ? `${field}: ` : ''}${message}`,
          ...(rule ? { rule: { ...rule.pos, ...(rule.marker ? { marker: rule.marker } : {}) } } : {}),
        });
      }
      continue;
    }
    if (!kind) continue; // built-in kinds: their many defaults are not the project's
    const got = res.body as Record<string, unknown>;
    // What the sample says that the object would not keep: pruned by the version it is stored in.
    for (const path of defaultsApplied(got, s.object).map((d) => d.path)) {
      findings.push({
        severity: 'warning',
        pos: at({ line: lineOf(s, path) }),
        message: `${label}: the API server dropped ${path}: the schema of the version it stores ${kindName} in has no such field (add it there, or convert between the versions)`,
      });
    }
    for (const d of defaultsApplied(s.object, got)) {
      const rule = sources.locate(kind, objectPathToSchemaPath(d.path), { keyword: 'default' });
      findings.push({
        severity: 'default',
        pos: at({ line: lineOf(s, d.path) }),
        message: `${label}: ${d.path} defaulted to ${d.value}`,
        rule: { ...rule.pos, ...(rule.marker ? { marker: rule.marker } : {}) },
      });
    }
  }
  return samples.length;
}

async function readSamples(root: string, dir: string, findings: Finding[]): Promise<Sample[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch {
    return [];
  }
  const out: Sample[] = [];
  for (const name of names) {
    if (!['.yaml', '.yml', '.json'].includes(extname(name)) || /^kustomization\.ya?ml$/.test(name)) continue;
    const file = relative(root, join(dir, name));
    const lines = new LineCounter();
    for (const doc of parseAllDocuments(await readFile(join(dir, name), 'utf8'), { lineCounter: lines })) {
      const line = doc.contents?.range ? lines.linePos(doc.contents.range[0]).line : 1;
      if (doc.errors.length > 0) {
        findings.push({
          severity: 'error',
          pos: { file, line: doc.errors[0]?.linePos?.[0].line ?? line },
          message: `not valid YAML: ${doc.errors[0]?.message ?? ''}`,
        });
        continue;
      }
      const object: unknown = doc.toJS();
      if (object === null || object === undefined) continue;
      if (typeof object !== 'object' || Array.isArray(object) || !('apiVersion' in object) || !('kind' in object)) {
        findings.push({
          severity: 'error',
          pos: { file, line },
          message: 'a sample must be a Kubernetes object with apiVersion and kind',
        });
        continue;
      }
      out.push({ file, line, doc, lines, object: object as Record<string, unknown> });
    }
  }
  return out;
}

async function resources(api: ApiClient, apiVersion: string): Promise<Resource[] | undefined> {
  const res = await api.get(apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`);
  return res.status === 200 ? ((res.body as { resources?: Resource[] }).resources ?? []) : undefined;
}

/** The line of the deepest key of `field` (`spec.items[2].name`) the sample has. */
function lineOf(s: Sample, field: string): number {
  let line = s.line;
  let node: unknown = s.doc.contents;
  for (const m of field.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
    const step = m[2] ?? m[1] ?? '';
    if (isSeq(node) && /^\d+$/.test(step)) {
      node = node.items[Number(step)];
      const at = (node as { range?: [number, number, number] } | undefined)?.range;
      if (!at) break;
      line = s.lines.linePos(at[0]).line;
      continue;
    }
    const pair = isMap(node) ? node.items.find((p) => isScalar(p.key) && String(p.key.value) === step) : undefined;
    const at = pair && isScalar(pair.key) ? pair.key.range : undefined;
    if (!pair || !at) break;
    line = s.lines.linePos(at[0]).line;
    node = pair.value;
  }
  return line;
}

/** Which decorator a refusal's message points at (the server's wording, kube-openapi's validators). */
function clueOf(message: string): Clue {
  const table: Array<[RegExp, string]> = [
    [/less than or equal to/, 'maximum'],
    [/greater than or equal to/, 'minimum'],
    [/should be less than/, 'exclusiveMaximum'],
    [/should be greater than/, 'exclusiveMinimum'],
    [/multiple of/, 'multipleOf'],
    [/should match/, 'pattern'],
    [/Unsupported value/, 'enum'],
    [/(may not be|must have at most) .*(chars|bytes|characters)|Too long/, 'maxLength'],
    [/at least \d+ chars/, 'minLength'],
    [/must have at most \d+ items|Too many/, 'maxItems'],
    [/should have at least \d+ items/, 'minItems'],
    [/must have at most \d+ propert/, 'maxProperties'],
    [/at least \d+ propert/, 'minProperties'],
    [/in body must be of type|must be a valid .*format|in body must be of format/, 'format'],
  ];
  for (const [re, keyword] of table) if (re.test(message)) return { keyword };
  return { ruleMessage: message };
}

/** Values in `got` that `sent` leaves out (metadata, status and type fields aside): defaults, or with the arguments swapped, what was dropped. */
function defaultsApplied(
  sent: Record<string, unknown>,
  got: Record<string, unknown>,
): Array<{ path: string; value: string }> {
  const out: Array<{ path: string; value: string }> = [];
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (Array.isArray(a) && Array.isArray(b)) {
      for (const [i, v] of b.entries()) walk(a[i], v, `${path}[${i}]`);
      return;
    }
    if (!isObject(b)) return;
    const left = isObject(a) ? a : {};
    for (const [k, v] of Object.entries(b).sort(([x], [y]) => (x < y ? -1 : 1))) {
      const p = path ? `${path}.${k}` : k;
      if (!(k in left)) {
        const text = JSON.stringify(v);
        out.push({ path: p, value: text.length > 80 ? `${text.slice(0, 77)}...` : text });
      } else walk(left[k], v, p);
    }
  };
  for (const key of Object.keys(got).sort()) {
    if (['apiVersion', 'kind', 'metadata', 'status'].includes(key)) continue;
    if (!(key in sent)) out.push({ path: key, value: JSON.stringify(got[key]) });
    else walk(sent[key], got[key], key);
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
