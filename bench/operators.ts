/**
 * Builds the two Memcached operators the runtime benchmark runs in turn: kubebuilder v4.15.0's
 * deploy-image plugin (Go, controller-runtime) and tsop's deploy-image plugin (TypeScript, tsop's
 * runtime), both scaffolded with the same flags. Each gets the same two small bench-only edits,
 * made here and nowhere else: the worker count comes from BENCH_CONCURRENCY, and the Go client's
 * rate limiter is off (QPS -1) — tsop's client has none.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT } from './measure.js';

export interface Operator {
  name: 'kubebuilder (Go)' | 'tsop (TypeScript)';
  /** Command and arguments that start the operator outside a cluster. */
  command: string;
  args: string[];
  cwd: string;
  crdDir: string;
}

export const IMAGE = 'memcached:1.6.26-alpine3.19';
const API = ['--group', 'cache', '--version', 'v1alpha1', '--kind', 'Memcached'];
const DEPLOY_IMAGE = [
  '--plugins',
  'deploy-image/v1-alpha',
  '--image',
  IMAGE,
  '--image-container-command',
  'memcached,--memory-limit=64,-o,modern,-v',
  '--image-container-port',
  '11211',
  '--run-as-user',
  '1001',
];
const FLAGS = ['--metrics-bind-address=0', '--health-probe-bind-address=0'];

function patch(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from))
    throw new Error(`bench patch: '${from}' not found in ${file}; the scaffold changed, update bench/operators.ts`);
  writeFileSync(file, text.replace(from, to));
}

const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });

/** kubebuilder's Memcached operator, built with `go build` (warm module cache). */
export function buildGoOperator(root: string, kubebuilder: string): Operator {
  const dir = join(root, 'go', 'memcached-operator');
  const binary = join(dir, 'bin', 'manager');
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    run(kubebuilder, ['init', '--domain', 'example.com', '--repo', 'example.com/memcached-operator'], dir);
    run(kubebuilder, ['create', 'api', ...API, ...DEPLOY_IMAGE, '--make=false'], dir);
    writeFileSync(
      join(dir, 'internal/controller/bench_options.go'),
      `package controller\n\nimport (\n\t"os"\n\t"strconv"\n\n\tcrcontroller "sigs.k8s.io/controller-runtime/pkg/controller"\n)\n\n` +
        `// benchOptions: the worker count from BENCH_CONCURRENCY (bench/operators.ts adds this ` +
        `file).\nfunc benchOptions() crcontroller.Options {\n\tn, err := ` +
        `strconv.Atoi(os.Getenv("BENCH_CONCURRENCY"))\n\tif err != nil || n < 1 {\n\t\tn = ` +
        `1\n\t}\n\treturn crcontroller.Options{MaxConcurrentReconciles: n}\n}\n`,
    );
    patch(
      join(dir, 'internal/controller/memcached_controller.go'),
      'Owns(&appsv1.Deployment{}).\n\t\tComplete(r)',
      'Owns(&appsv1.Deployment{}).\n\t\tWithOptions(benchOptions()).\n\t\tComplete(r)',
    );
    writeFileSync(
      join(dir, 'cmd/bench_config.go'),
      `package main\n\nimport (\n\t"k8s.io/client-go/rest"\n\tctrl "sigs.k8s.io/controller-runtime"\n)\n\n` +
        `// benchConfig: client-side rate limiting off, as in the tsop operator ` +
        `(bench/operators.ts adds this file).\nfunc benchConfig() *rest.Config {\n\tc := ` +
        `ctrl.GetConfigOrDie()\n\tc.QPS = -1\n\treturn c\n}\n`,
    );
    patch(join(dir, 'cmd/main.go'), 'ctrl.NewManager(ctrl.GetConfigOrDie(),', 'ctrl.NewManager(benchConfig(),');
    // What a kubebuilder user runs next: deepcopy methods and the CRD, then the build.
    run('make', ['generate', 'manifests'], dir);
    run('go', ['build', '-o', binary, './cmd'], dir);
  }
  return { name: 'kubebuilder (Go)', command: binary, args: FLAGS, cwd: dir, crdDir: join(dir, 'config/crd/bases') };
}

/** tsop's Memcached operator, compiled to JavaScript and run with plain node. */
export function buildTsopOperator(root: string): Operator {
  const dir = join(root, 'ts', 'memcached-operator');
  const main = join(dir, 'build', 'main.js');
  if (!existsSync(main)) {
    mkdirSync(dir, { recursive: true });
    const tsop = join(ROOT, 'bin/tsop.js');
    run(
      process.execPath,
      [tsop, 'init', '--domain', 'example.com', '--repo', 'memcached-operator', '--skip-install'],
      dir,
    );
    run(process.execPath, [tsop, 'create', 'api', ...API, ...DEPLOY_IMAGE], dir);
    patch(
      join(dir, 'src/controllers/memcached-controller.ts'),
      '.owns(deploymentKind).complete(this)',
      ".owns(deploymentKind).withOptions({ maxConcurrentReconciles: Number(process.env['BENCH_CONCURRENCY'] ?? 1) }).complete(this)",
    );
    // tsop comes from this checkout (file:); --ignore-scripts keeps npm from rebuilding it.
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], dir);
    run('npm', ['run', '--silent', 'build'], dir);
  }
  return {
    name: 'tsop (TypeScript)',
    command: process.execPath,
    args: [...nodeFlags(dir), main, ...FLAGS],
    cwd: dir,
    crdDir: join(dir, 'config/crd/bases'),
  };
}

/**
 * The Node flags the project deploys its manager with: the manager container's command in
 * config/manager/manager.yaml, between the node binary and build/main.js. The benchmark runs the
 * operator as its Deployment would.
 */
function nodeFlags(dir: string): string[] {
  const manifest = join(dir, 'config/manager/manager.yaml');
  const deployment = parseAllDocuments(readFileSync(manifest, 'utf8'))
    .map(
      (d) =>
        d.toJS() as {
          kind?: string;
          spec?: { template?: { spec?: { containers?: { name: string; command?: string[] }[] } } };
        },
    )
    .find((d) => d?.kind === 'Deployment');
  const command = deployment?.spec?.template?.spec?.containers?.find((c) => c.name === 'manager')?.command ?? [];
  const main = command.indexOf('build/main.js');
  if (main < 1)
    throw new Error(
      `bench: no manager command ending in build/main.js in ${manifest}; the scaffold changed, update bench/operators.ts`,
    );
  return command.slice(1, main);
}
