/**
 * Deterministic YAML for generated manifests, written directly (a general YAML library spends
 * most of `tsop manifests`' time on a 500 KB CRD): keys sorted at every level (arrays keep their
 * order), sequences not indented under their key, no line folding, multi-line strings as `|-`
 * blocks, and go-yaml's quoting — a string YAML 1.1 would read as a number, boolean, null or
 * timestamp is double-quoted (`"True"`), one that cannot be plain is single-quoted (`'*'`). The
 * output reads like controller-gen's and is byte-identical across runs.
 */

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(byCodeUnit)) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** One YAML document, introduced by `---` as controller-gen writes it. */
export function toYamlDocument(value: unknown): string {
  const out: string[] = ['---'];
  const entries = isMap(value) ? definedEntries(value) : [];
  if (Array.isArray(value) && value.length > 0) writeSeq(value, 0, out);
  else if (entries.length > 0) writeMap(entries, 0, out);
  else out.push(scalar(value, 0));
  return `${out.join('\n')}\n`;
}

// The writer runs over every node of every CRD (a pod template alone has thousands), so it makes
// one pass with no intermediate copies: a map's entries are read at once, and sorted only when out
// of order (core schemas come sorted); indentation strings and texts are reused.

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

type Entry = [string, unknown];
const byKey = (a: Entry, b: Entry): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** The entries with a value, in code-unit order of their keys. */
function definedEntries(o: Record<string, unknown>): Entry[] {
  const entries = Object.entries(o);
  let n = 0;
  let sorted = true;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as Entry;
    if (entry[1] === undefined) continue;
    if (n > 0 && !((entries[n - 1] as Entry)[0] < entry[0])) sorted = false;
    entries[n++] = entry;
  }
  if (n !== entries.length) entries.length = n;
  return sorted ? entries : entries.sort(byKey);
}

const pads: string[] = [];
const pad = (n: number): string => (pads[n] ??= ' '.repeat(n));

/** Entries a text cache below may hold before it is emptied. */
const CACHE_LIMIT = 100_000;

const keyTexts = new Map<string, string>();
function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    if (keyTexts.size >= CACHE_LIMIT) keyTexts.clear();
    keyTexts.set(key, (text = `${plainOrQuoted(key)}:`));
  }
  return text;
}

/**
 * Texts of strings already written, plain or quoted (by string) and as literal blocks (by
 * indentation, then string): CRDs repeat most of their strings — types, formats, the descriptions
 * of core types embedded more than once, the same fields in every kind. Emptied when large, so a
 * long-running process (tsop dev) does not keep every string it ever wrote.
 */
const scalarTexts = new Map<string, string>();
const blockTexts: Array<Map<string, string>> = [];
let blockCount = 0;

/**
 * A map with at least one entry at `indent`; the first line may start with `first` (`- `). Most
 * values are strings already written once, so that case is tested first and looked up here.
 */
function writeMap(entries: Entry[], indent: number, out: string[], first?: string): void {
  const here = pad(indent);
  let prefix = first ?? here;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as Entry;
    const key = entry[0];
    const item = entry[1];
    const k = prefix + (keyTexts.get(key) ?? keyText(key));
    prefix = here;
    if (typeof item === 'string') {
      const known = item.includes('\n') ? undefined : scalarTexts.get(item);
      out.push(`${k} ${known ?? scalar(item, indent + 2)}`);
    } else if (typeof item !== 'object' || item === null) out.push(`${k} ${scalar(item, indent + 2)}`);
    else if (Array.isArray(item)) {
      if (item.length === 0) out.push(`${k} []`);
      else {
        out.push(k);
        writeSeq(item, indent, out); // sequences are not indented under their key
      }
    } else {
      const inner = definedEntries(item as Record<string, unknown>);
      if (inner.length === 0) out.push(`${k} {}`);
      else {
        out.push(k);
        writeMap(inner, indent + 2, out);
      }
    }
  }
}

/** A non-empty sequence whose dashes stand at `indent`. */
function writeSeq(items: unknown[], indent: number, out: string[], first?: string): void {
  const here = pad(indent);
  let prefix = first ?? here;
  for (const item of items) {
    const dash = `${prefix}- `;
    prefix = here;
    if (Array.isArray(item) && item.length > 0) writeSeq(item, indent + 2, out, dash);
    else if (isMap(item)) {
      const inner = definedEntries(item);
      if (inner.length === 0) out.push(`${dash}{}`);
      else writeMap(inner, indent + 2, out, dash);
    } else out.push(dash + scalar(item, indent + 2));
  }
}

function scalar(v: unknown, indent: number): string {
  if (typeof v === 'string') {
    if (!v.includes('\n')) {
      let text = scalarTexts.get(v);
      if (text === undefined) {
        if (scalarTexts.size >= CACHE_LIMIT) scalarTexts.clear();
        scalarTexts.set(v, (text = plainOrQuoted(v)));
      }
      return text;
    }
    const byText = (blockTexts[indent] ??= new Map());
    let text = byText.get(v);
    if (text === undefined) {
      if (++blockCount > CACHE_LIMIT) {
        blockTexts.forEach((m) => m.clear());
        blockCount = 1;
      }
      byText.set(v, (text = blockSafe(v) ? literalBlock(v, pad(indent)) : plainOrQuoted(v)));
    }
    return text;
  }
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v > 0 ? '.inf' : v < 0 ? '-.inf' : '.nan';
  if (Array.isArray(v)) return '[]';
  if (typeof v === 'object') return '{}';
  return plainOrQuoted(String(v));
}

/** `|-` (no final newline), `|` (one) or `|+` (more), each non-empty line indented. */
function literalBlock(s: string, indentation: string): string {
  const chomp = s.endsWith('\n') ? (s.endsWith('\n\n') ? '+' : '') : '-';
  const body = chomp === '-' ? s : s.replace(/\n+$/, (m) => (chomp === '+' ? m.slice(1) : ''));
  const first = body === '' || body[0] === '\n' ? '' : indentation;
  return `|${chomp}\n${first}${body.replace(/\n(?=[^\n])/g, `\n${indentation}`)}`;
}

/** A literal block cannot start with a space (it would need an indentation indicator) or hold \r. */
function blockSafe(s: string): boolean {
  return !/^[ \t]/.test(s) && !/[\r\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s) && s.trim() !== '';
}

function plainOrQuoted(s: string): string {
  if (/[\n\r\t\u0000-\u001f\u007f]/.test(s)) return JSON.stringify(s);
  if (readsAsOtherType(s)) return JSON.stringify(s);
  if (plainSafe(s)) return s;
  return `'${s.replaceAll("'", "''")}'`;
}

/** Text that can stand unquoted and still be read back as this same string. */
function plainSafe(s: string): boolean {
  if (s === '') return false;
  // Printable ASCII at both ends cannot be trimmed; only other text pays for trim().
  const a = s.charCodeAt(0);
  const z = s.charCodeAt(s.length - 1);
  if (!(a > 0x20 && a < 0x7f && z > 0x20 && z < 0x7f) && s !== s.trim()) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`=]/.test(s) && !/^-[^\s]/.test(s)) return false;
  if (/^-[^\s]/.test(s) && /^-[-?:,[\]{}#&*!|>'"%@`]/.test(s)) return false;
  return !/: |:$| #|[,[\]{}]\s*$/.test(s) && !/^<</.test(s);
}

const YAML11_NON_STRING = new RegExp(
  [
    '~|null|Null|NULL',
    'y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF',
    '[-+]?0b[01_]+|[-+]?0x[0-9a-fA-F_]+|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])*',
    '[-+]?([0-9][0-9_]*)?\\.[0-9._]*([eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+',
    '[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)',
    '[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ].*)?',
  ]
    .map((alt) => `(?:${alt})`)
    .join('|')
    .replace(/^/, '^(?:')
    .concat(')$'),
);

/** Every form above starts with one of these characters; most text is ruled out by its first. */
const YAML11_FIRST = /^[~nNyYtTfFoO0-9+\-.]/;

function readsAsOtherType(s: string): boolean {
  return s.length < 64 && YAML11_FIRST.test(s) && YAML11_NON_STRING.test(s);
}
