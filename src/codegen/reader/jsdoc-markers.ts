/**
 * Markers written in a declaration's JSDoc, for the places a decorator cannot stand (a type alias,
 * an interface and its members) and for the tags TypeScript users write anyway:
 *
 * - the decorator itself as a tag, with the same arguments: `/** @Minimum(1) @Maximum(65535) *\/
 *   export type Port = int32;` — any marker, read with the same literal rules as a decorator;
 * - the usual lower-case tags with one value: `@minimum 1`, `@maxLength 63`, `@pattern ^[a-z]+$`,
 *   `@format uri`, `@default 'Allow'` (a default that `@Default` overrides, as controller-gen's
 *   `+default` is overridden by `+kubebuilder:default`) and `@example '10m'`.
 *
 * Tags are found where TypeScript finds them (an `@` at the start of a line or after a space).
 * The reader does not know the catalog: a capitalised tag with arguments becomes a marker use and
 * the catalog decides (marker-checks.ts warns about names it does not know).
 */
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import type { Diagnostic, MarkerUse } from '../model.js';
import type { JSONValue } from '../jsonschema.js';
import { LiteralError, literalValue } from '../literal.js';
import { jsDocsOf, lineAt } from './syntax.js';

/** Lower-case tags and the marker each one is. */
const TAGS: Record<string, { marker: string; value: 'number' | 'string' | 'literal' }> = {
  pattern: { marker: 'Pattern', value: 'string' },
  format: { marker: 'Format', value: 'string' },
  minLength: { marker: 'MinLength', value: 'number' },
  maxLength: { marker: 'MaxLength', value: 'number' },
  minimum: { marker: 'Minimum', value: 'number' },
  maximum: { marker: 'Maximum', value: 'number' },
  multipleOf: { marker: 'MultipleOf', value: 'number' },
  minItems: { marker: 'MinItems', value: 'number' },
  maxItems: { marker: 'MaxItems', value: 'number' },
  minProperties: { marker: 'MinProperties', value: 'number' },
  maxProperties: { marker: 'MaxProperties', value: 'number' },
  default: { marker: 'KubernetesDefault', value: 'literal' },
  example: { marker: 'Example', value: 'literal' },
};

export interface JsDocFindings {
  markers: MarkerUse[];
  /** Tags that look like markers but cannot be read as one (reported as warnings). */
  notes: Diagnostic[];
}

/** The markers in the JSDoc blocks of `node` (a declaration in `sf`; `file` is its project path). */
export function jsDocMarkers(
  node: TS.Node,
  sf: TS.SourceFile,
  file: string,
  owner: string,
  diagnostics: Diagnostic[],
): JsDocFindings {
  const out: JsDocFindings = { markers: [], notes: [] };
  for (const doc of jsDocsOf(node, sf)) {
    const text = sf.text;
    const at = text.indexOf('@', doc.pos);
    if (at < 0 || at >= doc.end) continue;
    for (const tag of doc.tags()) {
      const pos = { file, line: lineAt(sf, tag.start) };
      const known = Object.hasOwn(TAGS, tag.name) ? TAGS[tag.name] : undefined;
      if (known) {
        const use = lowerCaseTag(tag.name, (tag.comment ?? '').trim(), known, sf, pos, owner, diagnostics, out.notes);
        if (use) out.markers.push(use);
      } else if (/^[A-Z]/.test(tag.name) && (tag.comment ?? '').trimStart().startsWith('(')) {
        const use = decoratorTag(tag.name, text, tag.start, doc.end, sf, pos, owner, diagnostics);
        if (use) out.markers.push(use);
      }
    }
  }
  return out;
}

type Pos = MarkerUse['pos'];

function lowerCaseTag(
  name: string,
  text: string,
  known: (typeof TAGS)[string],
  sf: TS.SourceFile,
  pos: Pos,
  owner: string,
  diagnostics: Diagnostic[],
  notes: Diagnostic[],
): MarkerUse | undefined {
  const use = (value: JSONValue): MarkerUse => ({ name: known.marker, args: [value], pos, jsdoc: true });
  if (known.value === 'string') {
    if (text === '')
      diagnostics.push({
        pos,
        message: `@${name} on ${owner}: needs a string value, e.g. @${name} ${name === 'format' ? 'uri' : '^[a-z]+$'}`,
      });
    return text === '' ? undefined : use(text);
  }
  if (known.value === 'number') {
    const value = Number(text);
    if (text === '' || !Number.isFinite(value)) {
      diagnostics.push({ pos, message: `@${name} on ${owner}: needs a number value, got '${text}'` });
      return undefined;
    }
    return use(value);
  }
  const value = parseLiteral(text.replace(/^`(.*)`$/s, '$1'), sf);
  if (value.ok) return use(value.value);
  if (name === 'example') {
    // Often a code sample: documentation, not the schema's example.
    notes.push({
      pos,
      message: `@example on ${owner} is not a literal value, so it stays documentation and is not the schema's example; write @Example(<value>) to set one`,
    });
    return undefined;
  }
  diagnostics.push({
    pos,
    message: `@${name} on ${owner}: '${text}' is not a literal value (${value.error}); write it as a literal, e.g. @default 'Allow', @default 3 or @default {}`,
  });
  return undefined;
}

/** `@Name(args)` at `start` (its `@`): the arguments, read up to the matching parenthesis. */
function decoratorTag(
  name: string,
  text: string,
  start: number,
  end: number,
  sf: TS.SourceFile,
  pos: Pos,
  owner: string,
  diagnostics: Diagnostic[],
): MarkerUse | undefined {
  const open = text.indexOf('(', start);
  const close = matchingParen(text, open, end);
  if (close < 0) {
    diagnostics.push({ pos, message: `@${name} on ${owner}: the JSDoc tag's arguments have no closing ')'` });
    return undefined;
  }
  // Continuation lines carry the comment's leading '*'.
  const args = text.slice(open + 1, close).replace(/\n[ \t]*\*(?!\/)/g, '\n');
  const parsed = parseLiteral(`[${args}]`, sf);
  if (!parsed.ok || !Array.isArray(parsed.value)) {
    diagnostics.push({
      pos,
      message: `@${name} on ${owner}: ${parsed.ok ? 'cannot read the arguments' : parsed.error}`,
    });
    return undefined;
  }
  return { name, args: parsed.value, pos, jsdoc: true };
}

/** The index of the ')' closing the '(' at `open`, skipping quoted text; -1 when there is none before `end`. */
function matchingParen(text: string, open: number, end: number): number {
  let depth = 0;
  for (let i = open; i < end; i++) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') {
      for (i++; i < end && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

type Parsed = { ok: true; value: JSONValue } | { ok: false; error: string };

/** A literal written in a comment, read as a marker argument (consts and enums of `scope` allowed). */
function parseLiteral(source: string, scope: TS.SourceFile): Parsed {
  const mini = ts.createSourceFile('/jsdoc-tag.ts', `(${source});`, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const problems = (mini as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics ?? [];
  const st = mini.statements[0];
  if (problems.length > 0 || mini.statements.length !== 1 || !st || !ts.isExpressionStatement(st))
    return { ok: false, error: 'not a literal' };
  try {
    return { ok: true, value: literalValue(st.expression, mini, new Set(), scope) };
  } catch (error) {
    if (!(error instanceof LiteralError)) throw error;
    return { ok: false, error: error.message.replace(/^'\((.*)\)'/s, "'$1'") };
  }
}
