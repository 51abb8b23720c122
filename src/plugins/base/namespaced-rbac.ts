/**
 * `tsop edit --namespaced`'s rule for a controller file: add or remove `namespace: '<ns>'` on its
 * `@Rbac({ ... })` decorators. The file is read and edited through scaffold/source-edit.ts, so
 * decorators in comments or strings are not decorators, and the rest of the file stays byte for
 * byte.
 *
 * Resources a Role cannot grant (cluster-scoped: Nodes, CRDs, Namespaces, the project's own
 * cluster-scoped kinds...; see src/project/cluster-scope.ts) keep no namespace, so they stay in
 * the ClusterRole; a decorator naming both kinds is split in two, the namespaced resources first.
 * Adding then removing gives back the original text.
 */
import type { ClusterScoped } from '../../project/cluster-scope.js';
import type { ts as TS } from 'ts-morph';
import {
  applyEdits,
  SourceEditor,
  stringListValue,
  stringLiteralValue,
  type LiteralProperty,
  type TextEdit,
} from '../../scaffold/source-edit.js';

export type RbacNamespaceMode = 'add' | 'remove';

export interface RbacNamespaceResult {
  text: string;
  /** How many decorators were rewritten. */
  rewritten: number;
  /** Decorators left as they were because they could not be understood: `line: why`. */
  skipped: string[];
  /** Cluster-scoped resources left without a namespace (in the ClusterRole), in file order. */
  clusterWide: string[];
}

/**
 * `add`: gives every @Rbac without a `namespace` (and without `urls`, which only a ClusterRole can
 * grant) `namespace: '<ns>'` as its last property. `remove`: drops `namespace: '<ns>'`. Any other
 * namespace is a deliberate choice and is kept.
 */
export function rewriteRbacNamespace(
  text: string,
  namespace: string,
  mode: RbacNamespaceMode,
  clusterScoped: ClusterScoped = () => false,
): RbacNamespaceResult {
  const source = new SourceEditor('controller.ts', text);
  const skipped: string[] = [];
  const clusterWide: string[] = [];
  let rewritten = 0;
  for (const use of source.decorators('Rbac')) {
    const read = rbacObject(source, use.call);
    if ('error' in read) {
      skipped.push(`${use.line}: ${read.error}`);
      continue;
    }
    const { obj, props } = read;
    const keyed = (k: string): LiteralProperty[] => props.filter((p) => p.key === k);
    const ns = keyed('namespace');
    if (ns.length > 1) {
      skipped.push(`${use.line}: namespace is given more than once`);
      continue;
    }
    let planned: TextEdit[];
    if (mode === 'add') {
      if (ns.length === 1 || keyed('urls').length > 0) continue;
      const property = `namespace: ${quoted(namespace, quoteOf(source, obj))}`;
      const scope = splitByScope(props, clusterScoped);
      if (scope.cluster.length === 0) planned = source.addPropertyEdits(obj, property);
      else {
        clusterWide.push(...scope.cluster);
        if (scope.namespaced.length === 0) continue;
        planned = splitDecorator(source, use.decorator, obj, scope, property);
      }
    } else {
      const p = ns[0];
      if (!p) continue;
      const value = stringLiteralValue(p.value);
      if (value === undefined) {
        skipped.push(
          `${use.line}: namespace is not a string literal, so tsop cannot tell whether it is '${namespace}'`,
        );
        continue;
      }
      if (value !== namespace) continue;
      planned = source.removePropertyEdits(obj, props.indexOf(p));
    }
    source.add(...planned);
    rewritten++;
  }
  return { text: source.result(), rewritten, skipped, clusterWide };
}

/** The decorator's one object-literal argument and its properties, or why tsop does not read it. */
function rbacObject(
  source: SourceEditor,
  call: TS.CallExpression | undefined,
): { obj: TS.ObjectLiteralExpression; props: LiteralProperty[] } | { error: string } {
  const { ts } = source;
  const arg = call?.arguments[0];
  if (!call || !arg || !ts.isObjectLiteralExpression(arg))
    return { error: '@Rbac is not called with an object literal' };
  if (call.arguments.length > 1) return { error: '@Rbac has more than one argument' };
  const props = source.properties(arg);
  for (const p of props) {
    if (ts.isSpreadAssignment(p.node))
      return { error: 'its object literal has a spread (...), which may hold a namespace' };
    if (p.key === undefined)
      return { error: `its object literal has a property tsop does not understand at '${source.firstToken(p.node)}'` };
  }
  return { obj: arg, props };
}

interface Scope {
  cluster: string[];
  namespaced: string[];
  /** The resources property's value (set whenever `cluster` is not empty: a list of string literals). */
  resources?: TS.Expression;
}

/**
 * The decorator's resources by scope. A resource is cluster-scoped when it is in any of the
 * listed groups; lists tsop cannot read (a variable, a spread) count as namespaced.
 */
function splitByScope(props: LiteralProperty[], clusterScoped: ClusterScoped): Scope {
  const propValue = (key: string): TS.Expression | undefined => props.find((p) => p.key === key)?.value;
  const groups = stringListValue(propValue('groups'));
  const resourcesNode = propValue('resources');
  const resources = stringListValue(resourcesNode);
  if (!groups || !resources) return { cluster: [], namespaced: [] };
  const cluster = resources.filter((r) => groups.some((g) => clusterScoped(g, r)));
  return {
    cluster,
    namespaced: resources.filter((r) => !cluster.includes(r)),
    ...(resourcesNode ? { resources: resourcesNode } : {}),
  };
}

/**
 * `@Rbac({ ..., resources: [namespaced...], ..., namespace: 'ns' })` on a line of its own above
 * the decorator, which keeps only the cluster-scoped resources.
 */
function splitDecorator(
  source: SourceEditor,
  decorator: TS.Decorator,
  obj: TS.ObjectLiteralExpression,
  scope: Scope,
  property: string,
): TextEdit[] {
  const quote = quoteOf(source, obj);
  const list = (rs: string[]): string => `[${rs.map((r) => quoted(r, quote)).join(', ')}]`;
  const resources = scope.resources!;
  const span = { start: resources.getStart(source.file), end: resources.end };
  const at = decorator.getStart(source.file);
  // The copy: the decorator's own text with the namespaced list and the namespace property.
  const inCopy = [{ ...span, insert: list(scope.namespaced) }, ...source.addPropertyEdits(obj, property)];
  const copy = applyEdits(
    source.text.slice(at, decorator.end),
    inCopy.map((e) => ({ ...e, start: e.start - at, end: e.end - at })),
  );
  return [
    { start: at, end: at, insert: `${copy}\n${source.indentAt(at)}` },
    { ...span, insert: list(scope.cluster) },
  ];
}

/** The quote the object's strings use (its first quoted string's), so an added value matches the file's style. */
function quoteOf(source: SourceEditor, obj: TS.ObjectLiteralExpression): string {
  const { ts } = source;
  let quote: string | undefined;
  const visit = (node: TS.Node): void => {
    if (quote !== undefined) return;
    if (ts.isStringLiteral(node)) quote = source.text[node.getStart(source.file)];
    else ts.forEachChild(node, visit);
  };
  visit(obj);
  return quote ?? "'";
}

function quoted(value: string, quote: string): string {
  return `${quote}${value.replace(/\\/g, '\\\\').split(quote).join(`\\${quote}`)}${quote}`;
}
