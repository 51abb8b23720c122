/**
 * Markers the catalog must answer for, checked over the whole model before the schemas are built:
 *
 * - a decorator imported from tsop's markers module that is no marker (a misspelt or removed
 *   one) is an error, since the reader would otherwise skip it as a user's own decorator;
 * - a Go marker written in a comment (`// +kubebuilder:validation:Maximum=5`) does nothing in
 *   tsop, so it is a warning naming the decorator that does the same (`@Maximum(5)`).
 */
import { MARKERS, markerByName } from './markers/index.js';
import type { ApiModel, Diagnostic, FieldDef, MarkerUse, TypeRef } from './model.js';

/** Every marker use of the model (types, their fields at any depth, kinds, controllers, webhooks). */
function allMarkerUses(model: ApiModel): MarkerUse[] {
  const out: MarkerUse[] = [];
  const ofRef = (t: TypeRef): void => {
    out.push(...(t.markers ?? []));
    if (t.kind === 'object') ofFields(t.fields);
    else if (t.kind === 'array') ofRef(t.items);
    else if (t.kind === 'map') ofRef(t.values);
    else if (t.kind === 'nullable') ofRef(t.type);
  };
  const ofFields = (fields: FieldDef[]): void => {
    for (const f of fields) {
      out.push(...f.markers);
      ofRef(f.type);
    }
  };
  for (const t of Object.values(model.types)) {
    out.push(...t.markers);
    ofFields(t.fields);
  }
  for (const c of [...model.controllers, ...(model.webhooks ?? [])]) out.push(...c.markers);
  return out;
}

/**
 * A decorator that must be a marker but is none the catalog knows: one imported from tsop's
 * markers module (removed, or misspelt in a re-export), or one neither imported nor declared
 * (`@Maximun(3)`: tsc would say so later; this says so now).
 */
export function unknownMarkerErrors(model: ApiModel): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const use of allMarkerUses(model)) {
    if (!(use.fromMarkers || use.undeclared) || markerByName(use.name)) continue;
    const key = `${use.pos.file}:${use.pos.line}:${use.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const near = closest(use.name);
    const where = use.undeclared ? ' is neither imported nor declared in this file, and' : '';
    out.push({
      pos: use.pos,
      message: `@${use.name}${where} is not a tsop marker${near ? ` (did you mean @${near}?)` : ''}; 'tsop manifests --help' lists them`,
    });
  }
  return out;
}

/**
 * Names close to a marker's where no marker is: a decorator imported from another package
 * (`import { Maximun } from 'class-validator'`), or a JSDoc tag written like a marker
 * (`@Maximun(3)`). Neither changes the schema, which is probably not what was meant.
 */
export function nearMissWarnings(model: ApiModel): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of model.foreignDecorators ?? []) {
    const near = markerByName(d.name) ? undefined : closest(d.name);
    if (near)
      out.push({
        pos: d.pos,
        message: `@${d.name} is imported from '${d.specifier}', not tsop's markers, so it does not change the CRD (did you mean @${near}?)`,
      });
  }
  for (const use of allMarkerUses(model)) {
    if (!use.jsdoc || markerByName(use.name)) continue;
    const near = closest(use.name);
    if (near)
      out.push({
        pos: use.pos,
        message: `JSDoc tag @${use.name}(…) is not a tsop marker, so it stays documentation (did you mean @${near}?)`,
      });
  }
  return out;
}

export function commentMarkerWarnings(model: ApiModel): Diagnostic[] {
  return (model.commentMarkers ?? []).map(({ text, pos }) => {
    const decorator = decoratorFor(text);
    return {
      pos,
      message: decorator
        ? `'${text}' in a comment does nothing in tsop; write the decorator ${decorator} instead (it is not copied into the description)`
        : `'${text}' in a comment does nothing in tsop, and it has no decorator; markers are decorators ('tsop manifests --help' lists them)`,
    };
  });
}

/** Go spellings the catalog's `controllerGen` names do not cover. */
const GO_ALIASES: Record<string, string> = {
  '+kubebuilder:validation:Optional': 'Optional',
  '+kubebuilder:validation:Required': 'Required',
  '+kubebuilder:validation:Minimum': 'Minimum',
};

/** `+kubebuilder:validation:Maximum=5` → `@Maximum(5)`; undefined when no marker matches. */
function decoratorFor(text: string): string | undefined {
  const candidates: Array<[string, string]> = [
    ...MARKERS.map((m): [string, string] => [m.controllerGen, m.name]),
    ...Object.entries(GO_ALIASES),
  ];
  candidates.sort((a, b) => b[0].length - a[0].length);
  for (const [go, name] of candidates) {
    if (text !== go && !text.startsWith(`${go}=`) && !text.startsWith(`${go}:`)) continue;
    const rest = text.slice(go.length + 1);
    if (text === go || rest === '') return `@${name}()`;
    if (text[go.length] === '=') {
      const values = name.endsWith('Enum') ? splitOutside(rest, ';') : [rest];
      return `@${name}(${values.map(goValue).join(', ')})`;
    }
    const pairs = splitOutside(rest, ',').map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? `${p}: true` : `${p.slice(0, eq)}: ${goValue(p.slice(eq + 1))}`;
    });
    return `@${name}({ ${pairs.join(', ')} })`;
  }
  return undefined;
}

/** A Go marker value as a TypeScript literal: numbers and booleans as they are, `a;b` as a list. */
function goValue(v: string): string {
  const t = v.trim();
  if (/^-?\d+(\.\d+)?$/.test(t) || t === 'true' || t === 'false') return t;
  if (/^[{[]/.test(t)) return t;
  const unquoted = /^(["`])(.*)\1$/s.exec(t)?.[2] ?? t;
  if (unquoted === t && t.includes(';')) return `[${t.split(';').map(goValue).join(', ')}]`;
  return `'${unquoted.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Splits on `sep` outside quotes, backticks and brackets. */
function splitOutside(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let cur = '';
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === '`') quote = c;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === sep && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out.filter((s) => s !== '');
}

/** The catalog name closest to a misspelt one (case-insensitive, at most 2 edits), if any. */
function closest(name: string): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const m of MARKERS) {
    const d = editDistance(name.toLowerCase(), m.name.toLowerCase());
    if (d <= 2 && (!best || d < best.d)) best = { name: m.name, d };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur.push(
        Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)),
      );
    prev = cur;
  }
  return prev[b.length] ?? 0;
}
