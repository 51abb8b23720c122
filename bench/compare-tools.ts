/**
 * tsop's CLI side by side with the Go tools it replaces, on this machine, in one run:
 *   scaffolding  `tsop init --skip-install` + `tsop create api` (its default --make writes the
 *                CRD and RBAC; also reported with --make=false) vs `kubebuilder init` (its own
 *                post-steps `go get controller-runtime` and `go mod tidy`, warm module cache) +
 *                `kubebuilder create api --resource --controller --make=false`;
 *   generation   `tsop manifests` vs `controller-gen crd rbac:roleName=manager-role paths=./...`
 *                on equivalent projects of 1, 10 and 50 kinds written by bench/gen-projects.ts,
 *                whose CRDs are checked equivalent first (bench/crd-diff.ts);
 *   check        `tsop manifests --check` vs controller-gen + `git diff --exit-code` (CI's check).
 * Each pair runs RUNS times (default 5), alternating which goes first; the table gives medians and
 * the median of the pairwise ratios tsop/Go. Wall and CPU include process start-up; CPU and peak
 * RSS include child processes (controller-gen runs `go list`). tsop runs from a copy of the built
 * CLI taken at the start (snapshotCli), so `npm run build` first.
 *
 *   npm run bench:compare-tools            (KINDS=1,10,50 RUNS=5; the Go anchors are built once)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffCrdDirs } from './crd-diff.js';
import { writeProjects } from './gen-projects.js';
import { alternate, anchorsBin, load, measure, row, snapshotCli, TABLE_HEAD, type Sample } from './measure.js';

const RUNS = Number(process.env['RUNS'] ?? 5);
const KINDS = (process.env['KINDS'] ?? '1,10,50').split(',').map(Number);
const ONLY = process.env['ONLY'] ?? 'scaffold,generate,check';
const bin = anchorsBin();
const kubebuilder = join(bin, 'kubebuilder');
const controllerGen = join(bin, 'controller-gen');
const node = process.execPath;
const work = mkdtempSync(join(tmpdir(), 'tsop-bench-compare-'));
// The CLI as built when the run starts, copied so that a rebuild of dist/ meanwhile cannot mix versions.
const tsop = snapshotCli(join(work, 'tsop'));
const rows: string[] = [];
const version = (cmd: string, ...args: string[]) =>
  execFileSync(cmd, args, { encoding: 'utf8' }).split('\n')[0]?.trim();

console.log(
  `Node ${process.version}, ${version('go', 'version')}, ${version(kubebuilder, 'version')}, controller-gen ${version(controllerGen, '--version')}`,
);
console.log(`load average before: ${load()}`);

/** A fresh empty directory, named like a project (no dot: kubebuilder takes the name from it). */
let n = 0;
const fresh = (): string => {
  const d = join(work, `p${n++}`, 'bench-operator');
  mkdirSync(d, { recursive: true });
  return d;
};
const sum = (a: Sample, b: Sample): Sample => ({
  wallMs: a.wallMs + b.wallMs,
  cpuMs: a.cpuMs + b.cpuMs,
  peakRssMiB: Math.max(a.peakRssMiB, b.peakRssMiB),
});
const api = ['--group', 'cache', '--version', 'v1alpha1', '--kind', 'Memcached'];

try {
  if (ONLY.includes('scaffold')) {
    for (const make of ['true', 'false']) {
      const pair = alternate(
        RUNS,
        () => {
          const d = fresh();
          const a = measure(node, [tsop, 'init', '--domain', 'example.com', '--skip-install'], d);
          const r = sum(a, measure(node, [tsop, 'create', 'api', ...api, `--make=${make}`], d));
          rmSync(d, { recursive: true, force: true });
          return r;
        },
        () => {
          const d = fresh();
          const a = measure(
            kubebuilder,
            ['init', '--domain', 'example.com', '--repo', 'example.com/bench-operator'],
            d,
          );
          const r = sum(
            a,
            measure(kubebuilder, ['create', 'api', ...api, '--resource', '--controller', '--make=false'], d),
          );
          rmSync(d, { recursive: true, force: true });
          return r;
        },
      );
      rows.push(row(`scaffold: init + create api (tsop --make=${make}; kubebuilder --make=false)`, pair));
      console.log(rows.at(-1));
    }
  }

  for (const kinds of KINDS) {
    if (!ONLY.includes('generate') && !ONLY.includes('check')) break;
    const dir = join(work, `gen-${kinds}`);
    const { ts, go } = await writeProjects(dir, kinds);
    execFileSync('go', ['mod', 'tidy'], { cwd: go, stdio: 'ignore' });
    const cg = ['crd', 'rbac:roleName=manager-role', 'paths=./...', 'output:crd:artifacts:config=config/crd/bases'];
    measure(node, [tsop, 'manifests'], ts);
    measure(controllerGen, cg, go);
    const d = diffCrdDirs(join(ts, 'config/crd/bases'), join(go, 'config/crd/bases'));
    console.log(
      `${kinds} kinds: ${d.files} CRDs compared, ${d.differences.length} differences, ${d.descriptionDiffs} descriptions worded differently`,
    );
    for (const line of d.differences) console.log(`  ${line}`);
    const rbac = (p: string) => execFileSync('cat', [join(p, 'config/rbac/role.yaml')], { encoding: 'utf8' });
    console.log(`  RBAC role.yaml ${rbac(ts) === rbac(go) ? 'identical' : 'differs'}`);

    if (ONLY.includes('generate')) {
      const pair = alternate(
        RUNS,
        () => {
          rmSync(join(ts, 'config'), { recursive: true, force: true });
          return measure(node, [tsop, 'manifests'], ts);
        },
        () => {
          rmSync(join(go, 'config'), { recursive: true, force: true });
          return measure(controllerGen, cg, go);
        },
      );
      rows.push(row(`generate: ${kinds} kind${kinds > 1 ? 's' : ''}`, pair));
      console.log(rows.at(-1));
    }
    if (ONLY.includes('check')) {
      measure(node, [tsop, 'manifests'], ts);
      measure(controllerGen, cg, go);
      for (const p of [ts, go]) {
        execFileSync('git', ['init', '-q'], { cwd: p });
        execFileSync('git', ['add', '.'], { cwd: p });
        execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'bench'], {
          cwd: p,
        });
      }
      const pair = alternate(
        RUNS,
        () => measure(node, [tsop, 'manifests', '--check'], ts),
        () => measure('bash', ['-c', `${controllerGen} ${cg.join(' ')} && git diff --exit-code --quiet config`], go),
      );
      rows.push(
        row(`check: ${kinds} kind${kinds > 1 ? 's' : ''} (manifests --check vs controller-gen + git diff)`, pair),
      );
      console.log(rows.at(-1));
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log(
  `\nmedians of ${RUNS} alternating runs, ratio = median of pairwise tsop/Go; load average after: ${load()}\n`,
);
console.log(TABLE_HEAD);
for (const r of rows) console.log(r);
