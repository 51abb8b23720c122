/**
 * The import corpus: real-world CRDs from Go modules (test/import/corpus.txt, read from the Go
 * module cache where scripts/import-corpus.sh puts them) and every CRD tsop's own test fixtures
 * generate (the fixture projects' and the YAML the runtime tests install), each imported as an own kind and generated again by tsop's reader and generator. Each
 * is reported identical, lossy (with its named reasons) or failed; none may fail, a difference no
 * reason explains is a failure, and identical must be the common case.
 *
 * The corpus is needed: in CI (CI=true), and wherever Go can download it, a missing corpus fails
 * the test; only without Go is it skipped, with a message.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readApiModel } from '../../src/codegen/reader/index.js';
import { loadSources } from '../../src/codegen/reader/sources.js';
import { generateManifests } from '../../src/manifests/generate.js';
import { crdDifferences } from '../../src/import/compare.js';
import { CoreTypeMatcher } from '../../src/import/core-types.js';
import type { CrdSource } from '../../src/import/crd.js';
import { readCrds } from '../../src/import/documents.js';
import { importCrd, type ImportedKind } from '../../src/import/import-crd.js';
import { TSOP_VERSION } from '../../src/version.js';
import { corpusCache, corpusEntries, moduleDir } from './corpus-cache.js';
import { typeErrors } from './type-check.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** `deploy/crds/*.yaml` → the files it names in a module directory. */
function expand(dir: string, pattern: string): string[] {
  const folder = posix.dirname(pattern);
  const name = new RegExp(
    `^${posix
      .basename(pattern)
      .replace(/[.+^${}()|\\]/g, '\\$&')
      .replace(/\*/g, '.*')}$`,
  ); // [a-u] stays a class
  return readdirSync(join(dir, folder))
    .filter((f) => name.test(f))
    .sort()
    .map((f) => join(dir, folder, f));
}

type Outcome = { kind: 'identical' } | { kind: 'lossy'; reasons: string[] } | { kind: 'failed'; why: string };

const matcher = new CoreTypeMatcher({});

/** What `tsop manifests` warned of on each round trip, by CRD. */
const warned: string[] = [];

/** Every file the corpus imports wrote, own and external, for the type check. */
const written = new Map<string, string>();

function outcomeOf(source: CrdSource): Outcome {
  try {
    const external = importCrd(source, {
      mode: 'external',
      typesPath: (crd, version) => `src/external/${crd.spec.group}/${version}/${crd.spec.names.kind.toLowerCase()}.ts`,
      header: '',
      manifestOptions: {},
      matcher,
    });
    for (const [path, r] of external.rendered) written.set(path, r.text);
  } catch (error) {
    return { kind: 'failed', why: `import --external threw: ${(error as Error).stack ?? String(error)}` };
  }
  let imported: ImportedKind;
  try {
    imported = importCrd(source, {
      mode: 'own',
      typesPath: (crd, version) => `src/api/${crd.spec.group}/${version}/${crd.spec.names.kind.toLowerCase()}.ts`,
      header: '',
      manifestOptions: {},
      matcher,
    });
  } catch (error) {
    return { kind: 'failed', why: `import threw: ${(error as Error).stack ?? String(error)}` };
  }
  for (const [path, r] of imported.rendered) written.set(path, r.text);
  for (const f of imported.files)
    written.set(
      posix.join(posix.dirname(f.file.path), 'groupversion.ts'),
      `export const groupVersion = { group: '${f.group}', version: '${f.version}' } as const;\n`,
    );
  const rt = imported.roundTrip!;
  for (const w of rt.warnings) warned.push(`${source.crd.metadata.name}: ${w}`);
  if (rt.errors.length > 0 || !rt.generated) return { kind: 'failed', why: `tsop manifests: ${rt.errors.join('; ')}` };
  if (rt.unexplained.length > 0)
    return {
      kind: 'failed',
      why: `differences no reason explains: ${rt.unexplained.map((d) => `${d.version} ${d.path}: ${d.detail}`).join('; ')}`,
    };
  const differences = crdDifferences(source.crd, rt.generated);
  const reasons = [...new Set(imported.losses.map((l) => l.loss.what.replace(/ \(at .*$/, '')))];
  if (differences.length === 0 && reasons.length === 0) return { kind: 'identical' };
  if (reasons.length === 0)
    return { kind: 'failed', why: `differs without a reason: ${differences.map((d) => d.path).join(', ')}` };
  return { kind: 'lossy', reasons };
}

function report(title: string, results: Array<[string, Outcome]>): void {
  const lines = results.map(
    ([name, o]) =>
      `  ${o.kind.padEnd(9)} ${name}${o.kind === 'lossy' ? `: ${o.reasons.join('; ')}` : o.kind === 'failed' ? `: ${o.why}` : ''}`,
  );
  const count = (k: Outcome['kind']): number => results.filter(([, o]) => o.kind === k).length;
  console.log(
    `${title}: ${results.length} CRDs, ${count('identical')} identical, ${count('lossy')} lossy, ${count('failed')} failed\n${lines.join('\n')}`,
  );
}

const { cache, skip } = corpusCache();
if (skip) console.warn(`skipping the real-world import corpus: ${skip}`);

(skip ? describe.skip : describe)('import corpus: real-world CRDs from Go modules', () => {
  it(
    'imports each CRD and gets it back from tsop manifests, identical or with named losses; none fails',
    () => {
      const results: Array<[string, Outcome]> = [];
      for (const e of corpusEntries()) {
        const dir = moduleDir(cache!, e.module);
        expect(existsSync(dir), `${e.module} is not in ${cache}; run bash scripts/import-corpus.sh`).toBe(true);
        const files = expand(dir, e.pattern);
        expect(files.length, `${e.module} ${e.pattern} names no file`).toBeGreaterThan(0);
        for (const file of files) {
          const { crds } = readCrds([{ name: file, text: readFileSync(file, 'utf8') }]);
          for (const source of crds) results.push([`${e.module} ${posix.basename(file)}`, outcomeOf(source)]);
        }
      }
      report('real-world corpus', results);
      expect(results.length).toBeGreaterThanOrEqual(40);
      expect(
        results.filter(([, o]) => o.kind === 'failed').map(([n, o]) => `${n}: ${(o as { why: string }).why}`),
      ).toEqual([]);
      const identical = results.filter(([, o]) => o.kind === 'identical').length;
      expect(identical, 'identical is the common case').toBeGreaterThan(results.length / 2);
      expect(identical, 'the floor reached: raise it when more round-trip').toBeGreaterThanOrEqual(73);
      // Only what the source CRD itself deserves: kubectl's client-side apply cannot take one over its
      // size limit; a status subresource on a kind with no status field holds nothing.
      console.log(`tsop manifests warned ${warned.length} times over the round trips:\n  ${warned.join('\n  ')}`);
      const deserved = /over the 262144-byte limit|@SubresourceStatus: the kind has no status field/;
      expect(warned.filter((w) => !deserved.test(w))).toEqual([]);
    },
    10 * 60_000,
  );

  it(
    'writes TypeScript that compiles (strict), as an own kind and as an external one',
    () => {
      expect(written.size).toBeGreaterThan(100);
      expect(typeErrors(written)).toEqual([]);
    },
    10 * 60_000,
  );
});

/** Projects among tsop's test fixtures whose API `tsop manifests` generates CRDs from. */
const FIXTURE_PROJECTS = [
  'test/fixtures/manifests/widgets',
  'test/fixtures/manifests/cronjob',
  'test/docs/fixtures/shop',
];
/** Scaffolded projects kept as golden files (`*.ts.golden`) by the scaffold tests. */
const GOLDEN_PROJECTS = [
  'test/fixtures/scaffold/fleet',
  'test/fixtures/scaffold/guestbook',
  'test/fixtures/scaffold/memcached-deploy-image',
];
/** The seed operators' API files, which the seed tests put into scaffolded projects (their group-version files come from the scaffold). */
const SEED_APIS = ['test/e2e/seeds/alnairpod', 'test/e2e/seeds/at', 'test/e2e/seeds/flightticket'];

/** The API sources of a golden project (its `.ts.golden` files under the names they stand for). */
function goldenSources(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = posix.join(rel, e.name);
      if (e.isDirectory()) walk(path);
      else if (path.endsWith('.ts.golden'))
        out[path.slice(0, -'.golden'.length)] = readFileSync(join(dir, path), 'utf8');
    }
  };
  walk('src/api');
  return out;
}

/** A seed's API files, with the group-version file the scaffold would have written next to each. */
function seedSources(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const version of readdirSync(join(dir, 'src/api'))) {
    for (const f of readdirSync(join(dir, 'src/api', version)))
      out[`src/api/${version}/${f}`] = readFileSync(join(dir, 'src/api', version, f), 'utf8');
    out[`src/api/${version}/groupversion.ts`] =
      `export const groupVersion = { group: 'seeds.example.com', version: '${version}' } as const;\n`;
  }
  return out;
}
/** CRD files tsop generated for its runtime and harness tests. */
const FIXTURE_CRDS = [
  'runtime/test-fixtures/crds/gizmos.yaml',
  'runtime/envtest/testdata/widgets.yaml',
  'runtime/client/testdata/gadgets.yaml',
  'runtime/test-fixtures/webhook/crd.yaml',
];

describe("import corpus: the CRDs tsop's own tests generate", () => {
  it(
    'imports every one identically',
    async () => {
      // Fixture projects, scaffold goldens, the seed operators' APIs, and the CRD files of the runtime tests.
      const results: Array<[string, Outcome]> = [];
      const projects: Array<[string, Record<string, string>]> = [
        ...(await Promise.all(
          FIXTURE_PROJECTS.map(
            async (p): Promise<[string, Record<string, string>]> => [p, { ...(await loadSources(join(REPO, p))) }],
          ),
        )),
        ...GOLDEN_PROJECTS.map((p): [string, Record<string, string>] => [p, goldenSources(join(REPO, p))]),
        ...SEED_APIS.map((p): [string, Record<string, string>] => [p, seedSources(join(REPO, p))]),
      ];
      for (const [project, sources] of projects) {
        const generated = generateManifests(readApiModel(sources), { tsopVersion: TSOP_VERSION });
        expect(generated.errors.map((e) => e.message)).toEqual([]);
        const crds = Object.entries(generated.files).filter(([path]) => path.startsWith('crd/bases/'));
        expect(crds.length, project).toBeGreaterThan(0);
        for (const [path, text] of crds) {
          for (const source of readCrds([{ name: `${project}: ${path}`, text }]).crds)
            results.push([`${project} ${path}`, outcomeOf(source)]);
        }
      }
      for (const file of FIXTURE_CRDS) {
        for (const source of readCrds([{ name: file, text: readFileSync(join(REPO, file), 'utf8') }]).crds)
          results.push([`${file} ${source.crd.metadata.name}`, outcomeOf(source)]);
      }
      report("tsop's own CRDs", results);
      // The webhook fixture is the CRD after kustomize's conversion patch, which a project keeps in config/crd/patches.
      const conversionOnly = (o: Outcome): boolean =>
        o.kind === 'lossy' && o.reasons.every((r) => r.includes('(spec.conversion)'));
      expect(
        results
          .filter(([, o]) => o.kind !== 'identical' && !conversionOnly(o))
          .map(([n, o]) => `${n}: ${JSON.stringify(o)}`),
      ).toEqual([]);
      expect(results.filter(([, o]) => o.kind === 'identical').length).toBeGreaterThanOrEqual(results.length - 1);
    },
    5 * 60_000,
  );
});
