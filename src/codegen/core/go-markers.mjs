/**
 * Reads `+default=` / `+kubebuilder:default=` markers from Go API source (k8s.io/api, …), so the
 * converter keeps exactly the defaults controller-gen would emit. The OpenAPI document cannot
 * tell a marker default from a zero value openapi-gen added on its own.
 *
 * A line scanner, not a Go parser: Kubernetes API types are gofmt'ed structs of one field per
 * line with doc comments directly above, which is all this needs.
 */

const STRUCT_START = /^type (\w+) struct \{\s*$/;
const FIELD = /^\s+(?:(\w+)\s+)?[^`]*`[^`]*json:"([^"]*)"[^`]*`/;
const EMBED_TYPE = /^\s+\*?(?:(\w+)\.)?(\w+)\s+`/;

/** Whether a doc comment holds a default marker controller-gen applies (it skips `ref(...)`). */
export function hasDefaultMarker(commentLines) {
  return commentLines.some((line) => {
    const m = /^\s*\/\/\s*\+(?:kubebuilder:)?default=(.*)$/.exec(line);
    return m !== null && !m[1].trim().startsWith('ref(');
  });
}

/**
 * Scans Go files of one package. Returns struct name → { defaults: Set of JSON field names with a
 * default marker, embeds: names of same-package structs embedded inline }.
 */
export function scanGoStructs(fileTexts) {
  const structs = new Map();
  for (const text of fileTexts) {
    let current;
    let comments = [];
    for (const line of text.split('\n')) {
      const start = STRUCT_START.exec(line);
      if (start) {
        current = { defaults: new Set(), embeds: [] };
        structs.set(start[1], current);
        comments = [];
        continue;
      }
      if (current === undefined) continue;
      if (line === '}') {
        current = undefined;
        continue;
      }
      if (/^\s*\/\//.test(line)) {
        comments.push(line);
        continue;
      }
      const field = FIELD.exec(line);
      if (field) {
        const jsonName = field[2].split(',')[0];
        if (jsonName === '' && field[2].includes('inline')) {
          const embed = EMBED_TYPE.exec(line);
          // only same-package embeds matter here (metav1.TypeMeta has no defaults)
          if (embed && embed[1] === undefined) current.embeds.push(embed[2]);
        } else if (jsonName !== '' && jsonName !== '-' && hasDefaultMarker(comments)) {
          current.defaults.add(jsonName);
        }
      }
      comments = [];
    }
  }
  return structs;
}

/** Whether `field` of struct `name` (or of a struct it embeds inline) carries a default marker. */
export function structHasDefault(structs, name, field, seen = new Set()) {
  const s = structs.get(name);
  if (s === undefined || seen.has(name)) return false;
  seen.add(name);
  if (s.defaults.has(field)) return true;
  return s.embeds.some((e) => structHasDefault(structs, e, field, seen));
}

/**
 * The Go import path of a definition's package and its type name:
 * io.k8s.api.core.v1.Container → ['k8s.io/api/core/v1', 'Container'];
 * io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector → ['k8s.io/apimachinery/pkg/apis/meta/v1', …].
 */
export function goPackageOf(definition) {
  const parts = definition.split('.');
  const type = parts.pop();
  if (parts[0] !== 'io' || parts[1] !== 'k8s' || parts.length < 4) return undefined;
  const [, , repo, ...rest] = parts;
  return { importPath: `k8s.io/${repo}/${rest.join('/')}`, type };
}
