/**
 * Real kubebuilder projects through `tsop import kubebuilder`, as a kubebuilder user brings them:
 * the book's tutorials (getting started, CronJob, multiversion with its conversion webhook) and
 * kubebuilder's sample projects (several kinds and webhooks, core-type and external-type webhooks,
 * a cluster-scoped kind, multigroup with dotted groups, the deploy-image and Helm plugins), made by
 * kubebuilder's own generators with the CRDs its pinned controller-gen wrote
 * (scripts/kubebuilder-corpus.sh). Each project, through the built CLI with `--scaffold` and without
 * `--allow-lossy`, must import with no warning, give back controller-gen's CRDs from `tsop
 * manifests` (descriptions included) with no warning, type-check (all of it: src/ with what
 * `--scaffold` wrote, tests included, as the project's tsc does), read like a person wrote it
 * (each kind's TypeScript at most twice as long as its Go types file), and keep the plugins PROJECT
 * records: those tsop has are recorded in the new PROJECT, the others named in the import's output.
 *
 * The corpus is needed: in CI (CI=true), and wherever Go can build it, a missing corpus fails the
 * test; only without Go is it skipped, with a message.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, relative } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { crdDifferences } from '../../src/import/compare.js';
import type { Crd } from '../../src/import/crd.js';
import { readCrds } from '../../src/import/documents.js';
import { PLUGINS } from '../../src/plugins/catalog.js';
import { TSOP } from '../e2e/seeds/seed-project.js';
import { KUBEBUILDER_PROJECTS, kubebuilderCorpus } from './kubebuilder-corpus.js';
import { typeErrors } from './type-check.js';

const { dir: corpus = '', skip } = kubebuilderCorpus();
if (skip) console.warn(`skipping the kubebuilder project corpus: ${skip}`);

const root = mkdtempSync(join(tmpdir(), 'tsop-kb-projects-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Run {
  exitCode: number;
  stderr: string;
}

async function tsop(args: string[], cwd: string): Promise<Run> {
  const r = await execa(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], {
    cwd,
    reject: false,
    env: { NO_COLOR: '1' },
  });
  return { exitCode: r.exitCode ?? 1, stderr: r.stderr };
}

const warnings = (stderr: string): string[] => stderr.split('\n').filter((l) => /warning/i.test(l));

/** The CRDs in a project's config/crd/bases, by name. */
function crdsIn(project: string): Map<string, Crd> {
  const dir = join(project, 'config/crd/bases');
  const out = new Map<string, Crd>();
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.yaml'))
    .sort())
    for (const { crd } of readCrds([{ name: f, text: readFileSync(join(dir, f), 'utf8') }]).crds)
      out.set(crd.metadata.name, crd);
  return out;
}

/** Every `.ts` file under `dir` (a project path), with its text. */
function tsFiles(project: string, dir: string, into = new Map<string, string>()): Map<string, string> {
  if (!existsSync(join(project, dir))) return into;
  for (const e of readdirSync(join(project, dir), { withFileTypes: true })) {
    const path = posix.join(dir, e.name);
    if (e.isDirectory()) tsFiles(project, path, into);
    else if (e.name.endsWith('.ts')) into.set(path, readFileSync(join(project, path), 'utf8'));
  }
  return into;
}

/**
 * What a project's `tsc -p tsconfig.json` compiles: src/ (its runtime is the checkout's, read as
 * such by the type check), test/ and vitest.config.ts.
 */
function projectTsFiles(project: string): Map<string, string> {
  const files = tsFiles(project, 'test', tsFiles(project, 'src'));
  for (const path of [...files.keys()]) if (path.startsWith('src/runtime/')) files.delete(path);
  if (existsSync(join(project, 'vitest.config.ts')))
    files.set('vitest.config.ts', readFileSync(join(project, 'vitest.config.ts'), 'utf8'));
  return files;
}

interface Resource {
  group?: string;
  version: string;
  kind: string;
  path?: string;
  api?: unknown;
  external?: boolean;
}

interface Project {
  repo: string;
  resources: Resource[];
  plugins: string[];
}

function projectFile(project: string): Project {
  const p = parse(readFileSync(join(project, 'PROJECT'), 'utf8')) as {
    repo?: string;
    resources?: Resource[];
    plugins?: Record<string, unknown>;
  };
  return { repo: p.repo ?? '', resources: p.resources ?? [], plugins: Object.keys(p.plugins ?? {}) };
}

const lineCount = (file: string): number => readFileSync(file, 'utf8').trimEnd().split('\n').length;

interface Imported {
  import: Run;
  /** `tsop manifests` in the result, once the import succeeded. */
  manifests?: Run;
}

const results = new Map<string, Imported>();
/** Type errors of every imported project, checked in one program (the runtime is read once). */
let typeErrorsOf: string[] = [];

(skip ? describe.skip : describe)('kubebuilder projects', () => {
  beforeAll(async () => {
    for (const name of KUBEBUILDER_PROJECTS) {
      const kb = join(corpus, name);
      expect(existsSync(join(kb, 'PROJECT')), `${kb} is missing; run bash scripts/kubebuilder-corpus.sh`).toBe(true);
      const out = join(root, name);
      const run = await tsop(['import', 'kubebuilder', kb, '--dir', out, '--scaffold'], root);
      results.set(name, { import: run, ...(run.exitCode === 0 ? { manifests: await tsop(['manifests'], out) } : {}) });
    }
    const files = new Map<string, string>();
    let tsconfig: string | undefined;
    for (const [name, r] of results)
      if (r.import.exitCode === 0) {
        tsconfig ??= join(root, name, 'tsconfig.json');
        for (const [path, text] of projectTsFiles(join(root, name))) files.set(`${name}/${path}`, text);
      }
    typeErrorsOf = files.size > 0 ? typeErrors(files, tsconfig) : [];
  }, 10 * 60_000);

  describe.each(KUBEBUILDER_PROJECTS)('%s', (name) => {
    const kb = join(corpus, name);
    const out = join(root, name);

    /** The project's runs, after checking that its import succeeded. */
    const imported = (): Required<Imported> => {
      const r = results.get(name)!;
      expect(r.import.exitCode, `import failed: ${r.import.stderr}`).toBe(0);
      return r as Required<Imported>;
    };

    it('imports without --allow-lossy and prints no warning', () => {
      expect(warnings(imported().import.stderr)).toEqual([]);
    });

    it('tsop manifests in the result prints no warning', () => {
      const { manifests } = imported();
      expect(manifests.exitCode, manifests.stderr).toBe(0);
      expect(warnings(manifests.stderr)).toEqual([]);
    });

    it("tsop manifests writes controller-gen's CRDs, descriptions included", () => {
      imported();
      const want = crdsIn(kb);
      const got = crdsIn(out);
      expect(want.size, `${kb}/config/crd/bases holds no CRD`).toBeGreaterThan(0);
      expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
      const differences: string[] = [];
      for (const [crdName, crd] of want) {
        const mine = got.get(crdName);
        if (!mine) continue;
        const d = crdDifferences(crd, mine);
        differences.push(
          ...d.slice(0, 5).map((x) => `${crdName} ${x.version} ${x.path}: ${x.detail}`),
          ...(d.length > 5 ? [`${crdName}: ${d.length - 5} more differences`] : []),
        );
      }
      expect(differences).toEqual([]);
    });

    it('writes a project that type-checks as its tsconfig.json says, tests included', () => {
      imported();
      expect(tsFiles(out, 'src/api').size).toBeGreaterThan(0);
      expect(typeErrorsOf.filter((e) => e.startsWith(`${name}/`))).toEqual([]);
    });

    it("writes each kind in at most twice its Go types file's lines", () => {
      imported();
      const go = projectFile(kb);
      const ts = projectFile(out).resources;
      const tooLong: string[] = [];
      for (const r of go.resources.filter((x) => x.api !== undefined && !x.external && x.path)) {
        const goFile = join(kb, relative(go.repo, r.path!), `${r.kind.toLowerCase()}_types.go`);
        const mine = ts.find((t) => t.group === r.group && t.version === r.version && t.kind === r.kind);
        if (!mine?.path) {
          tooLong.push(`${r.group}/${r.version} ${r.kind}: not among the tsop project's resources`);
          continue;
        }
        const tsFile = join(out, mine.path, `${r.kind.toLowerCase()}.ts`);
        if (!existsSync(tsFile)) {
          tooLong.push(`${r.group}/${r.version} ${r.kind}: no ${relative(out, tsFile)}`);
          continue;
        }
        const [goLines, tsLines] = [lineCount(goFile), lineCount(tsFile)];
        if (tsLines > 2 * goLines)
          tooLong.push(
            `${relative(out, tsFile)}: ${tsLines} lines for ${goLines} in ${relative(kb, goFile)} (${(tsLines / goLines).toFixed(1)}×)`,
          );
      }
      expect(tooLong).toEqual([]);
    });

    it('carries each plugin PROJECT records that tsop has, and names the others', () => {
      const { import: run } = imported();
      const recorded = projectFile(out).plugins;
      const dropped: string[] = [];
      for (const key of projectFile(kb).plugins) {
        const twin = PLUGINS.find((p) => p.key === key || p.aliases?.includes(key));
        if (twin && !recorded.includes(twin.projectKey ?? twin.key))
          dropped.push(`${key}: not recorded in the imported PROJECT as ${twin.projectKey ?? twin.key}`);
        if (!twin && !run.stderr.includes(key))
          dropped.push(`${key}: tsop has no such plugin, and the import does not say so`);
      }
      expect(dropped).toEqual([]);
    });
  });
});
