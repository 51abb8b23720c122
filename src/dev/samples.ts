/**
 * Samples that are one object on the server: files of config/samples whose objects share group,
 * kind, namespace and name (a kind's v1 and v2 samples are both `<kind>-sample` as scaffolded).
 * Applied in turn, the last one replaces the other; `tsop dev` says so in one line per clash
 * instead of letting it happen silently. Which files count: those config/samples/kustomization.yaml
 * lists, or every YAML file when there is none (what `kubectl apply` takes in each case).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';

export interface SampleObject {
  /** Project-relative path of the file. */
  file: string;
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

/** The objects the samples folder applies, file by file; a file that does not parse is left to kubectl to report. */
export function sampleObjects(root: string, dir: string): SampleObject[] {
  const out: SampleObject[] = [];
  for (const path of sampleFiles(dir)) {
    let docs: unknown[];
    try {
      docs = parseAllDocuments(readFileSync(path, 'utf8')).map((d) => d.toJS() as unknown);
    } catch {
      continue;
    }
    for (const doc of docs) {
      if (doc === null || typeof doc !== 'object') continue;
      const o = doc as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
      if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || typeof o.metadata?.name !== 'string')
        continue;
      const namespace = typeof o.metadata.namespace === 'string' ? o.metadata.namespace : '';
      out.push({
        file: relative(root, path),
        apiVersion: o.apiVersion,
        kind: o.kind,
        namespace,
        name: o.metadata.name,
      });
    }
  }
  return out;
}

function sampleFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const kustomization = join(dir, 'kustomization.yaml');
  if (existsSync(kustomization)) {
    try {
      const k = parseAllDocuments(readFileSync(kustomization, 'utf8'))[0]?.toJS() as { resources?: unknown } | null;
      const listed = Array.isArray(k?.resources) ? k.resources.filter((r): r is string => typeof r === 'string') : [];
      return listed.map((r) => join(dir, r)).filter((p) => /\.ya?ml$/.test(p) && existsSync(p));
    } catch {
      return [];
    }
  }
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

/** One line per object that two or more sample files write, naming the files and what to change. */
export function sameObjectSamples(objects: readonly SampleObject[]): string[] {
  const byObject = new Map<string, SampleObject[]>();
  for (const o of objects) {
    const group = o.apiVersion.includes('/') ? o.apiVersion.slice(0, o.apiVersion.indexOf('/')) : '';
    const key = [group, o.kind, o.namespace, o.name].join('\0');
    byObject.set(key, [...(byObject.get(key) ?? []), o]);
  }
  const lines: string[] = [];
  for (const same of byObject.values()) {
    if (same.length < 2) continue;
    const first = same[0]!;
    const where = first.namespace ? `${first.namespace}/${first.name}` : first.name;
    const files = same.map((o) => `${o.file} (${o.apiVersion})`).join(', ');
    lines.push(
      `samples ${files} are one object, ${first.kind} ${where}: the last applied replaces the others; give them different metadata.name to keep each`,
    );
  }
  return lines;
}
