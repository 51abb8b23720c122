/**
 * Deterministic YAML for generated manifests, byte for byte what controller-gen writes for the
 * same object: controller-gen turns each object into JSON and hands it to go-yaml v2, so keys are
 * in go-yaml's order (yaml-order.ts), numbers in the form JSON then go-yaml give them (`1e-05`,
 * `1.2345675e+06`), and strings in go-yaml's styles with long ones folded at 80 columns
 * (yaml-emitter.ts). A general YAML library would be slower on a 500 KB CRD and write it otherwise.
 */
import { Emitter, isSimpleKey, scalarStyle } from './yaml-emitter.js';
import { compareKeys } from './yaml-order.js';

export { compareKeys } from './yaml-order.js';

/** One YAML document, introduced by `---` as controller-gen writes it. */
export function toYamlDocument(value: unknown): string {
  const e = new Emitter();
  node(e, value, false, false);
  // The document ends at the start of a line.
  e.indent = -1;
  e.writeIndent();
  return `---\n${e.text()}`;
}

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

/** A node in a mapping value (`inMapping`), a sequence item, or at the root; `simpleKey` for a key. */
function node(e: Emitter, v: unknown, inMapping: boolean, simpleKey: boolean): void {
  if (typeof v === 'string') return scalar(e, v, scalarStyle(v, simpleKey), simpleKey);
  if (v === null || typeof v !== 'object') return scalar(e, plainText(v), 'plain', simpleKey);
  if (Array.isArray(v)) {
    if (v.length === 0) return emptyFlow(e, '[]');
    e.increaseIndent(false, inMapping && !e.indention); // a sequence in a mapping is not indented
    for (const item of v) {
      e.writeIndent();
      e.writeIndicator('-', true, false, true);
      node(e, item, false, false);
    }
    return e.popIndent();
  }
  const entries = definedEntries(v as Record<string, unknown>);
  if (entries.length === 0) return emptyFlow(e, '{}');
  e.increaseIndent(false, false);
  for (const [key, value] of entries) {
    e.writeIndent();
    if (isSimpleKey(key)) {
      node(e, key, true, true);
      e.writeIndicator(':', false, false, false);
    } else {
      e.writeIndicator('?', true, false, true);
      node(e, key, true, false);
      e.writeIndent();
      e.writeIndicator(':', true, false, true);
    }
    node(e, value, true, false);
  }
  e.popIndent();
}

function scalar(e: Emitter, text: string, style: ReturnType<typeof scalarStyle>, simpleKey: boolean): void {
  e.increaseIndent(true, false);
  e.writeScalar(text, style, !simpleKey);
  e.popIndent();
}

function emptyFlow(e: Emitter, brackets: '[]' | '{}'): void {
  e.writeIndicator(brackets[0] as string, true, true, false);
  e.writeIndicator(brackets[1] as string, false, false, false);
}

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
