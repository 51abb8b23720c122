/**
 * A YAML writer that behaves as go-yaml v2's emitter (libyaml's, as sigs.k8s.io/yaml and so
 * controller-gen use it) does for block mappings and sequences of scalars: the same indentation,
 * the same choice between plain, single-quoted, double-quoted and literal scalars, and the same
 * folding of long plain and quoted scalars at the first space past column 80. Columns count
 * characters (code points), as libyaml does. Only the states CRD, RBAC and webhook documents reach
 * exist here: no anchors, tags, flow collections other than `[]` and `{}`, or folded scalars.
 */
import { isBase60Float, readsAsOtherType } from './yaml-resolve.js';

const BEST_WIDTH = 80;
const BEST_INDENT = 2;

export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal';

/** What a string's characters allow (libyaml's scalar analysis), computed once per string. */
interface Analysis {
  multiline: boolean;
  blockPlain: boolean;
  single: boolean;
  block: boolean;
  /** Holds a character beyond U+FFFF, so its length (in UTF-16 units) is not its column count. */
  astral: boolean;
  /** The styles chosen for it as a value and as a key, once asked. */
  valueStyle?: ScalarStyle;
  keyStyle?: ScalarStyle;
}

const isBreak = (c: number): boolean => c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
const isBlank = (c: number | undefined): boolean => c === 0x20 || c === 0x09;
/** libyaml's printable set, read on code points: LF, printable ASCII, U+00A0–U+D7FF and U+E000–U+FFFD but the BOM. */
const isPrintable = (c: number): boolean => c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);

/** Code points; a lone surrogate (no Go string holds one) reads as U+FFFD, as Go's UTF-8 decoding of it would. */
function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    out.push(c >= 0xd800 && c <= 0xdfff ? 0xfffd : c);
  }
  return out;
}

function analyze(s: string): Analysis {
  if (s === '') return { multiline: false, blockPlain: true, single: true, block: false, astral: false };
  const cs = codePoints(s);
  let blockIndicators = s.startsWith('---') || s.startsWith('...');
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  let astral = false;
  const last = cs.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = cs[i] as number;
    const followedByWhitespace = i === last || isBlank(cs[i + 1]);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(String.fromCodePoint(c))) blockIndicators = true;
      else if ((c === 0x3f || c === 0x3a || c === 0x2d) && followedByWhitespace) blockIndicators = true; // ? : -
    } else if ((c === 0x3a && followedByWhitespace) || (c === 0x23 && precededByWhitespace)) blockIndicators = true; // ': ' ' #'
    if (!isPrintable(c)) special = true;
    if (c > 0xffff) astral = true;
    if (c === 0x20) {
      if (i === 0) leadingSpace = true;
      if (i === last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = c === 0x20 || c === 0x09 || isBreak(c) || c === 0;
  }
  let blockPlain = !(leadingSpace || leadingBreak || trailingSpace || trailingBreak || breakSpace || spaceBreak || special || lineBreaks || blockIndicators);
  let single = !(breakSpace || spaceBreak || special);
  const block = !(trailingSpace || spaceBreak || special);
  if (!single) blockPlain = false;
  return { multiline: lineBreaks, blockPlain, single, block, astral };
}

const analyses = new Map<string, Analysis>();
/** Entries the analysis cache may hold before it is emptied (a long-running `tsop dev` keeps no more). */
const CACHE_LIMIT = 100_000;

function analysisOf(s: string): Analysis {
  let a = analyses.get(s);
  if (a === undefined) {
    if (analyses.size >= CACHE_LIMIT) analyses.clear();
    analyses.set(s, (a = analyze(s)));
  }
  return a;
}

/** The style go-yaml writes a string in: literal for text with a line break, else plain unless it would read as another type. */
export function scalarStyle(s: string, simpleKey: boolean): ScalarStyle {
  const a = analysisOf(s);
  const known = simpleKey ? a.keyStyle : a.valueStyle;
  if (known !== undefined) return known;
  let style: ScalarStyle = s.includes('\n') ? 'literal' : readsAsOtherType(s) || isBase60Float(s) ? 'double' : 'plain';
  if (simpleKey && a.multiline) style = 'double';
  if (style === 'plain' && (!a.blockPlain || (s === '' && simpleKey))) style = 'single';
  if (style === 'single' && !a.single) style = 'double';
  if (style === 'literal' && (!a.block || simpleKey)) style = 'double';
  if (simpleKey) a.keyStyle = style;
  else a.valueStyle = style;
  return style;
}

/** Whether go-yaml writes a mapping key with this text as a simple `key:` (else as `? key`). */
export function isSimpleKey(s: string): boolean {
  const a = analysisOf(s);
  return !a.multiline && (s.length <= 42 || Buffer.byteLength(s) <= 128); // 42 UTF-16 units are at most 128 bytes
}

/** The output and the cursor state libyaml keeps while writing. */
export class Emitter {
  private out = '';
  column = 0;
  /** The last thing written was whitespace (or nothing): an indicator needs no space before it. */
  whitespace = true;
  /** Only indentation has been written on this line so far. */
  indention = true;
  indent = -1;
  private readonly indents: number[] = [];

  text(): string {
    return this.out;
  }

  increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }

  popIndent(): void {
    this.indent = this.indents.pop() ?? -1;
  }

  private put(s: string, width = s.length): void {
    this.out += s;
    this.column += width;
  }

  private newline(): void {
    this.out += '\n';
    this.column = 0;
  }

  writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.newline();
    if (this.column < indent) this.put(spaces(indent - this.column));
    this.whitespace = true;
    this.indention = true;
  }

  writeIndicator(indicator: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(indicator);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  /** A scalar in the style `scalarStyle` chose; `allowBreaks` is false for simple keys. */
  writeScalar(s: string, style: ScalarStyle, allowBreaks: boolean): void {
    if (style === 'plain' && this.fitsOnLine(s)) {
      // The common case: nothing to fold, nothing to escape.
      if (!this.whitespace) this.put(' ');
      this.put(s);
      this.whitespace = false;
      this.indention = false;
      return;
    }
    if (style === 'plain') this.writePlain(s, allowBreaks);
    else if (style === 'single') this.writeSingle(s, allowBreaks);
    else if (style === 'double') this.writeDouble(s, allowBreaks);
    else this.writeLiteral(s);
  }

  /** No fold can happen: every space stands at or before column 80. */
  private fitsOnLine(s: string): boolean {
    return this.column + 1 + s.length <= BEST_WIDTH + 1 && !analysisOf(s).astral;
  }

  private writePlain(s: string, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    const cs = codePoints(s);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i] as number;
      if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && cs[i + 1] !== 0x20) this.writeIndent();
        else this.put(' ');
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === 0x0a) this.newline();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.put(String.fromCodePoint(c), 1);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private writeSingle(s: string, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    const cs = codePoints(s);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i] as number;
      if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cs.length - 1 && cs[i + 1] !== 0x20) this.writeIndent();
        else this.put(' ');
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === 0x0a) this.newline();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === 0x27) this.put("'");
        this.put(String.fromCodePoint(c), 1);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeDouble(s: string, allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    const cs = codePoints(s);
    const bom = cs[0] === 0xfeff; // libyaml checks the BOM at the start of the value for every character
    let spaces = false;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i] as number;
      if (!isPrintable(c) || bom || isBreak(c) || c === 0x22 || c === 0x5c) {
        this.put(`\\${escapeOf(c)}`);
        spaces = false;
      } else if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cs.length - 1) {
          this.writeIndent();
          if (cs[i + 1] === 0x20) this.put('\\');
        } else this.put(' ');
        spaces = true;
      } else {
        this.put(String.fromCodePoint(c), 1);
        spaces = false;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeLiteral(s: string): void {
    this.writeIndicator('|', true, false, false);
    const first = s.charCodeAt(0);
    if (first === 0x20 || isBreak(first)) this.writeIndicator(String(BEST_INDENT), false, false, false);
    const lastIsBreak = isBreak(s.charCodeAt(s.length - 1));
    const chomp = !lastIsBreak ? '-' : s.length === 1 || isBreak(s.charCodeAt(s.length - 2)) ? '+' : '';
    if (chomp !== '') this.writeIndicator(chomp, false, false, false);
    this.newline();
    this.indention = true;
    this.whitespace = true;
    const astral = analysisOf(s).astral;
    if (!/[\r\u0085\u2028\u2029]/.test(s)) {
      // Lines between LFs, each indented unless empty (the same as the loop below, a line at a time).
      const lines = s.split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (i > 0) {
          this.newline();
          this.indention = true;
        }
        const line = lines[i] as string;
        if (line === '') continue;
        this.writeIndent();
        this.put(line, astral ? codePoints(line).length : line.length);
        this.indention = false;
      }
      return;
    }
    let breaks = true;
    for (const c of codePoints(s)) {
      if (isBreak(c)) {
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.put(String.fromCodePoint(c), 1);
        this.indention = false;
        breaks = false;
      }
    }
  }

  /** A line break of the value: LF as a newline, the others written as they are, ending the line. */
  private writeBreak(c: number): void {
    if (c === 0x0a) this.newline();
    else {
      this.out += String.fromCodePoint(c);
      this.column = 0;
    }
  }
}

const padding: string[] = [];
const spaces = (n: number): string => (padding[n] ??= ' '.repeat(n));

/** The escape libyaml writes in a double-quoted scalar (after the backslash). */
function escapeOf(c: number): string {
  switch (c) {
    case 0x00:
      return '0';
    case 0x07:
      return 'a';
    case 0x08:
      return 'b';
    case 0x09:
      return 't';
    case 0x0a:
      return 'n';
    case 0x0b:
      return 'v';
    case 0x0c:
      return 'f';
    case 0x0d:
      return 'r';
    case 0x1b:
      return 'e';
    case 0x22:
      return '"';
    case 0x5c:
      return '\\';
    case 0x85:
      return 'N';
    case 0xa0:
      return '_';
    case 0x2028:
      return 'L';
    case 0x2029:
      return 'P';
  }
  const hex = c.toString(16).toUpperCase();
  return c <= 0xff ? `x${hex.padStart(2, '0')}` : c <= 0xffff ? `u${hex.padStart(4, '0')}` : `U${hex.padStart(8, '0')}`;
}
