/**
 * A strict reader for the plain block YAML that tsop and kubebuilder write (PROJECT): nested
 * mappings and sequences by indentation (sequences indented or not), one `key: value` per line,
 * plain, 'single'- and "double"-quoted (no escapes) scalars, `[]` and `{}`, full-line comments. It answers
 * undefined for anything else — flow style, anchors, tags, block scalars, escapes, trailing
 * comments, tabs, CR, duplicate keys, numbers, empty values — and the caller then reads the text
 * with the yaml library. What it accepts, it reads exactly as the yaml library (YAML 1.2 core
 * schema) does, with the same line for each node, so the two are interchangeable; loading and
 * running the library costs `tsop manifests` more than everything else it does with PROJECT.
 */

export interface PlainYaml {
  /** The document as `toJS()` of the yaml library gives it. */
  value: Record<string, unknown>;
  /**
   * The 1-based line of the deepest node that exists along `path` (keys of mappings, indices of
   * sequences): a scalar's own line, a mapping's first key, a sequence's first item.
   */
  lineOf(path: readonly (string | number)[]): number;
}

interface MapNode {
  line: number;
  entries: Map<string, Node>;
}
interface SeqNode {
  line: number;
  items: Node[];
}
type Node = MapNode | SeqNode | { line: number };

interface Line {
  /** 1-based line number in the text. */
  no: number;
  indent: number;
  text: string;
}

/** Not representable here; the caller falls back to the yaml library. */
class NotPlain extends Error {}

const KEY = /^([A-Za-z_][A-Za-z0-9_./-]*):(?: (.*))?$/;
/** Keys the core schema reads as another type, and one a plain object cannot hold. */
const ODD_KEY = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE|[Nn]ull|NULL|__proto__)$/;
/** Characters outside printable text, and YAML's other line breaks. */
const NON_PRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ud800-\udfff]/;
/** First characters that are YAML indicators (or need care) in a plain scalar. */
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`\s]/;
/** Plain scalars the core schema reads as numbers. */
const NUMBER =
  /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const BOOLEAN = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const NULL = /^(?:~|[Nn]ull|NULL)$/;

export function readPlainYaml(text: string): PlainYaml | undefined {
  if (text.includes('\t') || text.includes('\r')) return undefined;
  const lines: Line[] = [];
  const raw = text.split('\n');
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i] as string;
    let indent = 0;
    while (line.charCodeAt(indent) === 0x20) indent++;
    if (indent === line.length || line.charCodeAt(indent) === 0x23 /* # */) continue;
    lines.push({ no: i + 1, indent, text: line.slice(indent) });
  }
  const first = lines[0];
  if (first === undefined || first.indent !== 0) return undefined;
  try {
    const reader = new Reader(lines);
    const root = reader.map(0, 0);
    if (reader.at < lines.length) return undefined;
    return { value: root.value, lineOf: (path) => lineOf(root.node, path) };
  } catch (error) {
    if (error instanceof NotPlain) return undefined;
    throw error;
  }
}

function lineOf(root: Node, path: readonly (string | number)[]): number {
  let node = root;
  for (const key of path) {
    let next: Node | undefined;
    if ('entries' in node) next = node.entries.get(String(key));
    else if ('items' in node && typeof key === 'number') next = node.items[key];
    if (next === undefined) break;
    node = next;
  }
  return node.line;
}

const isItem = (l: Line): boolean => l.text === '-' || l.text.startsWith('- ');

class Reader {
  at = 0;
  constructor(private readonly lines: Line[]) {}

  /** The mapping whose keys stand at `indent`, starting at line `this.at`. */
  map(indent: number, from: number): { node: MapNode; value: Record<string, unknown> } {
    this.at = from;
    const value: Record<string, unknown> = {};
    const node: MapNode = { line: this.lines[from]!.no, entries: new Map() };
    for (let l = this.lines[this.at]; l !== undefined && l.indent >= indent; l = this.lines[this.at]) {
      if (l.indent > indent || isItem(l)) throw new NotPlain();
      const m = KEY.exec(l.text);
      if (!m || ODD_KEY.test(m[1]!) || node.entries.has(m[1]!)) throw new NotPlain();
      const key = m[1]!;
      if (m[2] === '[]' || m[2] === '{}') {
        value[key] = m[2] === '[]' ? [] : {};
        node.entries.set(key, m[2] === '[]' ? { line: l.no, items: [] } : { line: l.no, entries: new Map() });
        this.at++;
        continue;
      }
      if (m[2] !== undefined) {
        value[key] = scalar(m[2]);
        node.entries.set(key, { line: l.no });
        this.at++;
        continue;
      }
      const next = this.lines[this.at + 1];
      let child: { node: Node; value: unknown };
      if (next !== undefined && isItem(next) && next.indent >= indent) child = this.seq(next.indent, this.at + 1);
      else if (next !== undefined && next.indent > indent) child = this.map(next.indent, this.at + 1);
      else throw new NotPlain(); // an empty value
      value[key] = child.value;
      node.entries.set(key, child.node);
    }
    return { node, value };
  }

  /** The sequence whose `- ` stand at `indent`. */
  seq(indent: number, from: number): { node: SeqNode; value: unknown[] } {
    this.at = from;
    const value: unknown[] = [];
    const node: SeqNode = { line: this.lines[from]!.no, items: [] };
    for (let l = this.lines[this.at]; l !== undefined && l.indent === indent && isItem(l); l = this.lines[this.at]) {
      const rest = l.text.slice(2);
      if (KEY.test(rest)) {
        // `- key: …` opens a mapping whose keys stand two columns further in.
        this.lines[this.at] = { no: l.no, indent: indent + 2, text: rest };
        const item = this.map(indent + 2, this.at);
        value.push(item.value);
        node.items.push(item.node);
      } else {
        value.push(scalar(rest));
        node.items.push({ line: l.no });
        this.at++;
      }
      const after = this.lines[this.at];
      if (after !== undefined && after.indent > indent) throw new NotPlain();
    }
    return { node, value };
  }
}

/** A one-line scalar as the core schema reads it; numbers and anything unusual are not plain here. */
function scalar(text: string): string | boolean | null {
  if (text === '' || NON_PRINTABLE.test(text)) throw new NotPlain();
  const q = text[0];
  if (q === '"') {
    if (text.length < 2 || !text.endsWith('"') || /["\\]/.test(text.slice(1, -1))) throw new NotPlain();
    return text.slice(1, -1);
  }
  if (q === "'") {
    const body = text.slice(1, -1);
    if (text.length < 2 || !text.endsWith("'") || /'/.test(body.replaceAll("''", ''))) throw new NotPlain();
    return body.replaceAll("''", "'");
  }
  if (INDICATOR.test(text) || text.endsWith(' ') || text.endsWith(':') || text.includes(': ') || text.includes(' #'))
    throw new NotPlain();
  if (NUMBER.test(text)) throw new NotPlain();
  if (BOOLEAN.test(text)) return text[0] === 't' || text[0] === 'T';
  if (NULL.test(text)) return null;
  return text;
}
