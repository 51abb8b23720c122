/**
 * The scorecard's built-in tests (operator-sdk's scorecard-test image: the basic and olm suites),
 * one entry per test, each a function of the bundle and of what the control plane said about its
 * samples. States and messages follow operator-sdk's; where tsop says more, the README lists it.
 */
import type { LoadedBundle } from '../validate/bundle-dir.js';
import { findingMessage } from '../validate/finding.js';
import { DEFAULT_CHECKS } from '../validate/registry.js';
import { isObj, list, obj, str, type Obj } from '../objects.js';

export type State = 'pass' | 'fail' | 'error';

export interface TestResult {
  name: string;
  log?: string;
  state: State;
  errors?: string[];
  suggestions?: string[];
}

export interface TestContext {
  bundle: LoadedBundle;
  /** The CSV's alm-examples, or the error that kept them from being read. */
  samples: Obj[] | { error: string };
  /** What the API server said when each sample was applied, by sample name (undefined: accepted). */
  applied: ReadonlyMap<string, string | undefined>;
}

interface ScorecardTest {
  name: string;
  suite: 'basic' | 'olm';
  run(ctx: TestContext): TestResult;
}

function result(
  name: string,
): Required<Pick<TestResult, 'name' | 'state' | 'errors' | 'suggestions'>> & { log: string } {
  return { name, state: 'pass', errors: [], suggestions: [], log: '' };
}

const ownedOf = (b: LoadedBundle): Obj[] => list(obj(b.csv?.spec['customresourcedefinitions'])['owned']).map(obj);
const versionOf = (cr: Obj): string => {
  const apiVersion = str(cr['apiVersion']);
  return apiVersion.slice(apiVersion.indexOf('/') + 1);
};

type Result = ReturnType<typeof result>;

/** The descriptor tests: the CSV and samples loaded (as their log says), then `each` per sample. */
function perSample(name: string, ctx: TestContext, each: (cr: Obj, r: Result) => void): TestResult {
  const r = result(name);
  r.log = `Loaded ClusterServiceVersion: ${ctx.bundle.name}\n`;
  if ('error' in ctx.samples) return { ...r, state: 'error', errors: [ctx.samples.error] };
  r.log += `Loaded ${ctx.samples.length} Custom Resources from alm-examples\n`;
  for (const cr of ctx.samples) each(cr, r);
  return r;
}

/** The CSV's owned description of a sample's kind and version, or the failure operator-sdk reports. */
function ownedFor(b: LoadedBundle, cr: Obj, r: { state: State; errors: string[] }): Obj | undefined {
  const owned = ownedOf(b).find((d) => d['kind'] === cr['kind'] && d['version'] === versionOf(cr));
  if (owned) return owned;
  r.state = 'fail';
  r.errors.push(`Failed to find an owned CRD for CR ${str(obj(cr['metadata'])['name'])} with GVK ${gvkText(cr)}`);
  return undefined;
}

function gvkText(cr: Obj): string {
  const apiVersion = str(cr['apiVersion']);
  const slash = apiVersion.indexOf('/');
  return `${slash < 0 ? '' : apiVersion.slice(0, slash)}/${apiVersion.slice(slash + 1)}, Kind=${str(cr['kind'])}`;
}

const SCORECARD_TESTS: readonly ScorecardTest[] = [
  {
    name: 'basic-check-spec',
    suite: 'basic',
    run(ctx) {
      const r = result('basic-check-spec');
      if ('error' in ctx.samples)
        return { ...r, state: 'fail', errors: [`error getting custom resources: ${ctx.samples.error}`] };
      const missing = ctx.samples.find((cr) => cr['spec'] === undefined || cr['spec'] === null);
      // operator-sdk passes here and only suggests; olm-spec-descriptors is the test that fails.
      if (missing) r.suggestions.push(`spec missing from [${str(obj(missing['metadata'])['name'])}]`);
      return r;
    },
  },
  {
    name: 'olm-bundle-validation',
    suite: 'olm',
    run(ctx) {
      const r = result('olm-bundle-validation');
      const checks = DEFAULT_CHECKS.filter((c) => c.id !== 'bundle-object-kinds');
      for (const check of checks) {
        for (const f of check.run({ bundle: ctx.bundle, values: {} })) {
          if (f.level === 'Error') {
            r.errors.push(
              f.plain ? `Bundle validation errors: ${ctx.bundle.formatErrors.join(',')}` : findingMessage(f),
            );
            r.state = 'fail';
          } else r.suggestions.push(findingMessage(f));
        }
      }
      return r;
    },
  },
  {
    name: 'olm-crds-have-validation',
    suite: 'olm',
    run(ctx) {
      const r = result('olm-crds-have-validation');
      if ('error' in ctx.samples) return { ...r, state: 'error', errors: [ctx.samples.error] };
      r.log = `Loaded ${ctx.samples.length} Custom Resources from alm-examples\n`;
      for (const cr of ctx.samples) {
        const rejected = ctx.applied.get(str(obj(cr['metadata'])['name']));
        if (rejected !== undefined) {
          r.errors.push(`${str(obj(cr['metadata'])['name'])}: the API server refused it: ${rejected}`);
          r.state = 'fail';
        }
        for (const crd of ctx.bundle.crds) {
          const names = obj(obj(crd['spec'])['names']);
          for (const v of list(obj(crd['spec'])['versions']).map(obj)) {
            if (
              str(v['name']).toLowerCase() !== versionOf(cr).toLowerCase() ||
              str(names['kind']).toLowerCase() !== str(cr['kind']).toLowerCase()
            )
              continue;
            const schema = obj(obj(v['schema'])['openAPIV3Schema']);
            if (Object.keys(schema).length === 0) {
              r.suggestions.push(`Add CRD validation for ${str(names['kind'])}/${str(v['name'])}`);
              continue;
            }
            let failed = false;
            for (const block of ['spec', 'status'] as const) {
              if (!isObj(cr[block])) continue;
              const props = obj(obj(obj(schema['properties'])[block])['properties']);
              for (const key of Object.keys(cr[block] as Obj)) {
                if (key in props) continue;
                failed = true;
                r.suggestions.push(
                  `Add CRD validation for ${block === 'spec' ? 'spec' : 'status'} field \`${key}\` in ${str(cr['kind'])}/${versionOf(cr)}`,
                );
              }
            }
            if (failed) r.state = 'fail';
          }
        }
      }
      return r;
    },
  },
  {
    name: 'olm-crds-have-resources',
    suite: 'olm',
    run(ctx) {
      const r = result('olm-crds-have-resources');
      r.log = `Loaded ClusterServiceVersion: ${ctx.bundle.name}\n`;
      if (ownedOf(ctx.bundle).some((d) => list(d['resources']).length === 0)) {
        r.state = 'fail';
        r.errors.push('Owned CRDs do not have resources specified');
      }
      return r;
    },
  },
  {
    name: 'olm-spec-descriptors',
    suite: 'olm',
    run: (ctx) =>
      perSample('olm-spec-descriptors', ctx, (cr, r) => {
        if (!isObj(cr['spec'])) {
          r.state = 'fail';
          r.errors.push(`${str(obj(cr['metadata'])['name'])} has no spec block`);
          return;
        }
        const owned = ownedFor(ctx.bundle, cr, r);
        if (!owned) return;
        const paths = new Set(list(owned['specDescriptors']).map((d) => str(obj(d)['path'])));
        for (const key of Object.keys(cr['spec'] as Obj).sort()) {
          if (paths.has(key)) continue;
          r.errors.push(`${key} does not have a spec descriptor`);
          r.suggestions.push(`Add a spec descriptor for ${key}`);
          r.state = 'fail';
        }
      }),
  },
  {
    name: 'olm-status-descriptors',
    suite: 'olm',
    run: (ctx) =>
      perSample('olm-status-descriptors', ctx, (cr, r) => {
        const owned = ownedFor(ctx.bundle, cr, r);
        if (!owned) return;
        const hasStatus = isObj(cr['status']) && Object.keys(cr['status']).length > 0;
        if (!hasStatus) {
          r.suggestions.push(
            [
              `${str(owned['name'])} does not have status spec. Note that all objects that represent a physical`,
              `resource whose state may vary from the user's desired intent SHOULD have a spec and a status.`,
              `More info: https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#spec-and-status`,
            ].join(' '),
          );
        } else if (list(owned['statusDescriptors']).length === 0) {
          r.errors.push(`${str(owned['name'])} does not have a status descriptor`);
          r.suggestions.push(
            `add status descriptor for the crd ${str(owned['name'])}. In a tsop project, decorate its status fields with @CsvDescriptor({ type: 'status' }).`,
          );
          r.state = 'fail';
        }
      }),
  },
];

export function scorecardTest(entrypoint: readonly string[]): ScorecardTest | undefined {
  return entrypoint[0] === 'scorecard-test' ? SCORECARD_TESTS.find((t) => t.name === entrypoint[1]) : undefined;
}
