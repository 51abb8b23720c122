/**
 * RBAC rules (from `@Rbac` on controllers) → config/rbac/role.yaml, merged and ordered exactly as
 * controller-gen's rbac generator does, so the file is stable and reads like a Go project's:
 *
 *   1. explode every rule into one rule per resource;
 *   2. merge rules equal in groups, resource, resourceNames and URLs (union of verbs);
 *   3. merge resources of rules equal in everything else; then groups; then URLs;
 *   4. sort by the key groups + resources + resourceNames + URLs (each list sorted, deduplicated);
 *   5. a `*` verb stands for all verbs: the list collapses to `['*']`.
 *
 * `core` names the core group (''). One document per (namespace, role name): a ClusterRole when
 * there is no namespace, else a Role; ordered by namespace, then name.
 */
// The yaml library is loaded only for a role holding a string outside the plain forms (~10 ms to load).
import { yamlLibrary } from '../yaml/library.js';
import { UserError, UserErrors } from '../errors.js';
import type { RbacRule } from '../codegen/marker-outputs.js';

export type { RbacRule };

/** A rule as the API stores it (rbac.authorization.k8s.io/v1 PolicyRule); empty lists omitted. */
export interface PolicyRule {
  apiGroups?: string[];
  nonResourceURLs?: string[];
  resourceNames?: string[];
  resources?: string[];
  verbs: string[];
}

const DEFAULT_ROLE_NAME = 'manager-role';

/** A rule the API server would refuse. */
export class RbacRuleError extends UserError {
  override readonly name = 'RbacRuleError';
}

/** Working form: every list deduplicated and sorted. */
interface Normal {
  groups: string[];
  resources: string[];
  resourceNames: string[];
  urls: string[];
  verbs: string[];
}

const uniqSorted = (xs: readonly string[]): string[] => [...new Set(xs)].sort(byCodeUnit);
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function normal(r: Partial<Normal>): Normal {
  return {
    groups: uniqSorted(r.groups ?? []),
    resources: uniqSorted(r.resources ?? []),
    resourceNames: uniqSorted(r.resourceNames ?? []),
    urls: uniqSorted(r.urls ?? []),
    verbs: uniqSorted(r.verbs ?? []),
  };
}

type Field = keyof Normal;
const join = (r: Normal, fields: readonly Field[]): string => fields.map((f) => r[f].join('&')).join(' + ');
/** The sort key, as controller-gen formats it. */
const ruleKey = (r: Normal): string => join(r, ['groups', 'resources', 'resourceNames', 'urls']);

/**
 * Groups rules equal in every field but `field` and unions that field. Rules that end up with
 * the same key are folded together (controller-gen keeps an arbitrary one; the union is what
 * both rules granted).
 */
function mergeOn(rules: Normal[], field: Field): Normal[] {
  const others = (['groups', 'resources', 'resourceNames', 'urls', 'verbs'] as const).filter((f) => f !== field);
  return foldSameKey(unionBy(rules, (r) => join(r, others), field));
}

function foldSameKey(rules: Normal[]): Normal[] {
  return unionBy(rules, ruleKey, 'verbs');
}

/**
 * Rules with the same key become the first of them with `field` the union of all their `field`
 * lists: each group is sorted once, however many rules it folds (a role with a rule per kind
 * folds hundreds).
 */
function unionBy(rules: Normal[], key: (r: Normal) => string, field: Field): Normal[] {
  const groups = new Map<string, { first: Normal; values: string[] | undefined }>();
  for (const r of rules) {
    const k = key(r);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, { first: r, values: undefined });
    else (group.values ??= [...group.first[field]]).push(...r[field]);
  }
  return [...groups.values()].map(({ first, values }) =>
    values === undefined ? first : normal({ ...first, [field]: values }),
  );
}

/**
 * The merge step for one role: rules in, the PolicyRules controller-gen would write out. Pure;
 * ignores `namespace` and `roleName` (split rules by role first).
 */
export function normalizeRules(rules: readonly RbacRule[]): PolicyRule[] {
  const exploded: Normal[] = [];
  for (const r of rules) {
    const groups = r.groups.map((g) => (g === 'core' ? '' : g));
    const base = { groups, resourceNames: r.resourceNames ?? [], urls: r.urls ?? [], verbs: r.verbs };
    if (r.resources.length === 0) exploded.push(normal({ ...base, resources: [] }));
    for (const resource of r.resources) exploded.push(normal({ ...base, resources: [resource] }));
  }
  let merged = foldSameKey(exploded);
  for (const field of ['resources', 'groups', 'urls'] as const) merged = mergeOn(merged, field);
  merged.sort((a, b) => byCodeUnit(ruleKey(a), ruleKey(b)));
  return merged.map(toPolicyRule);
}

function toPolicyRule(r: Normal): PolicyRule {
  // keys in sorted order, as the YAML shows them
  const out: Partial<PolicyRule> = {};
  if (r.groups.length > 0) out.apiGroups = r.groups;
  if (r.urls.length > 0) out.nonResourceURLs = r.urls;
  if (r.resourceNames.length > 0) out.resourceNames = r.resourceNames;
  if (r.resources.length > 0) out.resources = r.resources;
  out.verbs = r.verbs.includes('*') ? ['*'] : r.verbs;
  return out as PolicyRule;
}

/** Problems the API server would reject the role for, all at once. */
function checkRules(rules: readonly RbacRule[]): void {
  const errors: UserError[] = [];
  rules.forEach((r, i) => {
    const what = `groups=${r.groups.join(';')} resources=${r.resources.join(';')}`;
    const where = r.source !== undefined ? `${r.source}: RBAC rule (${what})` : `RBAC rule ${i + 1} (${what})`;
    const urls = r.urls ?? [];
    if (r.verbs.length === 0) errors.push(new RbacRuleError(`${where}: needs at least one verb`));
    if (r.resources.length === 0 && urls.length === 0) {
      errors.push(new RbacRuleError(`${where}: names no resources and no urls`));
    }
    if (r.resources.length > 0 && r.groups.length === 0) {
      errors.push(new RbacRuleError(`${where}: resources need at least one group ('' or 'core' for the core group)`));
    }
    if (urls.length > 0 && (r.resources.length > 0 || r.groups.length > 0)) {
      errors.push(new RbacRuleError(`${where}: urls cannot be combined with groups or resources; write two rules`));
    }
    if (urls.length > 0 && r.namespace) {
      errors.push(new RbacRuleError(`${where}: urls are cluster-wide and cannot be given a namespace`));
    }
  });
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new UserErrors(errors);
}

/** The ClusterRole and Roles for `rules`, in controller-gen's order (namespace, then name). */
export function rbacObjects(rules: readonly RbacRule[], opts: { roleName?: string } = {}): Record<string, unknown>[] {
  checkRules(rules);
  const defaultName = opts.roleName ?? DEFAULT_ROLE_NAME;
  const byRole = new Map<string, { namespace: string; name: string; rules: RbacRule[] }>();
  for (const r of rules) {
    const namespace = r.namespace ?? '';
    const name = r.roleName ?? defaultName;
    const k = `${namespace}\u0000${name}`;
    const entry = byRole.get(k) ?? { namespace, name, rules: [] };
    entry.rules.push(r);
    byRole.set(k, entry);
  }
  const roles = [...byRole.values()].sort((a, b) => byCodeUnit(a.namespace, b.namespace) || byCodeUnit(a.name, b.name));
  return roles.map((role) => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: role.namespace === '' ? 'ClusterRole' : 'Role',
    metadata: role.namespace === '' ? { name: role.name } : { name: role.name, namespace: role.namespace },
    rules: normalizeRules(role.rules),
  }));
}

/**
 * config/rbac/role.yaml for `rules`: each document introduced by `---`, as controller-gen writes
 * it. Empty when there are no rules (controller-gen then writes no file).
 */
export function renderRbac(rules: RbacRule[], opts?: { roleName?: string }): string {
  return rbacObjects(rules, opts)
    .map((o) => `---\n${roleYaml(o)}`)
    .join('');
}

/**
 * One role as YAML, laid out and quoted as the yaml library writes it with go-yaml's quoting
 * (see roleYamlByLibrary). Written directly when every string is one whose quoting is known
 * (names, groups, resources, verbs, URL paths, `*`, ''), which is every real role; anything else
 * goes through the library, so the output never depends on which path ran.
 */
export function roleYaml(role: Record<string, unknown>): string {
  const lines: string[] = [];
  return writeBlock(role, '', lines) ? `${lines.join('\n')}\n` : roleYamlByLibrary(role);
}

/** Letter-first names: plain unless YAML 1.1 reads them as a boolean or null. */
const NAME = /^[A-Za-z][A-Za-z0-9._/-]*$/;
/** Non-resource URL paths. */
const URL_PATH = /^\/[A-Za-z0-9._/*-]*$/;
const YAML11_WORDS = /^(?:[Yy]|[Yy]es|YES|[Nn]|[Nn]o|NO|[Tt]rue|TRUE|[Ff]alse|FALSE|[Oo]n|ON|[Oo]ff|OFF|[Nn]ull|NULL)$/;

/** The scalar as the library writes it, or undefined when its quoting is not one known here. */
function knownScalar(v: unknown): string | undefined {
  if (typeof v === 'boolean') return String(v);
  if (typeof v !== 'string') return undefined;
  if (v === '') return '""';
  if (v === '*') return "'*'";
  if (NAME.test(v)) return YAML11_WORDS.test(v) ? `"${v}"` : v;
  return URL_PATH.test(v) ? v : undefined;
}

/** A non-empty map of scalars, lists and maps, sequences not indented; false on anything else. */
function writeBlock(value: Record<string, unknown>, indent: string, out: string[], first = indent): boolean {
  const keys = Object.keys(value);
  if (keys.length === 0) return false;
  let prefix = first;
  for (const key of keys) {
    if (!NAME.test(key) || YAML11_WORDS.test(key)) return false;
    const v = value[key];
    if (Array.isArray(v)) {
      if (v.length === 0) return false;
      out.push(`${prefix}${key}:`);
      for (const item of v) {
        if (isMap(item)) {
          if (!writeBlock(item, `${indent}  `, out, `${indent}- `)) return false;
          continue;
        }
        const text = knownScalar(item);
        if (text === undefined) return false;
        out.push(`${indent}- ${text}`);
      }
    } else if (isMap(v)) {
      out.push(`${prefix}${key}:`);
      if (!writeBlock(v, `${indent}  `, out)) return false;
    } else {
      const text = knownScalar(v);
      if (text === undefined) return false;
      out.push(`${prefix}${key}: ${text}`);
    }
    prefix = indent;
  }
  return true;
}

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The reference rendering, through the yaml library with go-yaml's quoting, so the file reads like
 * controller-gen's: double quotes when the plain text would read as another type under YAML 1.1
 * (`""`, `"1"`, `"yes"` — kubectl's parser would see null, a number, a boolean), single quotes
 * when it cannot be plain at all (`'*'`).
 */
export function roleYamlByLibrary(value: unknown): string {
  const { Document, isScalar, visit } = yamlLibrary();
  const doc = new Document(value, { version: '1.1' });
  visit(doc, {
    Scalar(_key, node) {
      if (isScalar(node) && typeof node.value === 'string' && readsAsOtherType(node.value)) {
        node.type = 'QUOTE_DOUBLE';
      }
    },
  });
  return doc.toString({ indentSeq: false, singleQuote: true, lineWidth: 0 });
}

function readsAsOtherType(text: string): boolean {
  if (text === '') return true;
  try {
    return typeof yamlLibrary().parse(text, { version: '1.1', logLevel: 'silent' }) !== 'string';
  } catch {
    return false; // not plain-able at all: the stringifier single-quotes it
  }
}
