/**
 * A fast reader for the block YAML that controller-gen and tsop manifests write: mappings and
 * sequences by indentation, `|` and `|-` block scalars, plain, 'single'- and "double"-quoted
 * one-line scalars, `[]` and `{}`, full-line comments, `---` between documents. Parsing a large
 * CRD with the general yaml library costs most of an import (twice: the CRD read, and the one
 * `tsop manifests` gives back), so this reads that subset directly, with the plain and
 * quoted scalars go-yaml wraps over several lines. Anything outside it — flow
 * collections, anchors, tags, folded scalars, trailing comments, tab indentation, YAML
 * escapes JSON lacks, duplicate keys — gives undefined, and the caller reads the text with the
 * yaml library. What it accepts it reads as the yaml library does (YAML 1.2 core schema).
 */

interface Line {
  indent: number;
  text: string;
  /** The line as written (block scalars keep their content's own indentation). */
  raw: string;
}

class NotBlock extends Error {}

const fail = (): never => {
  throw new NotBlock();
};

/** The documents of `text` as plain values, or undefined when it is not the subset. */
export function readBlockYaml(text: string): unknown[] | undefined {
  if (text.includes('\r')) return undefined;
  try {
    const docs: unknown[] = [];
    let current: Line[] = [];
    const flush = (): void => {
      const value = new Reader(current).document();
      if (value !== undefined) docs.push(value);
      current = [];
    };
    for (const raw of text.split('\n')) {
      if (raw === '---' || raw.startsWith('--- ')) {
        if (raw !== '---') fail();
        flush();
        continue;
      }
      if (raw === '...' || raw.startsWith('%')) fail();
      // Indentation is spaces; a tab after them is content (of a block scalar) or, elsewhere, refused.
      let indent = 0;
      while (raw.charCodeAt(indent) === 32) indent++;
      current.push({ indent, text: raw.slice(indent).trimEnd(), raw });
    }
    flush();
    return docs;
  } catch (error) {
    if (error instanceof NotBlock) return undefined;
    throw error;
  }
}

class Reader {
  private at = 0;

  constructor(private readonly lines: Line[]) {}

  document(): unknown {
    this.skipBlank();
    if (this.at >= this.lines.length) return undefined;
    const first = this.lines[this.at]!;
    if (first.indent !== 0) fail();
    const value = this.node(0);
    this.skipBlank();
    if (this.at < this.lines.length) fail();
    return value;
  }

  /** Blank and full-line comment lines (outside block scalars). */
  private skipBlank(): void {
    while (this.at < this.lines.length) {
      const l = this.lines[this.at]!;
      if (l.text !== '' && !l.text.startsWith('#')) return;
      this.at++;
    }
  }

  private node(indent: number): unknown {
    const l = this.lines[this.at]!;
    return isItem(l.text) ? this.sequence(indent) : this.mapping(indent);
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (;;) {
      this.skipBlank();
      const l = this.lines[this.at];
      if (!l || l.indent < indent) return out;
      if (l.indent > indent || isItem(l.text)) fail();
      const { key, rest } = splitKey(l.text);
      if (Object.hasOwn(out, key)) fail();
      this.at++;
      out[key] = this.value(rest, indent, true);
    }
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      this.skipBlank();
      const l = this.lines[this.at];
      if (!l || l.indent < indent || !isItem(l.text)) return out;
      if (l.indent > indent) fail();
      const rest = l.text === '-' ? '' : l.text.slice(2);
      const inner = rest.trimStart();
      if (inner === '' || inner.startsWith('#')) {
        this.at++;
        out.push(this.value('', indent, false));
        continue;
      }
      // `- key: value` or `- - x`: the item's content starts two columns in, on this line.
      const column = indent + 2 + (rest.length - inner.length);
      if (inner.startsWith('|') || inner.startsWith('>')) fail();
      if (isItem(inner) || looksLikeKey(inner)) {
        this.lines[this.at] = { indent: column, text: inner, raw: l.raw };
        out.push(this.node(column));
      } else {
        this.at++;
        out.push(this.inlineScalar(inner, indent));
      }
    }
  }

  /** The value after `key:` (or `-`): inline, a block scalar, or the nested node on the next lines. */
  private value(rest: string, indent: number, inMapping: boolean): unknown {
    if (rest === '|' || rest === '|-') return this.blockScalar(indent, rest === '|-');
    if (rest !== '') return this.inlineScalar(rest, indent);
    this.skipBlank();
    const next = this.lines[this.at];
    if (!next) return null;
    if (next.indent > indent) return this.node(next.indent);
    // A sequence may sit at its key's own indentation (go-yaml writes it so).
    if (inMapping && next.indent === indent && isItem(next.text)) return this.sequence(indent);
    return null;
  }

  /**
   * A scalar that starts on its key's (or item's) line and may go on over more indented lines
   * (go-yaml wraps long plain and single-quoted strings so): the lines folded into one, a line
   * break becoming a space and each blank line a newline.
   */
  private inlineScalar(first: string, indent: number): unknown {
    let end = this.at;
    for (let i = this.at; i < this.lines.length; i++) {
      const l = this.lines[i]!;
      if (l.text === '') continue;
      if (l.indent <= indent) break;
      // In a quoted scalar a line starting with '#' is text; in a plain one it would be a comment.
      if (l.text.startsWith('#') && !/^["']/.test(first)) fail();
      end = i + 1;
    }
    if (end === this.at) return scalar(first);
    const doubleQuoted = first.startsWith('"');
    let text = first;
    let blanks = 0;
    for (; this.at < end; this.at++) {
      const line = this.lines[this.at]!.text;
      if (line === '') {
        blanks++;
        continue;
      }
      if (doubleQuoted && blanks === 0 && /(^|[^\\])(\\\\)*\\$/.test(text))
        text = text.slice(0, -1) + line; // an escaped line break
      else
        text +=
          blanks > 0
            ? '\\n'.repeat(doubleQuoted ? blanks : 0) + '\n'.repeat(doubleQuoted ? 0 : blanks) + line
            : ` ${line}`;
      blanks = 0;
    }
    return scalar(text);
  }

  private blockScalar(indent: number, strip: boolean): string {
    const content: string[] = [];
    let block = -1;
    while (this.at < this.lines.length) {
      const l = this.lines[this.at]!;
      if (l.text === '') {
        // A blank line's spaces beyond the block's indentation are content; leave those to the library.
        if (l.raw.length > 0 && (block < 0 || l.raw.length > block)) fail();
        content.push('');
        this.at++;
        continue;
      }
      if (l.indent <= indent) break;
      if (block < 0) block = l.indent;
      if (l.indent < block) fail();
      content.push(l.raw.slice(block));
      this.at++;
    }
    // Blank lines after the block belong to the document, not the scalar (they are chomped anyway).
    let end = content.length;
    while (end > 0 && content[end - 1] === '') end--;
    const body = content.slice(0, end).join('\n');
    if (body === '') return '';
    return strip ? body : `${body}\n`;
  }
}

const isItem = (text: string): boolean => text === '-' || text.startsWith('- ');

function looksLikeKey(text: string): boolean {
  try {
    splitKey(text);
    return true;
  } catch {
    return false;
  }
}

/** `key: rest` (the key plain or quoted). */
function splitKey(text: string): { key: string; rest: string } {
  let key: string;
  let after: string;
  if (text.startsWith('"') || text.startsWith("'")) {
    const end = quotedEnd(text);
    key = scalar(text.slice(0, end + 1)) as string;
    after = text.slice(end + 1);
    if (!after.startsWith(':')) fail();
  } else {
    const colon = text.indexOf(': ');
    const end = colon >= 0 ? colon : text.endsWith(':') ? text.length - 1 : fail();
    key = text.slice(0, end);
    after = text.slice(end);
    if (key === '' || /^[-?:,[\]{}#&*!|>'"%@`]/.test(key) || key.includes(' #') || key !== key.trim()) fail();
  }
  const rest = after.slice(1);
  if (rest !== '' && !rest.startsWith(' ')) fail();
  return { key, rest: rest.trim() };
}

/** The index of the closing quote of a quoted scalar starting at 0. */
function quotedEnd(text: string): number {
  const q = text[0];
  for (let i = 1; i < text.length; i++) {
    if (q === "'" && text[i] === "'") {
      if (text[i + 1] === "'") i++;
      else return i;
    } else if (q === '"' && text[i] === '\\') i++;
    else if (q === '"' && text[i] === '"') return i;
  }
  return fail();
}

const NULLS = new Set(['null', 'Null', 'NULL', '~']);
const TRUE = new Set(['true', 'True', 'TRUE']);
const FALSE = new Set(['false', 'False', 'FALSE']);

/** A one-line scalar, typed as the YAML 1.2 core schema types it. */
function scalar(text: string): unknown {
  if (text.startsWith("'") || text.startsWith('"')) {
    const end = quotedEnd(text);
    if (end !== text.length - 1) fail();
    if (text[0] === "'") return text.slice(1, -1).replaceAll("''", "'");
    // JSON's escapes are YAML's too, and `\ ` (a space go-yaml escapes where it wraps a line);
    // YAML's others (\x, \0, \e, …) are left to the library.
    const json = text.replace(/\\(.)/g, (sequence, c: string) =>
      c === ' ' ? ' ' : '"\\/bfnrtu'.includes(c) ? sequence : fail(),
    );
    try {
      return JSON.parse(json) as string;
    } catch {
      return fail();
    }
  }
  if (text === '[]') return [];
  if (text === '{}') return {};
  if (
    /^[[\]{}&*!|>%@`,?]/.test(text) ||
    /^[-:](\s|$)/.test(text) ||
    text.includes(': ') ||
    text.includes(' #') ||
    text.endsWith(':')
  )
    fail();
  if (NULLS.has(text)) return null;
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return Number(text);
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.slice(2), 16);
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  if (/^[-+]?\.(inf|Inf|INF)$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^\.(nan|NaN|NAN)$/.test(text)) return NaN;
  return text;
}
