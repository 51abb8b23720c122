/**
 * YAML in and out for OLM files. Output sorts keys at every level and keeps sequences flush with
 * their key, as operator-sdk's writer (sigs.k8s.io/yaml) does, so a tsop bundle diffs cleanly
 * against an operator-sdk one. Input is kubectl kustomize output or a bundle's files: many
 * documents, each a plain object (anything else is skipped, as operator-sdk skips it).
 */
import { yamlLibrary } from '../yaml-library.js';
import { UserError } from '../errors.js';

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const key of Object.keys(value).sort()) if (value[key] !== undefined) out[key] = sortedKeys(value[key]);
  return out;
}

export function toYaml(value: unknown): string {
  return yamlLibrary().stringify(sortedKeys(value), { lineWidth: 0, indentSeq: false, aliasDuplicateObjects: false });
}

/** Every mapping document of a multi-document text; `source` names it in the error of a bad one. */
export function parseDocuments(text: string, source: string): Obj[] {
  const docs = yamlLibrary().parseAllDocuments(text);
  const out: Obj[] = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    if (doc.errors.length > 0) {
      const line = doc.errors[0]!.linePos?.[0]?.line;
      throw new UserError(
        `${source}${line ? `:${line}` : ''}: not valid YAML (${doc.errors[0]!.message.split('\n')[0]}); fix the file and run it again`,
      );
    }
    const value = doc.toJS({ maxAliasCount: -1 }) as unknown;
    if (isObj(value)) out.push(value);
  }
  return out;
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function obj(value: unknown): Obj {
  return isObj(value) ? value : {};
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** apiVersion split into group and version (`v1` is the core group). */
export function groupVersionOf(o: Obj): { group: string; version: string; kind: string } {
  const apiVersion = str(o['apiVersion']);
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion, kind: str(o['kind']) }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), kind: str(o['kind']) };
}

export function nameOf(o: Obj): string {
  return str(obj(o['metadata'])['name']);
}
