/**
 * Reads from Go API source (k8s.io/api, k8s.io/apimachinery) what controller-gen sees but the
 * OpenAPI document lost:
 *   - `+kubebuilder:validation:` markers (metav1.Condition's bounds, patterns and enum);
 *   - `+default=` / `+kubebuilder:default=` markers (openapi-gen also writes zero values as
 *     defaults, and the document cannot tell the two apart);
 *   - doc comments with their line breaks (openapi-gen joins lines; controller-gen keeps them);
 *   - `+structType=atomic` on structs embedded inline, which controller-gen carries over to the
 *     embedding struct.
 *
 * A line scanner, not a Go parser: Kubernetes API types are gofmt'ed structs of one field per
 * line with doc comments directly above, which is all this needs.
 */

const STRUCT_START = /^type (\w+) struct \{\s*$/;
const FIELD = /^\s+(?:(\w+)\s+)?[^`]*`[^`]*json:"([^"]*)"[^`]*`/;
const EMBED_TYPE = /^\s+\*?(?:(\w+)\.)?(\w+)\s+`/;
const COMMENT = /^\s*\/\//;

/** controller-gen's marker test: a line comment whose text starts with `+`. */
const isMarker = (line) => /^\s*\/\/\s*\+/.test(line);

/** `+kubebuilder:validation:<Name>` markers and the schema keyword each sets. */
const VALIDATION_MARKERS = {
  MaxLength: 'maxLength',
  MinLength: 'minLength',
  Maximum: 'maximum',
  Minimum: 'minimum',
  ExclusiveMaximum: 'exclusiveMaximum',
  ExclusiveMinimum: 'exclusiveMinimum',
  MultipleOf: 'multipleOf',
  MaxItems: 'maxItems',
  MinItems: 'minItems',
  MaxProperties: 'maxProperties',
  MinProperties: 'minProperties',
  Pattern: 'pattern',
  Enum: 'enum',
  Format: 'format',
};

/** Parses one marker value: `backquoted` or "quoted" strings, numbers, booleans, else the text. */
function markerValue(raw) {
  const t = raw.trim();
  if (t.length >= 2 && ((t[0] === '`' && t.endsWith('`')) || (t[0] === '"' && t.endsWith('"')))) return t.slice(1, -1);
  if (t === 'true' || t === 'false') return t === 'true';
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  return t;
}

/**
 * The schema keywords set by a field's kubebuilder validation markers (metav1.Condition has
 * them; openapi-gen ignores them, controller-gen applies them).
 */
export function validationMarkers(commentLines) {
  const out = {};
  for (const line of commentLines) {
    const m = /^\s*\/\/\s*\+kubebuilder:validation:(\w+)=(.*)$/.exec(line);
    const keyword = m && VALIDATION_MARKERS[m[1]];
    if (!keyword) continue;
    out[keyword] = keyword === 'enum' ? m[2].split(';').map(markerValue) : markerValue(m[2]);
  }
  return out;
}

/** Whether a doc comment holds a default marker controller-gen applies (it skips `ref(...)`). */
export function hasDefaultMarker(commentLines) {
  return commentLines.some((line) => {
    const m = /^\s*\/\/\s*\+(?:kubebuilder:)?default=(.*)$/.exec(line);
    return m !== null && !m[1].trim().startsWith('ref(');
  });
}

/**
 * The description controller-gen derives from a doc comment: marker lines dropped, comment
 * markers and one leading space removed, outer blank lines trimmed and inner runs of blank lines
 * folded to one, then (outside code fences) `TODO` lines dropped and everything from a `---`
 * line on cut; lines joined with '\n'.
 */
export function docText(commentLines) {
  const text = [];
  for (const line of commentLines) {
    if (isMarker(line)) continue;
    const body = line.replace(/^\s*\/\//, '');
    if (/^(go:|line |extern |export )/.test(body)) continue; // compiler directives
    text.push((body.startsWith(' ') ? body.slice(1) : body).trimEnd());
  }
  while (text.length > 0 && text[0] === '') text.shift();
  while (text.length > 0 && text[text.length - 1] === '') text.pop();
  const out = [];
  let fenced = false;
  for (const line of text) {
    if (line === '' && out[out.length - 1] === '') continue;
    if (line.startsWith('```') || line.startsWith('~~~')) fenced = !fenced;
    if (!fenced && line.startsWith('TODO')) continue;
    if (!fenced && line.startsWith('---')) break;
    out.push(line);
  }
  return out.join('\n');
}

const IMPORT = /^\s*(?:import\s+)?(?:(\w+)\s+)?"([^"]+)"\s*$/;
const NAMED_TYPE = /^type (\w+) (?!struct\b)(\S.*)$/;

/** The element type's name of `[]T`, `[]*T` or `map[K]T` (T possibly qualified), if named. */
function elementTypeOf(goType) {
  const m = /^(?:\[\]|map\[[^\]]+\])\*?((?:\w+\.)?\w+)$/.exec(goType);
  return m ? m[1] : undefined;
}

/**
 * Scans Go files of one package. Returns type name → {
 *   doc: the type's description, struct: whether it is a struct,
 *   atomic: `+structType=atomic` on the type,
 *   fields: JSON name → { doc, hasDefault, element: named element type of a slice or map,
 *     validations: schema keywords from kubebuilder validation markers },
 *   embeds: structs embedded inline, as { importPath (undefined: this package), type } }.
 */
export function scanGoStructs(fileTexts) {
  const types = new Map();
  for (const text of fileTexts) {
    const imports = new Map(); // alias → import path
    let current;
    let inImports = false;
    let comments = [];
    for (const line of text.split('\n')) {
      if (COMMENT.test(line)) {
        comments.push(line);
        continue;
      }
      if (current === undefined && (line === 'import (' || line.startsWith('import "') || /^import \w+ "/.test(line))) {
        inImports = line === 'import (';
        if (!inImports) addImport(imports, line);
      } else if (inImports) {
        if (line === ')') inImports = false;
        else addImport(imports, line);
      } else if (current === undefined && STRUCT_START.test(line)) {
        const name = STRUCT_START.exec(line)[1];
        const atomic = comments.some((c) => /^\s*\/\/\s*\+structType=atomic\s*$/.test(c));
        current = { doc: docText(comments), struct: true, atomic, fields: new Map(), embeds: [] };
        types.set(name, current);
      } else if (current === undefined && NAMED_TYPE.test(line)) {
        const name = NAMED_TYPE.exec(line)[1];
        types.set(name, { doc: docText(comments), struct: false, atomic: false, fields: new Map(), embeds: [] });
      } else if (current !== undefined && line === '}') {
        current = undefined;
      } else if (current !== undefined) {
        const field = FIELD.exec(line);
        const jsonName = field ? field[2].split(',')[0] : undefined;
        if (field && jsonName === '' && field[2].includes('inline')) {
          const embed = EMBED_TYPE.exec(line);
          if (embed) current.embeds.push({ importPath: embed[1] && imports.get(embed[1]), type: embed[2] });
        } else if (jsonName && jsonName !== '-') {
          const goType = /^\s+\w+\s+(\S+)/.exec(line)?.[1] ?? '';
          current.fields.set(jsonName, {
            doc: docText(comments),
            hasDefault: hasDefaultMarker(comments),
            element: elementTypeOf(goType),
            validations: validationMarkers(comments),
          });
        }
      }
      comments = [];
    }
  }
  return types;
}

function addImport(imports, line) {
  const m = IMPORT.exec(line.replace(/^import\s+/, ''));
  if (m) imports.set(m[1] ?? m[2].split('/').pop(), m[2]);
}

/**
 * The field `field` of struct `name`, looking through structs it embeds inline; `load(importPath)`
 * gives another package's types (for metav1.TypeMeta and the like).
 */
export function findField(types, name, field, load = () => undefined, seen = new Set()) {
  const s = types.get(name);
  if (s === undefined || seen.has(s)) return undefined;
  seen.add(s);
  const own = s.fields.get(field);
  if (own !== undefined) return own;
  for (const e of s.embeds) {
    const where = e.importPath === undefined ? types : load(e.importPath);
    const found = where && findField(where, e.type, field, load, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Whether `field` of struct `name` (or of a struct it embeds inline) carries a default marker. */
export function structHasDefault(types, name, field, load) {
  return findField(types, name, field, load)?.hasDefault === true;
}

/** Whether a struct embeds, directly or further down, a same-package struct marked atomic. */
export function embedsAtomic(types, name, seen = new Set()) {
  const s = types.get(name);
  if (s === undefined || seen.has(name)) return false;
  seen.add(name);
  return s.embeds.some(
    (e) => e.importPath === undefined && (types.get(e.type)?.atomic === true || embedsAtomic(types, e.type, seen)),
  );
}

/**
 * The doc of a field's element type when it is a named non-struct type of the same package
 * (`[]Capability`, `map[ResourceName]ClaimResourceStatus`): controller-gen puts it on the items.
 */
export function elementDoc(types, name, field, load) {
  const element = findField(types, name, field, load)?.element;
  if (element === undefined || element.includes('.')) return undefined;
  const t = types.get(element);
  return t !== undefined && !t.struct && t.doc !== '' ? t.doc : undefined;
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
