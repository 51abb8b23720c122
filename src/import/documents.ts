/**
 * YAML text → the CRDs in it, each checked to be something `import` can turn into types: an
 * apiextensions.k8s.io/v1 CustomResourceDefinition whose every version has a schema. Several
 * documents per text, and `List` objects (what `kubectl get crd -o yaml` prints), are read; other
 * kinds of object beside CRDs are skipped with a note. Each problem is one line naming the input.
 */
import { UserError } from '../errors.js';
import { yamlLibrary } from '../yaml/library.js';
import { readBlockYaml } from '../yaml/block-reader.js';
import type { Crd, CrdSource } from './crd.js';
import type { InputText } from './input.js';

export interface ReadCrds {
  crds: CrdSource[];
  /** Documents that are not CRDs, skipped: `name#n: a Namespace`. */
  skipped: string[];
}

export function readCrds(inputs: readonly InputText[]): ReadCrds {
  const crds: CrdSource[] = [];
  const skipped: string[] = [];
  for (const input of inputs) {
    const objects = parseDocuments(input);
    let found = 0;
    for (const { value, origin } of objects) {
      const kind = isObject(value) ? value['kind'] : undefined;
      if (kind !== 'CustomResourceDefinition') {
        skipped.push(`${origin}: ${typeof kind === 'string' ? `a ${kind}` : 'not a Kubernetes object'}`);
        continue;
      }
      crds.push({ crd: checkCrd(value as Record<string, unknown>, origin), origin });
      found++;
    }
    if (found === 0) {
      const what = objects.length === 0 ? 'it is empty' : `it holds ${describe(objects.map((o) => o.value))}`;
      throw new UserError(
        `import crd: ${input.name} is not a CustomResourceDefinition (${what}); pass the YAML of a CRD, e.g. config/crd/bases/<group>_<plural>.yaml`,
      );
    }
  }
  const names = new Map<string, string>();
  for (const { crd, origin } of crds) {
    const other = names.get(crd.metadata.name);
    if (other !== undefined)
      throw new UserError(
        `import crd: ${crd.metadata.name} is in the input twice (${other} and ${origin}); pass each CRD once`,
      );
    names.set(crd.metadata.name, origin);
  }
  return { crds, skipped };
}

function parseDocuments(input: InputText): Array<{ value: unknown; origin: string }> {
  const fast = readBlockYaml(input.text);
  const parsed = fast ? [] : yamlLibrary().parseAllDocuments(input.text);
  // An empty stream comes back as one empty list-like value; anything else is a list of documents.
  const docs = Array.isArray(parsed) ? parsed : [];
  const out: Array<{ value: unknown; origin: string }> = [];
  const values: unknown[] =
    fast ??
    docs.map((doc) => {
      const error = doc.errors[0];
      if (error)
        throw notYaml(
          input,
          `${error.linePos ? `line ${error.linePos[0].line}: ` : ''}${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
        );
      return doc.toJS({ maxAliasCount: 1000 }) as unknown;
    });
  for (const [i, value] of values.entries()) {
    if (value === null || value === undefined) continue;
    const origin = values.length > 1 ? `${input.name}#${i + 1}` : input.name;
    const items =
      isObject(value) &&
      Array.isArray(value['items']) &&
      typeof value['kind'] === 'string' &&
      value['kind'].endsWith('List')
        ? (value['items'] as unknown[])
        : undefined;
    if (items) {
      items.forEach((item, j) => {
        out.push({ value: item, origin: `${origin} items[${j}]` });
      });
    } else out.push({ value, origin });
  }
  return out;
}

function notYaml(input: InputText, detail: string): UserError {
  return new UserError(
    `import crd: ${input.name} is not YAML (${detail}); pass the YAML of a CustomResourceDefinition`,
  );
}

function describe(values: unknown[]): string {
  const kinds = values.map((v) =>
    isObject(v) && typeof v['kind'] === 'string' ? `a ${v['kind']}` : 'no Kubernetes object',
  );
  return [...new Set(kinds)].join(', ');
}

/** The CRD, or the first reason it cannot be imported. */
function checkCrd(raw: Record<string, unknown>, origin: string): Crd {
  const name =
    isObject(raw['metadata']) && typeof raw['metadata']['name'] === 'string' ? raw['metadata']['name'] : '(unnamed)';
  const fail = (what: string, fix: string): never => {
    throw new UserError(`import crd: ${origin}: CRD ${name} ${what}; ${fix}`);
  };
  const apiVersion = raw['apiVersion'];
  if (apiVersion === 'apiextensions.k8s.io/v1beta1') {
    fail(
      'is apiextensions.k8s.io/v1beta1, which Kubernetes removed in 1.22',
      'convert it to apiextensions.k8s.io/v1 (versions[].schema instead of spec.validation) and import that',
    );
  }
  if (apiVersion !== 'apiextensions.k8s.io/v1')
    fail(`has apiVersion ${JSON.stringify(apiVersion)}`, 'import an apiextensions.k8s.io/v1 CustomResourceDefinition');
  const spec = raw['spec'];
  if (!isObject(spec)) return fail('has no spec', 'import a complete CRD');
  const names = spec['names'];
  if (typeof spec['group'] !== 'string' || spec['group'] === '') fail('has no spec.group', 'import a complete CRD');
  if (!isObject(names) || typeof names['kind'] !== 'string' || typeof names['plural'] !== 'string')
    fail('has no spec.names.kind or spec.names.plural', 'import a complete CRD');
  if (spec['scope'] !== 'Namespaced' && spec['scope'] !== 'Cluster')
    fail(`has scope ${JSON.stringify(spec['scope'])}`, "use 'Namespaced' or 'Cluster'");
  const versions = spec['versions'];
  if (!Array.isArray(versions) || versions.length === 0)
    return fail('has no spec.versions', 'list at least one version with its schema');
  for (const [i, v] of versions.entries()) {
    if (!isObject(v) || typeof v['name'] !== 'string')
      return fail(`has a version without a name (spec.versions[${i}])`, 'name every version');
    const schema = isObject(v['schema']) ? v['schema']['openAPIV3Schema'] : undefined;
    if (!isObject(schema)) {
      fail(
        `version ${v['name']} has no schema (spec.versions[${i}].schema.openAPIV3Schema)`,
        'tsop writes types from the schema: add one (an open one is `type: object` with `x-kubernetes-preserve-unknown-fields: true`)',
      );
    }
    if ((schema as Record<string, unknown>)['type'] !== 'object')
      fail(
        `version ${v['name']} has a schema whose root is not 'type: object'`,
        'the API server requires an object at the root; fix the CRD',
      );
    if (typeof v['served'] !== 'boolean' || typeof v['storage'] !== 'boolean')
      fail(`version ${v['name']} does not say served and storage`, 'set both (true/false) as the API server requires');
  }
  return raw as unknown as Crd;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
