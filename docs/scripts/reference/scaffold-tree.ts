/**
 * The scaffold tree the book shows, from a real scaffold: `tsop init` and `tsop create api` run
 * with the built CLI in a temp dir, and the files they wrote are drawn as a tree with a note on
 * the ones a reader should know. The embedded runtime is folded into one line.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NOTES: Readonly<Record<string, string>> = {
  PROJECT: "what was scaffolded (kubebuilder's PROJECT format)",
  'package.json': 'npm scripts in place of make targets',
  'src/main.ts': 'flags, the manager, controller and webhook registration',
  'src/api/v1/cronjob.ts': 'the CronJob kind: decorated spec and status classes',
  'src/api/v1/groupversion.ts': 'group and version of the classes in this folder',
  'src/controllers/cronjob-controller.ts': 'the reconciler and its @Rbac rules',
  'src/controllers/cronjob-controller.test.ts': 'its test, on a real control plane',
  'config/crd/bases': 'CRDs, written by tsop manifests',
  'config/rbac/role.yaml': 'ClusterRole, written by tsop manifests from @Rbac',
  'config/samples': 'example objects (kubectl apply -k config/samples)',
  'config/default': 'kustomize: everything npm run deploy applies',
  'config/manager': 'the manager Deployment',
  'test/e2e': 'end-to-end tests against a cluster you name',
  Dockerfile: 'the manager image',
  'hack/boilerplate.ts.txt': 'the license header of generated files',
};

function draw(root: string, dir: string, prefix: string, lines: string[]): void {
  const entries = readdirSync(join(root, dir))
    .filter((e) => e !== 'node_modules' && e !== '.git')
    .sort((a, b) => {
      const da = statSync(join(root, dir, a)).isDirectory() ? 0 : 1;
      const db = statSync(join(root, dir, b)).isDirectory() ? 0 : 1;
      return da - db || a.localeCompare(b);
    });
  entries.forEach((name, i) => {
    const rel = dir ? `${dir}/${name}` : name;
    const last = i === entries.length - 1;
    const isDir = statSync(join(root, rel)).isDirectory();
    const note = NOTES[rel] ? `  # ${NOTES[rel]}` : '';
    if (rel === 'src/runtime') {
      const count = (readdirSync(join(root, rel), { recursive: true }) as string[]).filter((f) =>
        statSync(join(root, rel, f)).isFile(),
      ).length;
      lines.push(
        `${prefix}${last ? '└── ' : '├── '}runtime/  # the reconcile runtime, embedded as source (${count} files)`,
      );
      return;
    }
    lines.push(`${prefix}${last ? '└── ' : '├── '}${name}${isDir ? '/' : ''}${note}`);
    if (isDir) draw(root, rel, `${prefix}${last ? '    ' : '│   '}`, lines);
  });
}

/** The tree of `tsop init --domain tutorial.tsop.dev` + `tsop create api --group batch --version v1 --kind CronJob`. */
export function scaffoldTree(tsopRoot: string): string {
  const tmp = mkdtempSync(join(tmpdir(), 'tsop-docs-tree-'));
  try {
    const dir = join(tmp, 'project');
    const tsop = (args: string[]) =>
      execFileSync(process.execPath, [join(tsopRoot, 'bin/tsop.js'), ...args], {
        stdio: 'pipe',
        env: { ...process.env, NO_COLOR: '1' },
      });
    tsop(['init', '--dir', dir, '--domain', 'tutorial.tsop.dev', '--skip-install']);
    tsop([
      'create',
      'api',
      '--dir',
      dir,
      '--group',
      'batch',
      '--version',
      'v1',
      '--kind',
      'CronJob',
      '--resource',
      '--controller',
    ]);
    const lines = ['project/'];
    draw(dir, '', '', lines);
    return lines.join('\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
