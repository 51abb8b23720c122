/**
 * The seed operators' shared steps: scaffold a fresh project with the built CLI (tsop installed
 * from this checkout), copy in the files the tutorial's author writes by hand, install, generate
 * manifests and build; then run the operator as a real process against a harness control plane
 * and read its log. Every temp dir is removed and every operator stopped after the test file
 * (vitest loads this module once per file).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterAll, expect } from 'vitest';
import { locateAssets } from '../../../runtime/envtest/index.js';

export const TSOP = fileURLToPath(new URL('../../../', import.meta.url));
export const SECONDS = 1000;
export const MINUTES = 60 * SECONDS;

/** The harness control plane with kube-controller-manager, kube-scheduler and one kwok node. */
export const FULLER_PLANE = { controllers: true, nodes: 1 } as const;

const tempRoot = mkdtempSync(join(tmpdir(), 'tsop-seed-'));
const operators = new Set<Operator>();
afterAll(async () => {
  await Promise.all([...operators].map((o) => o.stop()));
  rmSync(tempRoot, { recursive: true, force: true });
});

/** The harness's kubectl (scripts/control-plane.sh builds it next to kube-apiserver). */
export function kubectlPath(): string {
  const path = locateAssets()?.kubectl;
  if (!path) throw new Error('kubectl not found next to kube-apiserver: run `bash scripts/control-plane.sh`');
  return path;
}

export interface SeedOptions {
  /** The project directory's name (also the project name). */
  name: string;
  /** `tsop init` flags. */
  init: string[];
  /** One `tsop create api` flag list per kind. */
  apis: string[][];
  /** test/e2e/seeds/<fixture>/, laid out like the project: its files replace or join the scaffolded ones. */
  fixture?: string;
  /** Lines the author adds to a scaffolded file, inserted after the first line equal to `after`. */
  insertions?: { file: string; after: string; insert: string }[];
}

export interface SeedProject {
  readonly dir: string;
  /** Runs a command in the project; never rejects (check exitCode). */
  run(cmd: string, args: string[], env?: Record<string, string>): ResultPromise<{ all: true; reject: false }>;
}

/** init + create api with the built CLI, the author's files, npm install, manifests and build. */
export async function scaffoldSeed(o: SeedOptions): Promise<SeedProject> {
  const dir = join(mkdtempSync(join(tempRoot, 'p-')), o.name);
  const run: SeedProject['run'] = (cmd, args, env = {}) =>
    execa(cmd, args, {
      cwd: dir,
      env: { NO_COLOR: '1', TSOP_DEPENDENCY: `file:${TSOP}`, ...env },
      all: true,
      reject: false,
      extendEnv: true,
    });
  const tsop = (...args: string[]) => run(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args]);
  mkdirSync(dir);
  const init = await tsop('init', ...o.init, '--skip-install');
  expect(init.exitCode, init.all).toBe(0);
  for (const api of o.apis) {
    const create = await tsop('create', 'api', ...api, '--make=false');
    expect(create.exitCode, create.all).toBe(0);
  }
  if (o.fixture) cpSync(join(TSOP, 'test/e2e/seeds', o.fixture), dir, { recursive: true });
  for (const { file, after, insert } of o.insertions ?? []) {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    const at = lines.indexOf(after);
    expect(at, `no line '${after}' in the scaffolded ${file}`).toBeGreaterThanOrEqual(0);
    lines.splice(at + 1, 0, insert);
    writeFileSync(join(dir, file), lines.join('\n'));
  }
  // Packages come from the npm cache every project shares; tsop is a link to this checkout, whose
  // `prepare` (a build of tsop, done above) would otherwise run again, racing other test files.
  const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts']);
  expect(install.exitCode, install.all).toBe(0);
  const build = await run('npm', ['run', 'build']); // tsop manifests && tsc: the author's code type-checks
  expect(build.exitCode, build.all).toBe(0);
  return { dir, run };
}

export interface Operator {
  /** The parsed log lines whose msg matches. */
  logLines(msg: string | RegExp): Record<string, unknown>[];
  /** SIGTERM, then the exit code (SIGKILL after 10 s). */
  stop(): Promise<number | undefined>;
}

/** `node build/main.js` against the control plane; ready once it serves metrics (plain HTTP, a free loopback port). */
export async function startOperator(
  project: SeedProject,
  kubeconfigPath: string,
  args: string[] = [],
): Promise<Operator> {
  const child = execa(
    process.execPath,
    [
      'build/main.js',
      '--metrics-bind-address=127.0.0.1:0',
      '--metrics-secure=false',
      '--health-probe-bind-address=0',
      ...args,
    ],
    {
      cwd: project.dir,
      env: { KUBECONFIG: kubeconfigPath },
      all: true,
      reject: false,
      forceKillAfterDelay: 10 * SECONDS,
    },
  );
  let logged = '';
  child.all?.on('data', (chunk: Buffer) => void (logged += chunk.toString()));
  // Complete JSON lines only: the last chunk may end mid-line.
  const parsed = (): Record<string, unknown>[] =>
    logged
      .split('\n')
      .slice(0, -1)
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  let exited: Promise<number | undefined> | undefined;
  const operator: Operator = {
    logLines: (msg) =>
      parsed().filter(
        (l) => typeof l['msg'] === 'string' && (typeof msg === 'string' ? l['msg'] === msg : msg.test(l['msg'])),
      ),
    stop() {
      exited ??= (async () => {
        child.kill('SIGTERM');
        const result = await child;
        operators.delete(operator);
        return result.exitCode;
      })();
      return exited;
    },
  };
  operators.add(operator);
  await waitUntil(
    'the operator serves metrics',
    () => operator.logLines('serving metrics').length > 0 || child.exitCode !== null,
    30 * SECONDS,
  );
  expect(child.exitCode, logged).toBeNull();
  return operator;
}

/** Polls `check` every 250 ms until it returns true; fails with `what` after `timeoutMs`. */
export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** kubectl against the control plane; never rejects. */
export function kubectl(kubeconfigPath: string, args: string[], input?: string) {
  return execa(kubectlPath(), args, {
    env: { KUBECONFIG: kubeconfigPath },
    all: true,
    reject: false,
    ...(input === undefined ? {} : { input }),
  });
}

/** `kubectl get -o json`, parsed; undefined when it is not found. */
export async function getJson<T = Record<string, unknown>>(
  kubeconfigPath: string,
  args: string[],
): Promise<T | undefined> {
  const got = await kubectl(kubeconfigPath, ['get', ...args, '-o', 'json']);
  if (got.exitCode !== 0) {
    if (/NotFound/.test(got.all)) return undefined;
    throw new Error(`kubectl get ${args.join(' ')}: ${got.all}`);
  }
  return JSON.parse(got.stdout) as T;
}
