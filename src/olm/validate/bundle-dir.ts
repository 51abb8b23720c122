/**
 * A bundle directory read as operator-sdk reads it for validation: metadata/annotations.yaml (the
 * directory it names for manifests), every object in the manifests folder, the one CSV, the CRDs,
 * and the size checks' figures (bytes, and bytes gzipped then base64-encoded, file by file).
 * Problems of the layout itself become findings; a folder with no bundle at all is a UserError.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { UserError } from '../../errors.js';
import type { Csv } from '../csv.js';
import { csvVersionMessage, csvVersionProblem } from '../csv-version.js';
import { isObj, obj, str, type Obj } from '../objects.js';
import { parseDocuments } from '../../yaml/documents-reader.js';

export interface LoadedBundle {
  /** The CSV's name (operator-framework/api names a bundle after it). */
  name: string;
  csv?: Csv;
  objects: Obj[];
  crds: Obj[];
  annotations: Record<string, string>;
  /** From annotations.yaml as the loader of operator-sdk's validation sees them (see `channels`). */
  channels: string[];
  defaultChannel: string;
  size: number;
  compressedSize: number;
  /** Layout problems: missing folders, annotations, unreadable files. */
  formatErrors: string[];
  mediaType: string;
  /** The folder as the user named it, relative to the working directory. */
  shownDir: string;
}

const MEDIATYPE = 'operators.operatorframework.io.bundle.mediatype.v1';
const MANIFESTS = 'operators.operatorframework.io.bundle.manifests.v1';

export function loadBundleDir(dir: string): LoadedBundle {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    throw new UserError(
      `bundle validate: ${dir} is not a readable directory; pass the bundle folder (e.g. ./bundle) written by 'tsop generate bundle'`,
    );
  }
  const isDir = (p: string): boolean => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  if (!entries.includes('metadata') || !isDir(join(dir, 'metadata'))) {
    throw new UserError(
      `bundle validate: ${dir} has no metadata/ folder with annotations.yaml, so it is not a bundle; run 'tsop generate bundle' to make one`,
    );
  }
  const formatErrors: string[] = [];
  if (!entries.includes('manifests') || !isDir(join(dir, 'manifests')))
    formatErrors.push('Unable to locate manifests directory');
  const annotations = readAnnotations(join(dir, 'metadata'));
  const manifestsDir = join(dir, (annotations?.[MANIFESTS] ?? 'manifests/').replace(/\/$/, ''));
  const files = isDir(manifestsDir) ? readdirSync(manifestsDir).sort() : [];
  if (isDir(manifestsDir) && files.length === 0)
    throw new UserError(
      `bundle validate: ${manifestsDir} has no files; run 'tsop generate bundle' to write the bundle's manifests`,
    );
  const objects: Obj[] = [];
  const fileOf = new Map<Obj, string>();
  let size = 0;
  let compressedSize = 0;
  for (const name of files) {
    const path = join(manifestsDir, name);
    if (isDir(path) || name.startsWith('.')) continue;
    const data = readFileSync(path);
    size += data.length;
    compressedSize += Buffer.from(gzipSync(data)).toString('base64').length;
    const docs = parseDocuments(data.toString('utf8'), path);
    if (docs[0]) {
      objects.push(docs[0]);
      fileOf.set(docs[0], name);
    }
  }
  const csvs = objects.filter((o) => o['kind'] === 'ClusterServiceVersion');
  if (csvs.length === 0)
    throw new UserError(
      `bundle validate: unable to find a csv in bundle directory ${manifestsDir}; the bundle needs its ClusterServiceVersion there`,
    );
  if (csvs.length > 1)
    throw new UserError(
      `bundle validate: invalid bundle: contains multiple CSVs (${manifestsDir}); keep one ClusterServiceVersion per bundle`,
    );
  const csv = csvs[0] as Csv;
  // operator-framework/api decodes the CSV before any check runs: a version it cannot read stops it.
  const versionProblem = isObj(csv.spec) ? csvVersionProblem(csv.spec['version']) : undefined;
  if (versionProblem !== undefined)
    throw new UserError(
      csvVersionMessage(
        `bundle validate: unable to parse CSV ${join(manifestsDir, fileOf.get(csv)!)}`,
        csv.spec['version'],
        versionProblem,
      ),
    );
  if (!isObj(csv.metadata)) csv.metadata = { name: '' };
  if (!isObj(csv.spec)) csv.spec = {};
  if (annotations === undefined) formatErrors.push('Could not find annotations file');
  else formatErrors.push(...annotationProblems(annotations, files.length > 0 ? 'registry+v1' : ''));
  return {
    name: str(obj(csv['metadata'])['name']),
    csv,
    objects,
    crds: objects.filter((o) => o['kind'] === 'CustomResourceDefinition'),
    annotations: annotations ?? {},
    // operator-sdk loads the bundle from the manifests folder, where no annotations file is, so
    // its validators see one empty channel and no default channel.
    channels: [''],
    defaultChannel: '',
    size,
    compressedSize,
    formatErrors,
    mediaType: 'registry+v1',
    shownDir: relative(process.cwd(), dir) || '.',
  };
}

function readAnnotations(metadataDir: string): Record<string, string> | undefined {
  for (const name of readdirSync(metadataDir).sort()) {
    let docs: Obj[];
    try {
      docs = parseDocuments(readFileSync(join(metadataDir, name), 'utf8'), join(metadataDir, name));
    } catch {
      continue;
    }
    const annotations = docs[0]?.['annotations'];
    if (isObj(annotations)) return Object.fromEntries(Object.entries(annotations).map(([k, v]) => [k, String(v)]));
  }
  return undefined;
}

/** operator-registry's check of annotations.yaml, in a stable order. */
function annotationProblems(a: Record<string, string>, mediaType: string): string[] {
  const out: string[] = [];
  const required = [
    MEDIATYPE,
    MANIFESTS,
    'operators.operatorframework.io.bundle.metadata.v1',
    'operators.operatorframework.io.bundle.package.v1',
    'operators.operatorframework.io.bundle.channels.v1',
  ];
  for (const label of required) if (!(label in a)) out.push(`Missing annotation "${label}"`);
  if ((a[MEDIATYPE] ?? '') !== mediaType)
    out.push(`Expecting annotation "${MEDIATYPE}" to have value "${mediaType}" instead of "${a[MEDIATYPE] ?? ''}"`);
  if ((a['operators.operatorframework.io.bundle.channels.v1'] ?? '') === '')
    out.push('Expecting annotation "operators.operatorframework.io.bundle.channels.v1" to have non-empty value');
  const def = 'operators.operatorframework.io.bundle.channel.default.v1';
  if (def in a && a[def] === '') out.push(`Expecting annotation "${def}" to have non-empty value`);
  return out;
}
