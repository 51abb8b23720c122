/**
 * The plain objects OLM files are read into (each document of kubectl kustomize output or of a
 * bundle, src/yaml/documents-reader.ts), and lenient accessors: a missing or mistyped field reads
 * as empty, as operator-sdk reads it.
 */
export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
