/**
 * Structural-schema checks, with the API server's rules, run before anything is written so a CRD
 * the server would refuse is reported at its source instead of at `kubectl apply`:
 *
 * - every node has a type (except int-or-string and preserve-unknown-fields nodes); the root is
 *   an object; arrays have items; `properties` and `additionalProperties` are exclusive;
 * - no `$ref`-era keywords and no `uniqueItems: true`;
 * - inside allOf/anyOf/oneOf/not: no type, default, description, title, nullable,
 *   additionalProperties or x-kubernetes-* (the int-or-string anyOf pair is the exception);
 * - no defaults under apiVersion, kind or metadata; defaults validate against their node;
 * - list-map keys: listType 'map' has keys, each a scalar, required-or-defaulted item property;
 *   keys only with listType 'map'; listType 'set' only on scalar items;
 * - CEL rules using `oldSelf` only where the node is correlatable (no list parents other than
 *   listType 'map').
 */
import type { JSONSchemaProps } from '../codegen/jsonschema.js';
import { validateValue } from '../codegen/values.js';

export interface StructuralIssue {
  /** JSON path of the node, e.g. `.spec.containers[*].name`; '' for the root. */
  path: string;
  message: string;
}

const FORBIDDEN = ['$ref', 'definitions', 'dependencies', 'patternProperties', 'additionalItems', 'id', '$schema'];
const NOT_IN_JUNCTORS = ['type', 'default', 'description', 'title', 'nullable', 'additionalProperties'] as const;

/** `uniqueItems`: written on purpose (controller-gen compatibility), so warned about elsewhere rather than refused here. */
export function checkStructural(root: JSONSchemaProps, options: { uniqueItems?: boolean } = {}): StructuralIssue[] {
  const issues: StructuralIssue[] = [];
  if (root.type !== 'object') issues.push({ path: '', message: 'the root schema must be type object' });
  walk(root, '', true, false, issues);
  return options.uniqueItems ? issues.filter((i) => i.message !== UNIQUE_ITEMS) : issues;
}

const UNIQUE_ITEMS = "uniqueItems is forbidden by the API server; use @ListType('set')";

/** Keys the rarer rules look at; a node with none of them (most are) is checked for its type only. */
const RARE_KEYS = new Set<string>([
  ...FORBIDDEN,
  'x-kubernetes-int-or-string',
  'uniqueItems',
  'default',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-validations',
]);

// walk visits every node of every CRD (thousands under a pod template): one pass over a node's
// keys tells whether any rarer rule applies, and each check reads only what it needs. Issues come
// out in the same order for every node: forbidden keys, type, uniqueItems, items, properties,
// defaults, junctors, list types, CEL rules.
function walk(
  s: JSONSchemaProps,
  path: string,
  correlatable: boolean,
  underMeta: boolean,
  issues: StructuralIssue[],
): void {
  const at = (message: string): void => void issues.push({ path, message });
  const raw = s as Record<string, unknown>;
  let rare = false;
  for (const k in raw) {
    if (RARE_KEYS.has(k)) {
      rare = true;
      break;
    }
  }
  if (rare)
    for (const k of FORBIDDEN)
      if (k in raw) at(`'${k}' is not allowed in a structural schema; inline the schema instead`);
  const intOrString = rare && s['x-kubernetes-int-or-string'] === true;
  if (s.type === undefined && !intOrString && s['x-kubernetes-preserve-unknown-fields'] !== true) {
    at(
      'the node has no type; structural schemas need one (add @Type(...), or @PreserveUnknownFields() for free-form data)',
    );
  }
  if (rare && s.uniqueItems === true) at(UNIQUE_ITEMS);
  if (s.type === 'array' && !s.items) at('an array needs an items schema');
  if (s.properties && s.additionalProperties !== undefined && s.additionalProperties !== false) {
    at('properties and additionalProperties are mutually exclusive; use either fields or Record<string, T>');
  }
  if (rare) checkRare(s, path, correlatable, underMeta, intOrString, issues, at);
  const properties = s.properties;
  if (properties !== undefined) {
    for (const name of Object.keys(properties)) {
      const meta = path === '' && (name === 'apiVersion' || name === 'kind' || name === 'metadata');
      walk(properties[name] as JSONSchemaProps, `${path}.${name}`, correlatable, underMeta || meta, issues);
    }
  }
  if (typeof s.additionalProperties === 'object')
    walk(s.additionalProperties, `${path}[*]`, correlatable, underMeta, issues);
  if (s.items) walk(s.items, `${path}[*]`, correlatable && s['x-kubernetes-list-type'] === 'map', underMeta, issues);
}

/** The rules for defaults, junctors, list types and CEL rules, in that order. */
function checkRare(
  s: JSONSchemaProps,
  path: string,
  correlatable: boolean,
  underMeta: boolean,
  intOrString: boolean,
  issues: StructuralIssue[],
  at: (message: string) => void,
): void {
  if (s.default !== undefined) {
    if (underMeta) at('defaults are not allowed under apiVersion, kind or metadata');
    for (const e of validateValue(s.default, s))
      at(`the default ${JSON.stringify(s.default)} is invalid (${e}); change @Default or the field's validations`);
  }
  if (s.allOf !== undefined || s.anyOf !== undefined || s.oneOf !== undefined || s.not !== undefined)
    checkJunctors(s, path, issues, intOrString);
  if (s['x-kubernetes-list-type'] !== undefined || s['x-kubernetes-list-map-keys'] !== undefined) checkLists(s, at);
  for (const v of s['x-kubernetes-validations'] ?? []) {
    if (/\boldSelf\b/.test(v.rule) && !correlatable) {
      at(
        `CEL rule '${v.rule}' uses oldSelf, which is only allowed where the node can be matched to ` +
          `its old value (no list parents other than listType 'map'); use @ListType('map') with ` +
          `@ListMapKey on the enclosing list, or drop oldSelf`,
      );
    }
    if (v.message?.includes('\n')) at(`CEL rule '${v.rule}': the message must be one line`);
  }
}

function checkLists(s: JSONSchemaProps, at: (m: string) => void): void {
  const listType = s['x-kubernetes-list-type'];
  const keys = s['x-kubernetes-list-map-keys'];
  if (listType !== undefined && s.type !== 'array')
    at(`x-kubernetes-list-type only applies to arrays; remove @ListType`);
  if (keys && listType !== 'map') at("@ListMapKey needs @ListType('map') on the same field");
  if (listType === 'set' && (s.items?.type === 'object' || s.items?.type === 'array'))
    at("listType 'set' needs scalar items; use @ListType('map') with @ListMapKey for objects");
  if (listType === 'map') {
    if (!keys || keys.length === 0) at("listType 'map' needs at least one key; add @ListMapKey('name')");
    if (s.items?.type !== 'object') at("listType 'map' needs object items");
    for (const key of keys ?? []) {
      const p = s.items?.properties?.[key];
      if (!p) at(`list-map key '${key}' is not a property of the items`);
      else if (p.type === undefined || p.type === 'object' || p.type === 'array')
        at(`list-map key '${key}' must be a scalar property`);
      else if (!s.items?.required?.includes(key) && p.default === undefined)
        at(`list-map key '${key}' must be required or defaulted; remove '?' or add @Default`);
    }
  }
}

function checkJunctors(s: JSONSchemaProps, path: string, issues: StructuralIssue[], intOrString: boolean): void {
  const groups: Array<[string, JSONSchemaProps[]]> = [
    ['allOf', s.allOf ?? []],
    ['anyOf', s.anyOf ?? []],
    ['oneOf', s.oneOf ?? []],
    ['not', s.not ? [s.not] : []],
  ];
  for (const [name, list] of groups) {
    const isIntOrStringPair =
      intOrString && name === 'anyOf' && list.length === 2 && list[0]?.type === 'integer' && list[1]?.type === 'string';
    list.forEach((sub, i) => {
      const where = `${path} ${name}[${i}]`;
      for (const k of NOT_IN_JUNCTORS) {
        if (k === 'type' && isIntOrStringPair) continue;
        if (sub[k] !== undefined)
          issues.push({ path, message: `${where}: '${k}' is not allowed inside ${name}; move it to the node itself` });
      }
      for (const k of Object.keys(sub)) {
        if (k.startsWith('x-kubernetes-'))
          issues.push({ path, message: `${where}: '${k}' is not allowed inside ${name}` });
      }
    });
  }
}

/**
 * Not a server rule but a classic surprise: defaults inside an optional object apply only when
 * the object itself is present. Reports such objects (below spec/status) that have no default of
 * their own, so the author can add `@Default({})`. `declared` limits it to the author's own
 * fields (embedded core types have many such objects, by design).
 */
export function nestedDefaultWarnings(
  root: JSONSchemaProps,
  declared: (path: string) => boolean = () => true,
): StructuralIssue[] {
  const out: StructuralIssue[] = [];
  const visit = (s: JSONSchemaProps, path: string, depth: number): void => {
    const properties = s.properties;
    if (properties !== undefined) {
      for (const name of Object.keys(properties)) {
        const p = properties[name] as JSONSchemaProps;
        const here = `${path}.${name}`;
        // cheapest tests first: most nodes have no properties of their own, or a default
        if (
          depth >= 1 &&
          p.default === undefined &&
          p.properties !== undefined &&
          !s.required?.includes(name) &&
          declared(here)
        ) {
          const defaulted: string[] = [];
          for (const [k, c] of Object.entries(p.properties))
            if (c.default !== undefined && declared(`${here}.${k}`)) defaulted.push(k);
          if (defaulted.length > 0) {
            out.push({
              path: here,
              message: `the defaults of ${defaulted.join(', ')} apply only when ${here} is present; add @Default({}) to '${name}' to apply them always, or @DefaultsWhenPresent() if that is intended`,
            });
          }
        }
        visit(p, here, depth + 1);
      }
    }
    if (s.items) visit(s.items, `${path}[*]`, depth + 1);
  };
  visit(root, '', 0);
  return out;
}
