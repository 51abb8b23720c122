/**
 * A YAML writer that behaves as go-yaml v2's emitter (libyaml's, as sigs.k8s.io/yaml and so
 * controller-gen use it) does for block mappings and sequences of scalars: the same indentation,
 * the same choice between plain, single-quoted, double-quoted and literal scalars, and the same
 * folding of long plain and quoted scalars at the first space past column 80. Columns count
 * characters (code points), as libyaml does. Only the states CRD, RBAC and webhook documents reach
 * exist here: no anchors, tags, flow collections other than `[]` and `{}`, or folded scalars.
 */
import { isBase60Float, readsAsOtherType } from './go-yaml-resolve.js';

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
  /** Its only line breaks (if any) are line feeds. */
  lineFeedsOnly: boolean;
  /** The style go-yaml writes it in as a value. */
  valueStyle: ScalarStyle;
  /** As a mapping key: written `key:` (else `? key`), and in which style. */
  simpleKey: boolean;
  keyStyle: ScalarStyle;
  /** Its text as a simple key, once written (a key is never folded, so it is the same everywhere). */
  keyText?: string;
  keyWidth?: number;
  /** As a plain value that fits on its line: ` <text>` (yaml.ts). */
  spaced?: string;
  /** Its text as a value by the place it is written at (yaml.ts). */
  rendered?: Map<number, string>;
}

type Traits = Pick<Analysis, 'multiline' | 'blockPlain' | 'single' | 'block' | 'astral'>;

const OTHER_BREAKS = /[\r\u0085\u2028\u2029]/;

const isBreak = (c: number): boolean => c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
const isBlank = (c: number | undefined): boolean => c === 0x20 || c === 0x09;
/** libyaml's printable set, read on code points: LF, printable ASCII, U+00A0–U+D7FF and U+E000–U+FFFD but the BOM. */
const isPrintable = (c: number): boolean =>
  c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);

/** Code points; a lone surrogate (no Go string holds one) reads as U+FFFD, as Go's UTF-8 decoding of it would. */
function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    out.push(c >= 0xd800 && c <= 0xdfff ? 0xfffd : c);
  }
  return out;
}

/** Printable ASCII with no character that starts or ends an indicator anywhere: most names, types and prose. */
const QUIET_ASCII = /^[A-Za-z0-9(.$^/_=+<;~][\x20-\x7e]*$/;
/** Printable ASCII and line feeds, with at least one line feed. */
const ASCII_LINES = /^(?=[\s\S]*\n)[\x20-\x7e\n]+$/;

function analyze(s: string): Traits {
  if (s === '') return { multiline: false, blockPlain: true, single: true, block: false, astral: false };
  // The common case in a few regular-expression steps instead of the character loop below.
  if (QUIET_ASCII.test(s)) {
    const trailingSpace = s.charCodeAt(s.length - 1) === 0x20;
    const indicators = s.startsWith('...') || s.includes(' #') || s.includes(': ') || s.endsWith(':');
    return {
      multiline: false,
      blockPlain: !trailingSpace && !indicators,
      single: true,
      block: !trailingSpace,
      astral: false,
    };
  }
  // Several lines of printable ASCII (most descriptions): only the spaces next to line breaks matter.
  if (ASCII_LINES.test(s)) {
    const spaceBreak = s.includes(' \n');
    const breakSpace = s.includes('\n ');
    return {
      multiline: true,
      blockPlain: false,
      single: !spaceBreak && !breakSpace,
      block: !spaceBreak && s.charCodeAt(s.length - 1) !== 0x20,
      astral: false,
    };
  }
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
  let blockPlain = !(
    leadingSpace ||
    leadingBreak ||
    trailingSpace ||
    trailingBreak ||
    breakSpace ||
    spaceBreak ||
    special ||
    lineBreaks ||
    blockIndicators
  );
  const single = !(breakSpace || spaceBreak || special);
  const block = !(trailingSpace || spaceBreak || special);
  if (!single) blockPlain = false;
  return { multiline: lineBreaks, blockPlain, single, block, astral };
}

const analyses = new Map<string, Analysis>();
/** Entries the analysis cache may hold before it is emptied (a long-running `tsop dev` keeps no more). */
const CACHE_LIMIT = 100_000;

/** What go-yaml decides about a string, computed once per string (one lookup per scalar written). */
export function scalarInfo(s: string): Analysis {
  return analyses.get(s) ?? newInfo(s);
}

function newInfo(s: string): Analysis {
  if (analyses.size >= CACHE_LIMIT) analyses.clear();
  const t = analyze(s);
  const valueStyle = styleOf(s, t, false);
  // A key of more than 128 bytes is written `? key`; 42 UTF-16 units are at most 128 bytes.
  const simpleKey = !t.multiline && (s.length <= 42 || (s.length <= 128 && Buffer.byteLength(s) <= 128));
  const keyStyle = t.multiline || s === '' ? styleOf(s, t, true) : valueStyle;
  const lineFeedsOnly = !t.multiline || !OTHER_BREAKS.test(s);
  const a: Analysis = {
    multiline: t.multiline,
    blockPlain: t.blockPlain,
    single: t.single,
    block: t.block,
    astral: t.astral,
    lineFeedsOnly,
    valueStyle,
    simpleKey,
    keyStyle,
  };
  analyses.set(s, a);
  return a;
}

const analysisOf = scalarInfo;

/** The style go-yaml writes a string in: literal for text with a line break, else plain unless it would read as another type. */
function styleOf(s: string, a: Traits, simpleKey: boolean): ScalarStyle {
  let style: ScalarStyle = s.includes('\n') ? 'literal' : readsAsOtherType(s) || isBase60Float(s) ? 'double' : 'plain';
  if (simpleKey && a.multiline) style = 'double';
  if (style === 'plain' && (!a.blockPlain || (s === '' && simpleKey))) style = 'single';
  if (style === 'single' && !a.single) style = 'double';
  if (style === 'literal' && (!a.block || simpleKey)) style = 'double';
  return style;
}

/**
 * The text of a scalar written after an indicator that ends at `column` (`key:`, `-`, `?`), its
 * continuation lines at `indent`, as libyaml writes it: folded, quoted or as a literal block.
 * Starts with the space after the indicator. Keys (`allowBreaks` false) are never folded.
 */
export function renderScalar(
  s: string,
  style: ScalarStyle,
  column: number,
  indent: number,
  allowBreaks = true,
): string {
  const e = new Emitter(column, indent);
  e.writeScalar(s, style, allowBreaks);
  return e.text();
}

/**
 * The text of a simple key with its ':' (`keyText`), and its width in columns (`keyWidth`), kept on
 * the key's analysis: a key is never folded, so it is the same everywhere.
 */
export function withKeyText(key: string, a: Analysis): Analysis & { keyText: string; keyWidth: number } {
  if (a.keyText === undefined && a.keyStyle === 'plain' && !a.astral) {
    a.keyText = `${key}:`; // most keys: written as they are
    a.keyWidth = key.length + 1;
  } else if (a.keyText === undefined) {
    const e = new Emitter(0, 0, true);
    e.writeScalar(key, a.keyStyle, false);
    a.keyText = `${e.text()}:`;
    a.keyWidth = e.column + 1;
  }
  return a as Analysis & { keyText: string; keyWidth: number };
}

/** libyaml's cursor while it writes one scalar: the line so far, and whether it holds only indentation or ends in whitespace. */
class Emitter {
  private out = '';
  /** The last thing written was whitespace (or nothing): an indicator needs no space before it. */
  private whitespace: boolean;
  /** Only indentation has been written on this line so far. */
  private indention = false;

  constructor(
    public column: number,
    private readonly indent: number,
    whitespace = false,
  ) {
    this.whitespace = whitespace;
  }

  text(): string {
    return this.out;
  }

  private put(s: string, width = s.length): void {
    this.out += s;
    this.column += width;
  }

  private newline(): void {
    this.out += '\n';
    this.column = 0;
  }

  private writeIndent(): void {
    const indent = this.indent;
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) {
      this.out += `\n${spaces(indent)}`;
      this.column = indent;
    } else if (this.column < indent) this.put(spaces(indent - this.column));
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndicator(
    indicator: string,
    needWhitespace: boolean,
    isWhitespace: boolean,
    isIndention: boolean,
  ): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(indicator);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  writeScalar(s: string, style: ScalarStyle, allowBreaks: boolean): void {
    if (style === 'plain') this.writePlain(s, allowBreaks);
    else if (style === 'single') this.writeSingle(s, allowBreaks);
    else if (style === 'double') this.writeDouble(s, allowBreaks);
    else this.writeLiteral(s);
  }

  private writePlain(s: string, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    const a = analysisOf(s);
    if (!a.multiline && !a.astral) {
      if (allowBreaks) this.foldPlain(s);
      else this.put(s); // nothing to fold or escape
    } else this.writeText(s, allowBreaks, false);
    this.whitespace = false;
    this.indention = false;
  }

  /**
   * A plain scalar with no line break and one UTF-16 unit per character, written a line at a
   * time: writeText's folding, jumping from one candidate space to the next (a fold is at the
   * first lone space past column 80).
   */
  private foldPlain(s: string): void {
    let start = 0;
    let column = this.column;
    for (let i = s.indexOf(' ', start + Math.max(1, BEST_WIDTH + 1 - column)); i >= 0; i = s.indexOf(' ', i + 1)) {
      if (s.charCodeAt(i - 1) === 0x20 || s.charCodeAt(i + 1) === 0x20) continue;
      this.out += s.slice(start, i);
      this.column = column + (i - start);
      this.indention = false;
      this.writeIndent();
      column = this.column;
      start = i + 1;
      i = s.indexOf(' ', start + Math.max(1, BEST_WIDTH + 1 - column)) - 1;
      if (i < 0) break;
    }
    this.out += s.slice(start);
    this.column = column + (s.length - start);
  }

  private writeSingle(s: string, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    this.writeText(s, allowBreaks, true);
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  /**
   * The body of a plain or single-quoted scalar, character by character: a space past column 80
   * folds the line (inside quotes, not at either end), a line break is written twice (folding
   * reads one back as a space), and a quote inside quotes is doubled.
   */
  private writeText(s: string, allowBreaks: boolean, quoted: boolean): void {
    const cs = codePoints(s);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i] as number;
      if (c === 0x20) {
        const inside = !quoted || (i > 0 && i < cs.length - 1);
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && inside && cs[i + 1] !== 0x20) this.writeIndent();
        else this.put(' ');
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === 0x0a) this.newline();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (quoted && c === 0x27) this.put("'");
        this.put(String.fromCodePoint(c), 1);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
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
    const { astral, lineFeedsOnly } = analysisOf(s);
    if (lineFeedsOnly) {
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
