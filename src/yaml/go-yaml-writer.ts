/**
 * Deterministic YAML for generated manifests, byte for byte what controller-gen writes for the
 * same object: controller-gen turns each object into JSON and hands it to go-yaml v2, so keys are
 * in go-yaml's order (go-yaml-key-order.ts), numbers in the form JSON then go-yaml give them (`1e-05`,
 * `1.2345675e+06`), and strings in go-yaml's styles with long ones folded at 80 columns
 * (go-yaml-scalars.ts). A general YAML library would be slower on a 500 KB CRD and write it otherwise.
 */
import { renderScalar, scalarInfo, withKeyText } from './go-yaml-scalars.js';
import { compareKeys } from './go-yaml-key-order.js';

export { compareKeys } from './go-yaml-key-order.js';

/** One YAML document, introduced by `---` as controller-gen writes it. */
export function toYamlDocument(value: unknown): string {
  const out: string[] = ['---'];
  if (Array.isArray(value) && value.length > 0) writeSeq(value, 0, out);
  else if (isMap(value) && definedEntries(value).length > 0) writeMap(definedEntries(value), 0, out);
  // A root scalar: as after an indicator one column to the left, without the space.
  else out.push(scalarText(value, -1, 2).slice(1));
  const text = `${out.join('\n')}\n`;
  if (!glued) return text;
  glued = false;
  return text.replaceAll(`${GLUE}\n`, '');
}

// The writer runs over every node of every CRD (a pod template alone has thousands): one pass, a
// line at a time, as libyaml lays out block mappings and sequences; only a scalar that must be
// folded, quoted or written as a block goes through the character-level writer (go-yaml-scalars.ts).

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

type Entry = [string, unknown];
const byKey = (a: Entry, b: Entry): number => compareKeys(a[0], b[0]);

/** The entries with a value, in go-yaml's key order (sorted only when out of order: core schemas come sorted). */
function definedEntries(o: Record<string, unknown>): Entry[] {
  const entries = Object.entries(o);
  let n = 0;
  let sorted = true;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as Entry;
    if (entry[1] === undefined) continue;
    if (n > 0 && compareKeys((entries[n - 1] as Entry)[0], entry[0]) > 0) sorted = false;
    entries[n++] = entry;
  }
  if (n !== entries.length) entries.length = n;
  return sorted ? entries : entries.sort(byKey);
}

const pads: string[] = [];
const pad = (n: number): string => (pads[n] ??= ' '.repeat(n));

/**
 * A mapping with at least one entry, its keys at `indent`; the first line may start with `first`
 * (`- ` of a sequence item, `: ` after a long key).
 */
function writeMap(entries: Entry[], indent: number, out: string[], first?: string): void {
  const here = pad(indent);
  let prefix = first ?? here;
  for (let e = 0; e < entries.length; e++) {
    const entry = entries[e] as Entry;
    const key = entry[0];
    const item = entry[1];
    const kt = keyLines.get(key) ?? keyLineOf(key);
    if (kt !== '') {
      // The common lines written here rather than through writeValue: a nested mapping or
      // sequence (on the lines after `key:`), and `key: value` with nothing to fold.
      if (typeof item === 'object' && item !== null) {
        if (Array.isArray(item)) {
          if (item.length === 0) out.push(`${prefix}${kt} []`);
          else {
            out.push(prefix + kt);
            writeSeq(item, indent, out);
          }
        } else {
          const inner = definedEntries(item as Record<string, unknown>);
          if (inner.length === 0) out.push(`${prefix}${kt} {}`);
          else {
            out.push(prefix + kt);
            writeMap(inner, indent + 2, out);
          }
        }
        prefix = here;
        continue;
      }
      if (typeof item === 'string') {
        const sp = plainValues.get(item) ?? plainValueOf(item);
        if (sp !== '' && indent + kt.length + sp.length <= 81) {
          out.push(prefix + kt + sp);
          prefix = here;
          continue;
        }
      }
      writeValue(item, prefix + kt, indent + kt.length, indent, true, out);
    } else {
      const k = scalarInfo(key);
      if (k.simpleKey) {
        const kw = withKeyText(key, k);
        writeValue(item, prefix + kw.keyText, indent + kw.keyWidth, indent, true, out);
      } else {
        // A key of more than 128 bytes or several lines: `? key`, then `: value` on the next line.
        out.push(`${prefix}?${scalarText(key, indent + 1, indent + 2)}`);
        writeValue(item, `${here}:`, indent + 1, indent, false, out);
      }
    }
    prefix = here;
  }
}

// The two lookups of the common line, one Map each (the writer's cold start is most of its time):
// a simple key whose text is as wide as it is long (`key:`, or '' for the others), and a string
// written plain (` value`, or '' for the others). Emptied when large, as the analyses are.
const keyLines = new Map<string, string>();
const plainValues = new Map<string, string>();

function keyLineOf(key: string): string {
  const k = scalarInfo(key);
  let text = '';
  if (k.simpleKey && !k.astral) {
    const kw = withKeyText(key, k);
    if (kw.keyWidth === kw.keyText.length) text = kw.keyText;
  }
  if (keyLines.size >= CACHE_LIMIT) keyLines.clear();
  keyLines.set(key, text);
  return text;
}

function plainValueOf(value: string): string {
  const a = scalarInfo(value);
  const text = a.valueStyle === 'plain' && !a.astral ? (a.spaced ??= ` ${value}`) : '';
  if (plainValues.size >= CACHE_LIMIT) plainValues.clear();
  plainValues.set(value, text);
  return text;
}

const CACHE_LIMIT = 100_000;

/** A non-empty sequence whose dashes stand at `indent`; the first line may start with `first`. */
function writeSeq(items: unknown[], indent: number, out: string[], first?: string): void {
  const here = pad(indent);
  let prefix = first ?? here;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    // The common item, `- value` with nothing to fold (a required field's name, an enum value).
    if (typeof item === 'string') {
      const sp = plainValues.get(item) ?? plainValueOf(item);
      if (sp !== '' && indent + 1 + sp.length <= 81) {
        out.push(`${prefix}-${sp}`);
        prefix = here;
        continue;
      }
    }
    writeValue(item, `${prefix}-`, indent + 1, indent, false, out);
    prefix = here;
  }
}

/**
 * A value after the indicator that ends `line` at `column` (`key:`, `-`, or `:` after a long key).
 * A block mapping or sequence under a simple key starts on the next line (the sequence not
 * indented); after `-` or `:` it starts on the same line.
 */
function writeValue(
  item: unknown,
  line: string,
  column: number,
  indent: number,
  underKey: boolean,
  out: string[],
): void {
  if (typeof item !== 'object' || item === null) out.push(line + scalarText(item, column, indent + 2));
  else if (Array.isArray(item)) {
    if (item.length === 0) out.push(`${line} []`);
    else if (underKey) {
      out.push(line);
      writeSeq(item, indent, out);
    } else writeSeq(item, indent + 2, out, `${line} `);
  } else {
    const inner = definedEntries(item as Record<string, unknown>);
    if (inner.length === 0) out.push(`${line} {}`);
    else if (underKey) {
      out.push(line);
      writeMap(inner, indent + 2, out);
    } else writeMap(inner, indent + 2, out, `${line} `);
  }
}

/** A scalar after an indicator ending at `column` (with its leading space), continuation lines at `indent`. */
function scalarText(v: unknown, column: number, indent: number): string {
  if (typeof v !== 'string') return ` ${plainText(v)}`;
  const a = scalarInfo(v);
  // Most scalars: plain, and every space before column 80, so nothing to fold.
  if (a.valueStyle === 'plain' && !a.astral && column + 1 + v.length <= 81) return (a.spaced ??= ` ${v}`);
  // The others depend on where they start (a literal block only on its indentation): kept with
  // the string's analysis by place (CRDs repeat descriptions).
  const literal = a.valueStyle === 'literal' && a.lineFeedsOnly;
  const place = literal ? indent : column * 4096 + indent;
  const byPlace = (a.rendered ??= new Map());
  let text = byPlace.get(place);
  if (text === undefined) {
    const raw = literal ? literalBlock(v, indent) : renderScalar(v, a.valueStyle, column, indent);
    // A literal block ends its last line itself: the line break the writer adds is that one. (One
    // ending in another line break, U+2028 say, leaves the next line right after it, as libyaml does.)
    text = raw.endsWith('\n') ? raw.slice(0, -1) : /[\r\u0085\u2028\u2029]$/.test(raw) ? `${raw}${GLUE}` : raw;
    byPlace.set(place, text);
  }
  if (text.endsWith(GLUE)) glued = true;
  return text;
}

/**
 * A literal block whose only line breaks are line feeds (most multi-line descriptions), as the
 * character-level writer writes it: `|` with the indentation hint when the text starts with a
 * space or a break, the chomping hint (`-` no final break, none for one, `+` for more), then each
 * non-empty line at `indent`.
 */
function literalBlock(s: string, indent: number): string {
  const hint = s[0] === ' ' || s[0] === '\n' ? '2' : '';
  const chomp = !s.endsWith('\n') ? '-' : s.length === 1 || s.endsWith('\n\n') ? '+' : '';
  const margin = pad(indent);
  return ` |${hint}${chomp}\n${s
    .split('\n')
    .map((line) => (line === '' ? '' : margin + line))
    .join('\n')}`;
}

/** Marks a line the next one continues without a line break (see scalarText); `glued` says one was written. */
const GLUE = '\u0000';
let glued = false;

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** A number, boolean or null as JSON writes it and go-yaml then writes what it read back. */
function plainText(v: unknown): string {
  if (typeof v === 'boolean') return String(v);
  if (typeof v !== 'number' || !Number.isFinite(v)) return 'null'; // JSON has no NaN or Infinity
  // JSON writes integers below 1e21 in full (shortest digits); go-yaml reads those within int64 or uint64 as integers.
  if (Number.isInteger(v) && Math.abs(v) < 1e21) {
    const text = String(v);
    const n = BigInt(text);
    if (n >= INT64_MIN && n <= UINT64_MAX) return text;
  }
  return goFloat(v);
}

/** Go's strconv.FormatFloat(v, 'g', -1, 64): shortest digits, exponent form below 1e-4 or from 1e6 on. */
function goFloat(v: number): string {
  const [mantissa = '0', exp = '0'] = v.toExponential().split('e');
  const e = Number(exp);
  if (e >= -4 && e < 6) return String(v);
  const sign = e < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(e)).padStart(2, '0')}`;
}
