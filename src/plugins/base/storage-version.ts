/**
 * A second version of a kind makes its CRD multi-version, and a CRD stores exactly one version.
 * When `create api` adds a version to a kind none of whose versions is marked, the version made
 * first gets `@StorageVersion()` — what kubebuilder users add by hand as
 * `+kubebuilder:storageversion` — so `tsop manifests` goes on working. The edit goes through
 * scaffold/source-edit.ts; a file without the kind's `@Resource` class or the markers import is
 * left as it is, and `tsop manifests` then says which versions need the marker.
 */
import { SourceEditor } from '../../scaffold/source-edit.js';

const MARKER = 'StorageVersion';

/** Whether a types file already marks some class as the storage version. */
export const hasStorageVersion = (text: string): boolean =>
  new SourceEditor('types.ts', text).decorators(MARKER).length > 0;

/**
 * `text` with `@StorageVersion()` above the `@Resource(...)` of class `kind` and the name added
 * to the markers import; undefined when either place cannot be found.
 */
export function markStorageVersion(text: string, kind: string): string | undefined {
  const source = new SourceEditor('types.ts', text);
  const cls = source.classNamed(kind);
  const resource = cls && source.decoratorsOf(cls, 'Resource')[0];
  const markers = source.namedImport((module) => module.endsWith('/markers/index.js'));
  if (!resource || !markers) return undefined;
  source.add(source.lineAboveEdit(resource, `@${MARKER}()`), ...source.addNamedImportEdits(markers, MARKER));
  return source.result();
}
