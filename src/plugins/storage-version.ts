/**
 * A second version of a kind makes its CRD multi-version, and a CRD stores exactly one version.
 * When `create api` adds a version to a kind none of whose versions is marked, the version made
 * first gets `@StorageVersion()` — what kubebuilder users add by hand as
 * `+kubebuilder:storageversion` — so `tsop manifests` goes on working. These are text edits on the
 * scaffolded form of the types file; a file that no longer has that form is left as it is, and
 * `tsop manifests` then says which versions need the marker.
 */

const MARKER = 'StorageVersion';

/** Whether a types file already marks some class as the storage version. */
export const hasStorageVersion = (text: string): boolean => /@StorageVersion\(/.test(text);

/**
 * `text` with `@StorageVersion()` above the `@Resource(...)` of `[export] class <name>` and the
 * name added to the markers import; undefined when either place cannot be found.
 */
export function markStorageVersion(text: string, kind: string): string | undefined {
  const classAt = text.search(new RegExp(`^(?:export )?class ${kind}(?=[\\s<{])`, 'm'));
  if (classAt < 0) return undefined;
  const resourceAt = text.slice(0, classAt).search(/^[ \t]*@Resource\((?![\s\S]*^[ \t]*@Resource\()/m);
  if (resourceAt < 0) return undefined;
  const indent = /^[ \t]*/.exec(text.slice(resourceAt))?.[0] ?? '';
  const marked = `${text.slice(0, resourceAt)}${indent}@${MARKER}()\n${text.slice(resourceAt)}`;
  return withMarkerImport(marked);
}

/** Adds the name to `import { … } from '…/markers/index.js'`: a line of its own in a multi-line list, in name order. */
function withMarkerImport(text: string): string | undefined {
  const m = /^import \{([^}]*)\} from '[^']*\/markers\/index\.js';$/m.exec(text);
  if (!m || m[1] === undefined) return undefined;
  const list = m[1];
  if (new RegExp(`(^|[\\s,])${MARKER}\\s*(,|$)`).test(list.trim())) return text;
  let updated: string;
  if (list.includes('\n')) {
    const lines = list.split('\n');
    const name = (line: string): string => line.trim().replace(/,$/, '');
    const at = lines.findIndex((l) => name(l) !== '' && (name(l).startsWith('type ') || name(l) > MARKER));
    const indent = /^[ \t]*/.exec(lines.find((l) => name(l) !== '') ?? '  ')?.[0] ?? '  ';
    lines.splice(at < 0 ? lines.length - 1 : at, 0, `${indent}${MARKER},`);
    updated = lines.join('\n');
  } else {
    updated = list.replace(/\s*$/, (space) => `, ${MARKER}${space}`).replace(/,\s*,/, ',');
  }
  const start = m.index + 'import {'.length;
  return text.slice(0, start) + updated + text.slice(start + list.length);
}
