/**
 * `tsop scorecard`: the configuration's tests, selected by label, run against the bundle with its
 * CRDs installed on an embedded control plane (etcd + kube-apiserver) and its samples applied;
 * operator-sdk runs the same tests as pods in a cluster. The plane is stopped before results are
 * returned, whatever happens.
 */
import { join } from 'node:path';
import { UserError } from '../../errors.js';
import { ApiClient } from '../../verify/api.js';
import { loadBundleDir } from '../validate/bundle-dir.js';
import { parseSelector, selects } from '../selector.js';
import { isObj, type Obj } from '../objects.js';
import { readScorecardConfig, type TestConfig } from './config.js';
import { applySamples } from './samples.js';
import { scorecardTest, type TestContext, type TestResult } from './tests.js';

export interface TestItem {
  kind: 'Test';
  apiVersion: 'scorecard.operatorframework.io/v1alpha3';
  spec: { image: string; entrypoint: string[]; labels: Record<string, string> };
  status: { results?: TestResult[] };
}

/** What the runner needs of a control plane: the harness in production, any real plane in tests. */
export type PlaneStarter = () => Promise<{
  server: string;
  tls: { ca: string; cert: string; key: string };
  stop(): Promise<void>;
}>;

export interface ScorecardOptions {
  configPath?: string;
  selector?: string;
  list?: boolean;
  waitMs: number;
  startPlane: PlaneStarter;
  /** Where the samples are applied (default `scorecard`). */
  namespace?: string;
}

export async function scorecard(
  bundleDir: string,
  opts: ScorecardOptions,
): Promise<{ items: TestItem[]; passed: boolean }> {
  const selector = opts.selector === undefined || opts.selector === '' ? [] : parseSelector(opts.selector);
  if (selector === undefined)
    throw new UserError(
      `--selector: '${opts.selector}' is not a label selector; write key=value terms separated by commas, e.g. suite=olm`,
    );
  const bundle = loadBundleDir(bundleDir);
  const tests = readScorecardConfig(opts.configPath ?? join(bundleDir, 'tests/scorecard/config.yaml')).filter((t) =>
    selects(selector, t.labels),
  );
  const items = tests.map(itemOf);
  if (opts.list || items.length === 0) return { items, passed: true };
  const samples = samplesOf(bundle.csv?.metadata.annotations?.['alm-examples']);
  const plane = await opts.startPlane();
  let applied: Map<string, string | undefined>;
  try {
    applied = await applySamples(
      new ApiClient(plane.server, plane.tls),
      bundle.crds,
      'error' in samples ? [] : samples,
      opts.waitMs,
      opts.namespace,
    );
  } catch (error) {
    throw new UserError(
      `scorecard: the control plane did not take the bundle's CRDs: ${(error as Error).message}; check them with 'tsop bundle validate'`,
    );
  } finally {
    await plane.stop();
  }
  const ctx: TestContext = { bundle, samples, applied };
  for (const [i, t] of tests.entries()) {
    const test = scorecardTest(t.entrypoint);
    items[i]!.status = {
      results: [
        test
          ? test.run(ctx)
          : {
              name: t.labels['test'] ?? t.entrypoint.join(' '),
              state: 'error' as const,
              errors: [
                `tsop runs the scorecard-test tests built in (basic and olm suites); '${t.entrypoint.join(' ')}' from ${t.image} needs 'operator-sdk scorecard' in a cluster`,
              ],
            },
      ].map(compact),
    };
  }
  return { items, passed: items.every((i) => i.status.results?.every((r) => r.state === 'pass') ?? true) };
}

function itemOf(t: TestConfig): TestItem {
  return {
    kind: 'Test',
    apiVersion: 'scorecard.operatorframework.io/v1alpha3',
    spec: { image: t.image, entrypoint: t.entrypoint, labels: t.labels },
    status: {},
  };
}

function samplesOf(text: string | undefined): Obj[] | { error: string } {
  if (text === undefined || text === '') return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return { error: 'failed to parse alm-examples annotation: it is not a list' };
    return parsed.filter(isObj);
  } catch (error) {
    return { error: `failed to parse alm-examples annotation: ${(error as Error).message}` };
  }
}

/** Empty lists and log left out, as operator-sdk's JSON leaves them out. */
function compact(r: TestResult): TestResult {
  const out: TestResult = { name: r.name, state: r.state };
  if (r.log) out.log = r.log;
  if (r.errors?.length) out.errors = r.errors;
  if (r.suggestions?.length) out.suggestions = r.suggestions;
  return out;
}

/** operator-sdk's text rendering of one test. */
export function testText(item: TestItem): string {
  const lines = ['-'.repeat(80), `Image:      ${item.spec.image}`];
  if (item.spec.entrypoint.length > 0) lines.push(`Entrypoint: [${item.spec.entrypoint.join(' ')}]`);
  const labels = Object.entries(item.spec.labels).sort(([a], [b]) => (a < b ? -1 : 1));
  if (labels.length > 0)
    lines.push('Labels:', ...labels.map(([k, v]) => `\t${JSON.stringify(k)}:${JSON.stringify(v)}`));
  const results = item.status.results ?? [];
  if (results.length > 0) {
    lines.push('Results:');
    for (const r of results) {
      lines.push(`\tName: ${r.name}`, `\tState: ${r.state}`, '');
      if (r.suggestions?.length) lines.push('\tSuggestions:', ...r.suggestions.map((s) => `\t\t${s}`));
      if (r.errors?.length) lines.push('\tErrors:', ...r.errors.map((e) => `\t\t${e}`));
      if (r.log)
        lines.push(
          '\tLog:',
          ...r.log
            .replace(/\n$/, '')
            .split('\n')
            .map((l) => `\t\t${l}`),
        );
      lines.push('');
    }
  }
  return `${lines.join('\n')}\n`;
}

export function testListJson(items: readonly TestItem[]): string {
  return `${JSON.stringify({ kind: 'TestList', apiVersion: 'scorecard.operatorframework.io/v1alpha3', items }, null, 2)}\n`;
}
