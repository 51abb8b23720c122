/**
 * Adds or removes `namespace: '<ns>'` on the `@Rbac({ ... })` decorators of one controller file,
 * for `tsop edit --namespaced`. A small scanner over the text rather than a TypeScript parse: edit
 * must stay fast, and loading ts-morph costs more than the whole command. The scanner knows just
 * enough of the language (comments, strings, template literals, regular expressions, brackets) to
 * find real decorators (not ones in comments or strings) and the top-level properties of their
 * object literal; everything else in the file is left byte for byte.
 *
 * Resources a Role cannot grant (cluster-scoped: Nodes, CRDs, Namespaces, the project's own
 * cluster-scoped kinds...; see src/manifests/cluster-scope.ts) keep no namespace, so they stay in
 * the ClusterRole; a decorator naming both kinds is split in two, the namespaced resources first.
 *
 * The edits are each other's inverse: adding then removing gives back the original text, for a
 * one-line decorator (`, namespace: 'x'` after the last property) and for a multi-line one (a
 * property line of its own, with the indentation and trailing-comma style of the last property).
 */

import type { ClusterScoped } from '../manifests/cluster-scope.js';

export type RbacNamespaceMode = 'add' | 'remove';

export interface RbacNamespaceResult {
  text: string;
  /** How many decorators were rewritten. */
  rewritten: number;
  /** Decorators left as they were because they could not be understood: `line: why`. */
  skipped: string[];
  /** Cluster-scoped resources left without a namespace (in the ClusterRole), in file order. */
  clusterWide: string[];
}

/**
 * `add`: gives every @Rbac without a `namespace` (and without `urls`, which only a ClusterRole can
 * grant) `namespace: '<ns>'` as its last property. `remove`: drops `namespace: '<ns>'`. Any other
 * namespace is a deliberate choice and is kept.
 */
export function rewriteRbacNamespace(text: string, namespace: string, mode: RbacNamespaceMode, clusterScoped: ClusterScoped = () => false): RbacNamespaceResult {
  const edits: Edit[] = [];
  const skipped: string[] = [];
  const clusterWide: string[] = [];
  let rewritten = 0;
  for (const found of findRbacDecorators(text)) {
    const where = lineOf(text, found.at);
    if ('error' in found) {
      skipped.push(`${where}: ${found.error}`);
      continue;
    }
    const obj = found.object;
    const keyed = (k: string): Prop[] => obj.props.filter((p) => p.key === k);
    const ns = keyed('namespace');
    if (ns.length > 1) {
      skipped.push(`${where}: namespace is given more than once`);
      continue;
    }
    let planned: Edit[] = [];
    if (mode === 'add') {
      if (ns.length === 1 || keyed('urls').length > 0) continue;
      const property = `namespace: ${quoted(namespace, quoteOf(text, obj))}`;
      const scope = splitByScope(text, obj, clusterScoped);
      if (scope.cluster.length === 0) {
        planned = addProperty(text, obj, property);
      } else if (scope.namespaced.length === 0) {
        clusterWide.push(...scope.cluster);
        continue;
      } else {
        clusterWide.push(...scope.cluster);
        planned = splitDecorator(text, found, scope.resources!, scope, property);
      }
    } else {
      const p = ns[0];
      if (!p) continue;
      const value = p.value ? stringValue(text.slice(p.value.start, p.value.end)) : undefined;
      if (value === undefined) {
        skipped.push(`${where}: namespace is not a string literal, so tsop cannot tell whether it is '${namespace}'`);
        continue;
      }
      if (value !== namespace) continue;
      planned = removeProperty(text, obj, obj.props.indexOf(p));
    }
    edits.push(...planned);
    rewritten++;
  }
  return { text: applyEdits(text, edits), rewritten, skipped, clusterWide };
}

interface Scope {
  cluster: string[];
  namespaced: string[];
  /** The resources property's value (set whenever `cluster` is not empty: a list of string literals). */
  resources?: Span;
}

/**
 * The decorator's resources by scope. A resource is cluster-scoped when it is in any of the
 * listed groups; lists tsop cannot read (a variable, a spread) count as namespaced, as before.
 */
function splitByScope(text: string, obj: ObjectLiteral, clusterScoped: ClusterScoped): Scope {
  const valueOf = (key: string): Span | undefined => obj.props.find((p) => p.key === key)?.value;
  const groupsSpan = valueOf('groups');
  const resourcesSpan = valueOf('resources');
  const groups = groupsSpan ? stringList(text, groupsSpan) : undefined;
  const resources = resourcesSpan ? stringList(text, resourcesSpan) : undefined;
  if (!groups || !resources) return { cluster: [], namespaced: [] };
  const cluster = resources.filter((r) => groups.some((g) => clusterScoped(g, r)));
  return { cluster, namespaced: resources.filter((r) => !cluster.includes(r)), resources: resourcesSpan };
}

/**
 * `@Rbac({ ..., resources: [namespaced...], ..., namespace: 'ns' })` on a line of its own above
 * the decorator, which keeps only the cluster-scoped resources.
 */
function splitDecorator(text: string, found: { at: number; end: number; object: ObjectLiteral }, resources: Span, scope: Scope, property: string): Edit[] {
  const quote = quoteOf(text, found.object);
  const list = (rs: string[]): string => `[${rs.map((r) => quoted(r, quote)).join(', ')}]`;
  // The copy: the decorator's own text with the namespaced list and the namespace property.
  const inCopy = [{ start: resources.start, end: resources.end, insert: list(scope.namespaced) }, ...addProperty(text, found.object, property)];
  const copy = applyEdits(text.slice(found.at, found.end), inCopy.map((e) => ({ ...e, start: e.start - found.at, end: e.end - found.at })));
  return [
    { start: found.at, end: found.at, insert: `${copy}\n${indentOf(text, found.at)}` },
    { start: resources.start, end: resources.end, insert: list(scope.cluster) },
  ];
}

/** The values of an array literal of plain string literals; undefined for anything else. */
function stringList(text: string, span: Span): string[] | undefined {
  const s = new Scanner(text, span.start);
  const open = s.next();
  if (!open || !isPunct(text, open, '[')) return undefined;
  const out: string[] = [];
  for (;;) {
    const t = s.next();
    if (!t || t.start >= span.end) return undefined;
    if (isPunct(text, t, ']')) return t.end === span.end ? out : undefined;
    const value = t.kind === 'string' ? stringValue(text.slice(t.start, t.end)) : undefined;
    if (value === undefined) return undefined;
    out.push(value);
    const sep = s.next();
    if (!sep) return undefined;
    if (isPunct(text, sep, ']')) return sep.end === span.end ? out : undefined;
    if (!isPunct(text, sep, ',')) return undefined;
  }
}

interface Edit {
  start: number;
  end: number;
  insert: string;
}

interface Span {
  start: number;
  end: number;
}

/** One top-level property of an object literal. */
interface Prop {
  key: string;
  /** From the key to the end of the value (or of the key, for a shorthand property). */
  start: number;
  end: number;
  value?: Span;
  /** Index of the comma that follows it, if any. */
  comma?: number;
}

interface ObjectLiteral {
  open: number;
  close: number;
  props: Prop[];
}

type Found = { at: number; end: number; object: ObjectLiteral } | { at: number; error: string };

/** Every `@Rbac` outside comments and strings, with its parsed argument or why it was not understood. */
function findRbacDecorators(text: string): Found[] {
  const out: Found[] = [];
  const s = new Scanner(text, 0);
  for (;;) {
    const t = s.next();
    if (!t) return out;
    if (t.kind !== 'punct' || text[t.start] !== '@') continue;
    const name = s.peek();
    if (!name || name.kind !== 'word' || text.slice(name.start, name.end) !== 'Rbac') continue;
    s.next();
    out.push(parseDecoratorCall(text, s, t.start));
  }
}

/** After `@Rbac`: `( { ... } )`, with an optional trailing comma. Leaves `s` after what it read. */
function parseDecoratorCall(text: string, s: Scanner, at: number): Found {
  const open = s.next();
  if (!open || !isPunct(text, open, '(')) return { at, error: '@Rbac is not called with an object literal' };
  const brace = s.peek();
  if (!brace || !isPunct(text, brace, '{')) return { at, error: '@Rbac is not called with an object literal' };
  s.next();
  const object = parseObject(text, s, brace.start);
  if ('error' in object) return { at, error: object.error };
  let after = s.next();
  if (after && isPunct(text, after, ',')) after = s.next();
  if (!after || !isPunct(text, after, ')')) return { at, error: '@Rbac has more than one argument' };
  return { at, end: after.end, object };
}

/** The properties of an object literal whose `{` is at `open`; `s` is just after it. */
function parseObject(text: string, s: Scanner, open: number): ObjectLiteral | { error: string } {
  const props: Prop[] = [];
  for (;;) {
    const first = s.next();
    if (!first) return { error: 'its object literal is not closed' };
    if (isPunct(text, first, '}')) return { open, close: first.start, props };
    if (first.kind === 'punct' && text.startsWith('...', first.start)) return { error: 'its object literal has a spread (...), which may hold a namespace' };
    let key: string | undefined;
    if (first.kind === 'word') key = text.slice(first.start, first.end);
    else if (first.kind === 'string') key = stringValue(text.slice(first.start, first.end));
    if (key === undefined || !/^[A-Za-z_$]/.test(key)) return { error: `its object literal has a property tsop does not understand at '${text.slice(first.start, first.end)}'` };
    const sep = s.next();
    if (!sep) return { error: 'its object literal is not closed' };
    const prop: Prop = { key, start: first.start, end: first.end };
    let stop = sep;
    if (isPunct(text, sep, ':')) {
      const value = scanValue(text, s);
      if ('error' in value) return value;
      if (!value.span) return { error: `its property ${key} has no value` };
      prop.value = value.span;
      prop.end = value.span.end;
      stop = value.stop;
    } else if (!isPunct(text, sep, ',') && !isPunct(text, sep, '}')) {
      return { error: `its object literal has a property tsop does not understand at '${key}'` };
    }
    props.push(prop);
    if (isPunct(text, stop, '}')) return { open, close: stop.start, props };
    prop.comma = stop.start;
  }
}

/** A property value: tokens up to the `,` or `}` at its own bracket depth. */
function scanValue(text: string, s: Scanner): { span?: Span; stop: Token } | { error: string } {
  let depth = 0;
  let span: Span | undefined;
  for (;;) {
    const t = s.next();
    if (!t) return { error: 'its object literal is not closed' };
    if (t.kind === 'punct') {
      const c = text[t.start];
      if (depth === 0 && (c === ',' || c === '}')) return span ? { span, stop: t } : { stop: t };
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') {
        if (depth === 0) return { error: `its object literal has an unbalanced '${c}'` };
        depth--;
      }
    }
    span = { start: span?.start ?? t.start, end: t.end };
  }
}

/** Adds `property` after the last one, in the layout the object already has. */
function addProperty(text: string, obj: ObjectLiteral, property: string): Edit[] {
  const last = obj.props[obj.props.length - 1];
  if (!last) {
    return [{ start: obj.open + 1, end: obj.close, insert: ` ${property} ` }];
  }
  const after = last.comma !== undefined ? last.comma + 1 : last.end;
  const eol = endOfLine(text, after, obj.close);
  if (eol === undefined) {
    // One line (or the closing brace right after the last property): `, namespace: 'x'`.
    return last.comma !== undefined ? [{ start: after, end: after, insert: ` ${property},` }] : [{ start: after, end: after, insert: `, ${property}` }];
  }
  const indent = indentOf(text, last.start);
  const line = { start: eol, end: eol, insert: `\n${indent}${property}${last.comma !== undefined ? ',' : ''}` };
  return last.comma !== undefined ? [line] : [{ start: last.end, end: last.end, insert: ',' }, line];
}

/** Removes property `i`, undoing what `addProperty` would have added. */
function removeProperty(text: string, obj: ObjectLiteral, i: number): Edit[] {
  const p = obj.props[i]!;
  const prev = i > 0 ? obj.props[i - 1] : undefined;
  const next = obj.props[i + 1];
  const lineStart = text.lastIndexOf('\n', p.start - 1) + 1;
  const ownLine = /^[ \t]*$/.test(text.slice(lineStart, p.start));
  const eol = ownLine ? endOfLine(text, p.comma !== undefined ? p.comma + 1 : p.end, obj.close) : undefined;
  if (eol !== undefined) {
    const line = { start: lineStart, end: eol + 1, insert: '' };
    // Last property without a trailing comma: the comma before it was added along with it.
    if (!next && p.comma === undefined && prev?.comma !== undefined) return [{ start: prev.comma, end: prev.comma + 1, insert: '' }, line];
    return [line];
  }
  if (prev?.comma !== undefined) return [{ start: prev.comma, end: p.end, insert: '' }];
  if (next) return [{ start: p.start, end: next.start, insert: '' }];
  return [{ start: obj.open + 1, end: obj.close, insert: '' }];
}

/**
 * The index of the newline ending the line at `from`, when only blanks and a line comment come
 * before it (and it comes before `limit`); undefined when the line goes on with code.
 */
function endOfLine(text: string, from: number, limit: number): number | undefined {
  const s = new Scanner(text, from, true);
  for (;;) {
    const t = s.next();
    if (!t || t.start >= limit) return undefined;
    if (t.kind === 'space') {
      const nl = text.indexOf('\n', t.start);
      if (nl >= 0 && nl < t.end) return nl;
    } else if (t.kind !== 'comment' || text.slice(t.start, t.end).includes('\n')) {
      return undefined;
    }
  }
}

function indentOf(text: string, at: number): string {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** The quote the object's string values use, so an added value matches the file's style. */
function quoteOf(text: string, obj: ObjectLiteral): string {
  const s = new Scanner(text, obj.open + 1);
  for (let t = s.next(); t && t.start < obj.close; t = s.next()) if (t.kind === 'string') return text[t.start]!;
  return "'";
}

function quoted(value: string, quote: string): string {
  return `${quote}${value.replace(/\\/g, '\\\\').split(quote).join(`\\${quote}`)}${quote}`;
}

/** The value of a plain string literal (or a template without substitutions); else undefined. */
function stringValue(literal: string): string | undefined {
  const q = literal[0];
  if ((q !== "'" && q !== '"' && q !== '`') || literal.length < 2 || literal[literal.length - 1] !== q) return undefined;
  const body = literal.slice(1, -1);
  if (q === '`' && body.includes('${')) return undefined;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === q) return undefined; // two literals, e.g. 'a' + 'b' scanned as one value
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined || !`'"\`\\`.includes(e)) return undefined; // keep it simple: no \n, \u…
    out += e;
  }
  return out;
}

function applyEdits(text: string, edits: Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.insert + out.slice(e.end);
  return out;
}

function lineOf(text: string, at: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function isPunct(text: string, t: Token, c: string): boolean {
  return t.kind === 'punct' && text[t.start] === c;
}

type TokenKind = 'space' | 'comment' | 'string' | 'template' | 'regex' | 'word' | 'punct';

interface Token {
  kind: TokenKind;
  start: number;
  end: number;
}

/** Words after which a `/` starts a regular expression rather than a division. */
const BEFORE_EXPRESSION = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

/**
 * Tokens of TypeScript text, just fine enough to skip comments, strings, templates and regular
 * expressions as wholes. Blanks and comments are skipped unless `trivia` is set. Unterminated
 * strings and regular expressions end at the line's end, so a misreading stays on one line.
 */
class Scanner {
  /** Whether a `/` here starts a regular expression (after an operator, `(`, a keyword...). */
  private regexAllowed = true;
  private pending: Token | undefined;

  constructor(
    private readonly text: string,
    private pos: number,
    private readonly trivia = false,
  ) {}

  peek(): Token | undefined {
    this.pending ??= this.read();
    return this.pending;
  }

  next(): Token | undefined {
    const t = this.peek();
    this.pending = undefined;
    return t;
  }

  private read(): Token | undefined {
    for (;;) {
      const t = this.token();
      if (!t) return undefined;
      if (t.kind === 'space' || t.kind === 'comment') {
        if (this.trivia) return t;
        continue;
      }
      if (t.kind === 'word') this.regexAllowed = BEFORE_EXPRESSION.has(this.text.slice(t.start, t.end));
      else if (t.kind === 'punct') this.regexAllowed = !')]'.includes(this.text[t.start]!);
      else this.regexAllowed = false;
      return t;
    }
  }

  private token(): Token | undefined {
    const { text } = this;
    const start = this.pos;
    if (start >= text.length) return undefined;
    const c = text[start]!;
    const at = (kind: TokenKind, end: number): Token => {
      this.pos = end;
      return { kind, start, end };
    };
    if (/\s/.test(c)) {
      let i = start + 1;
      while (i < text.length && /\s/.test(text[i]!)) i++;
      return at('space', i);
    }
    if (c === '/' && text[start + 1] === '/') {
      const nl = text.indexOf('\n', start);
      return at('comment', nl < 0 ? text.length : nl);
    }
    if (c === '/' && text[start + 1] === '*') {
      const close = text.indexOf('*/', start + 2);
      return at('comment', close < 0 ? text.length : close + 2);
    }
    if (c === "'" || c === '"') return at('string', this.stringEnd(start, c));
    if (c === '`') return at('template', this.templateEnd(start));
    if (c === '/' && this.regexAllowed) {
      const end = this.regexEnd(start);
      if (end !== undefined) return at('regex', end);
    }
    if (/[A-Za-z_$\u0080-\uffff]/.test(c) || /[0-9]/.test(c)) {
      let i = start + 1;
      while (i < text.length && /[\w$\u0080-\uffff]/.test(text[i]!)) i++;
      return at('word', i);
    }
    if (text.startsWith('...', start)) return at('punct', start + 3);
    return at('punct', start + 1);
  }

  private stringEnd(start: number, quote: string): number {
    const { text } = this;
    for (let i = start + 1; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') i++;
      else if (c === quote) return i + 1;
      else if (c === '\n') return i;
    }
    return text.length;
  }

  /** A template literal, with its `${ }` substitutions scanned as code (they may nest). */
  private templateEnd(start: number): number {
    const { text } = this;
    for (let i = start + 1; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') i++;
      else if (c === '`') return i + 1;
      else if (c === '$' && text[i + 1] === '{') {
        const inner = new Scanner(text, i + 2);
        let depth = 1;
        for (;;) {
          const t = inner.next();
          if (!t) return text.length;
          if (isPunct(text, t, '{')) depth++;
          else if (isPunct(text, t, '}') && --depth === 0) {
            i = t.start;
            break;
          }
        }
      }
    }
    return text.length;
  }

  /** The end of a regular expression literal (flags included), or undefined if the line ends first. */
  private regexEnd(start: number): number | undefined {
    const { text } = this;
    let inClass = false;
    for (let i = start + 1; i < text.length; i++) {
      const c = text[i];
      if (c === '\n') return undefined;
      if (c === '\\') i++;
      else if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) {
        let j = i + 1;
        while (j < text.length && /[A-Za-z]/.test(text[j]!)) j++;
        return j;
      }
    }
    return undefined;
  }
}
