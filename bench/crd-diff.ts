/**
 * Compares the CRDs two generators wrote for the same API (tsop's and controller-gen's) and lists
 * every difference that changes what the API server accepts: properties, types, formats, bounds,
 * patterns, enums, defaults, required lists, list and map semantics, CEL rules, nullable,
 * preserve-unknown-fields, plus names, scope, subresources and printer columns. Descriptions are
 * counted apart (Go doc comments and JSDoc are written differently by nature).
 *
 *   node --import ./runtime/testing/register.mjs bench/crd-diff.ts <crd-dir-a> <crd-dir-b>
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export interface CrdDiff {
  /** Differences that matter to validation, one line each: file, path, what differs. */
  differences: string[];
  /** Fields whose description text differs (not a semantic difference). */
  descriptionDiffs: number;
  files: number;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const isObj = (v: Json | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: Json | undefined): string => (v === undefined ? '(absent)' : JSON.stringify(v));

// Order carries no meaning in these lists.
const SETS = new Set(['required', 'enum', 'x-kubernetes-list-map-keys']);

function compareSchema(a: Json | undefined, b: Json | undefined, path: string, out: CrdDiff, file: string): void {
  if (!isObj(a) || !isObj(b)) {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.differences.push(`${file} ${path}: ${show(a)} vs ${show(b)}`);
    return;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of [...keys].sort()) {
    const x = a[key];
    const y = b[key];
    if (key === 'description') {
      if (x !== y) out.descriptionDiffs++;
      continue;
    }
    if (key === 'properties' && isObj(x) && isObj(y)) {
      for (const p of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) {
        if (!(p in x)) out.differences.push(`${file} ${path}.${p}: only in the second`);
        else if (!(p in y)) out.differences.push(`${file} ${path}.${p}: only in the first`);
        else compareSchema(x[p], y[p], `${path}.${p}`, out, file);
      }
      continue;
    }
    if (SETS.has(key) && Array.isArray(x) && Array.isArray(y)) {
      const sx = [...x].map(String).sort().join(',');
      const sy = [...y].map(String).sort().join(',');
      if (sx !== sy) out.differences.push(`${file} ${path} ${key}: [${sx}] vs [${sy}]`);
      continue;
    }
    if (key === 'items' || key === 'additionalProperties') {
      compareSchema(x, y, `${path}${key === 'items' ? '[]' : '{}'}`, out, file);
      continue;
    }
    if (key === 'allOf' || key === 'anyOf' || key === 'oneOf' || key === 'x-kubernetes-validations') {
      if (JSON.stringify(x) !== JSON.stringify(y))
        out.differences.push(`${file} ${path} ${key}: ${show(x)} vs ${show(y)}`);
      continue;
    }
    if (isObj(x) && isObj(y)) compareSchema(x, y, `${path}/${key}`, out, file);
    else if (JSON.stringify(x) !== JSON.stringify(y))
      out.differences.push(`${file} ${path} ${key}: ${show(x)} vs ${show(y)}`);
  }
}

function compareCrd(a: Obj, b: Obj, file: string, out: CrdDiff): void {
  const specA = isObj(a['spec']) ? a['spec'] : {};
  const specB = isObj(b['spec']) ? b['spec'] : {};
  for (const key of ['group', 'names', 'scope']) {
    if (JSON.stringify(specA[key]) !== JSON.stringify(specB[key]))
      out.differences.push(`${file} spec.${key}: ${show(specA[key])} vs ${show(specB[key])}`);
  }
  const versions = (s: Obj) => (Array.isArray(s['versions']) ? s['versions'].filter(isObj) : []);
  const vb = new Map(versions(specB).map((v) => [String(v['name']), v]));
  for (const va of versions(specA)) {
    const name = String(va['name']);
    const other = vb.get(name);
    if (!other) {
      out.differences.push(`${file} version ${name}: only in the first`);
      continue;
    }
    vb.delete(name);
    for (const key of ['served', 'storage', 'subresources', 'additionalPrinterColumns']) {
      if (JSON.stringify(va[key]) !== JSON.stringify(other[key]))
        out.differences.push(`${file} ${name} ${key}: ${show(va[key])} vs ${show(other[key])}`);
    }
    const schema = (v: Obj) => (isObj(v['schema']) ? v['schema']['openAPIV3Schema'] : undefined);
    compareSchema(schema(va), schema(other), name, out, file);
  }
  for (const name of vb.keys()) out.differences.push(`${file} version ${name}: only in the second`);
}

/** Compares every CRD file of two directories, matched by file name. */
export function diffCrdDirs(dirA: string, dirB: string): CrdDiff {
  const out: CrdDiff = { differences: [], descriptionDiffs: 0, files: 0 };
  const list = (d: string) => new Set(readdirSync(d).filter((f) => f.endsWith('.yaml')));
  const fa = list(dirA);
  const fb = list(dirB);
  for (const f of [...new Set([...fa, ...fb])].sort()) {
    if (!fa.has(f) || !fb.has(f)) {
      out.differences.push(`${f}: only in ${fa.has(f) ? 'the first' : 'the second'}`);
      continue;
    }
    out.files++;
    const read = (d: string) => parse(readFileSync(join(d, f), 'utf8')) as Obj;
    compareCrd(read(dirA), read(dirB), f, out);
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [a, b] = process.argv.slice(2);
  if (!a || !b) throw new Error('usage: crd-diff.ts <crd-dir-a> <crd-dir-b>');
  const d = diffCrdDirs(a, b);
  for (const line of d.differences) console.log(line);
  console.log(
    `${d.files} CRDs compared: ${d.differences.length} differences, ${d.descriptionDiffs} descriptions worded differently`,
  );
  process.exitCode = d.differences.length ? 1 : 0;
}
