/**
 * `npm run demo`: tsop's main job in one command. Gets what it needs (the CLI built; the
 * control-plane binaries downloaded, checked, into setup-envtest's cache while the rest goes on,
 * or built with Go when the download hosts are unreachable), scaffolds the Memcached operator
 * with the deploy-image plugin into a temp dir, generates its manifests and compiles it, starts an
 * embedded control plane (the fuller one, with controllers, a scheduler and a kwok node, when its
 * binaries can be had), runs the operator as a process, then applies the sample, scales it and
 * deletes it, printing one line per step with the elapsed time. Every step checks what it claims
 * and fails with one line otherwise. Cleans up on success, failure, Ctrl-C (SIGINT) and SIGTERM:
 * no process, port or temp dir left.
 *
 * Run with `node --import ./runtime/testing/register.mjs scripts/demo.ts` (npm run demo).
 * DEMO_TIMEOUT_SECONDS bounds every wait (default 120).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type Options, type Result, type ResultPromise } from 'execa';
import {
  ControlPlaneAssetsMissingError,
  ensureAssets,
  locateAssets,
  mayDownload,
  startControlPlane,
  type BinaryAssets,
  type ControlPlane,
} from '../runtime/envtest/index.js';
import { isUnreachable } from '../runtime/envtest/download/index.js';

const TSOP = fileURLToPath(new URL('../', import.meta.url));
const IMAGE = 'memcached:1.6.26-alpine3.19';
const COMMAND = ['memcached', '--memory-limit=64', '-o', 'modern', '-v'];
const PORT = 11211;
const USER = 1001;
const WAIT_MS = Number(process.env['DEMO_TIMEOUT_SECONDS'] ?? 120) * 1000;

/** A failed step: printed as one line, never with a stack. */
class DemoError extends Error {
  override readonly name = 'DemoError';
}

const started = Date.now();
function step(text: string): void {
  const seconds = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
  process.stdout.write(`[${seconds} s] ${text}\n`);
}

// Everything to undo, newest last.
const children = new Set<ResultPromise>();
let plane: ControlPlane | undefined;
let planeBooting: Promise<unknown> | undefined;
let workDir: string | undefined;
let cleaning: Promise<void> | undefined;

/** Runs a command in its own process group, so that stopping it stops everything it started. */
function spawn(cmd: string, args: string[], opts: Options = {}): ResultPromise<{ all: true; reject: false }> {
  const child = execa(cmd, args, { ...opts, all: true, reject: false, detached: true }) as ResultPromise<{
    all: true;
    reject: false;
  }>;
  children.add(child);
  void child.finally(() => children.delete(child));
  return child;
}

async function stopGroup(child: ResultPromise): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, s);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const killer = setTimeout(() => signal('SIGKILL'), 5000);
  await child.catch(() => undefined);
  clearTimeout(killer);
  signal('SIGKILL'); // anything the leader left behind in its group
}

/** How long each part of the last cleanup took, for the closing line. */
const stopTimes: string[] = [];

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    const timed = async (what: string, stop: () => Promise<unknown>) => {
      const t = Date.now();
      await stop();
      stopTimes.push(`${what} ${((Date.now() - t) / 1000).toFixed(1)} s`);
    };
    await timed('processes', () => Promise.all([...children].map(stopGroup)));
    // A plane still booting is waited for, then stopped.
    await timed('control plane', async () => (await planeBooting?.catch(() => undefined), plane?.stop()));
    const dir = workDir;
    if (dir) await timed('temp dir', async () => rmSync(dir, { recursive: true, force: true }));
  })();
  return cleaning;
}

let interrupted = false;
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.on(signal, () => {
    interrupted = true;
    process.stdout.write(
      `\n${signal}: stopping the operator and the control plane, removing ${workDir ?? 'the temp dir'}\n`,
    );
    void cleanup().finally(() => process.exit(code));
  });
}

async function run(
  cmd: string,
  args: string[],
  what: string,
  opts: Options = {},
): Promise<Result<{ all: true; reject: false }>> {
  const result = await spawn(cmd, args, opts);
  if (result.exitCode !== 0) {
    const tail =
      String(result.all ?? '')
        .trim()
        .split('\n')
        .slice(-1)[0] ?? '';
    throw new DemoError(`${what} failed (exit ${result.exitCode}): ${tail}`);
  }
  return result;
}

/** Polls `check` until it returns a value; fails naming `what` after DEMO_TIMEOUT_SECONDS. */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new DemoError(`timed out after ${WAIT_MS / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The newest modification time of a file, or of any file under a folder. */
function newestMtime(dir: string): number {
  if (!statSync(dir).isDirectory()) return statSync(dir).mtimeMs;
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

interface Deployment {
  spec: {
    replicas: number;
    template: {
      spec: {
        containers: {
          image: string;
          command?: string[];
          ports?: { containerPort: number }[];
          securityContext?: { runAsUser?: number };
        }[];
      };
    };
  };
}
interface Memcached {
  status?: { conditions?: { type: string; status: string; reason: string; message: string }[] };
}

/**
 * The fuller plane's binaries: found, else downloaded (checked) into the cache, else built with
 * Go when the download hosts cannot be reached; else the envtest trio alone if that is found
 * (the demo then runs on the smaller plane).
 */
async function controlPlaneBinaries(): Promise<{ assets: BinaryAssets; fuller: boolean }> {
  const found = locateAssets(undefined, process.env, { controllers: true });
  if (found) {
    step(`control-plane binaries found in ${found.source}`);
    return { assets: found, fuller: true };
  }
  if (mayDownload(undefined, process.env)) {
    const started = Date.now();
    step(
      'downloading the control-plane binaries (etcd, kube-apiserver, kubectl, kube-controller-manager, kube-scheduler, kwok), checked, while the operator is built',
    );
    try {
      const assets = await ensureAssets(
        undefined,
        process.env,
        { controllers: true },
        { progress: (line) => step(`  ${line}`) },
      );
      step(`control-plane binaries ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${assets.source}`);
      return { assets, fuller: true };
    } catch (error) {
      if (!(error instanceof ControlPlaneAssetsMissingError)) throw error;
      // A wrong checksum or a missing version is news to act on, not a reason to build instead.
      if (!isUnreachable(error.cause)) throw new DemoError(error.message);
      step(error.message);
    }
  }
  const goInstalled = (await execa('go', ['version'], { reject: false })).exitCode === 0;
  if (goInstalled) {
    step(
      'building the control-plane binaries with Go instead (bash scripts/control-plane.sh; minutes on a cold machine)',
    );
    // Its progress lines go straight to the terminal.
    await run('bash', [join(TSOP, 'scripts/control-plane.sh')], 'bash scripts/control-plane.sh', {
      cwd: TSOP,
      stderr: 'inherit',
    });
    const built = locateAssets(undefined, process.env, { controllers: true });
    if (built) return { assets: built, fuller: true };
  }
  // Binaries found elsewhere (e.g. setup-envtest's) still run the demo on a smaller plane.
  const trio = locateAssets();
  if (trio) {
    step(`control-plane binaries found in ${trio.source} (etcd, kube-apiserver and kubectl only)`);
    return { assets: trio, fuller: false };
  }
  throw new DemoError(
    "no control-plane binaries, none downloaded and no Go to build them: run 'npx tsop envtest use --fuller' where the download hosts (or a mirror: TSOP_ENVTEST_INDEX_URL) answer",
  );
}

async function main(): Promise<void> {
  process.stdout.write(
    'tsop demo: scaffold, generate, run and prove the Memcached operator (deploy-image) on an embedded control plane\n',
  );
  // The binaries come while the CLI is built and the project scaffolded, installed and compiled.
  const binaries = controlPlaneBinaries();
  binaries.catch(() => undefined);

  // bin/tsop.js runs the bundle, which the build writes after compiling: it is up to date when it is newer than every input.
  const cli = join(TSOP, 'dist/bundle/cli.cjs');
  const inputs = [
    join(TSOP, 'src'),
    join(TSOP, 'templates'),
    join(TSOP, 'scripts/bundle.mjs'),
    join(TSOP, 'scripts/precompile-templates.mjs'),
  ];
  if (!existsSync(cli) || statSync(cli).mtimeMs < Math.max(...inputs.map(newestMtime))) {
    await run('npm', ['run', '--silent', 'build'], 'npm run build', { cwd: TSOP });
    step('tsop CLI built');
  } else step('tsop CLI up to date');

  workDir = mkdtempSync(join(tmpdir(), 'tsop-demo-'));
  const dir = join(workDir, 'memcached-operator');
  mkdirSync(dir);
  const inProject: Options = { cwd: dir, env: { TSOP_DEPENDENCY: `file:${TSOP}`, NO_COLOR: '1' } };
  const tsop = (args: string[], what: string) =>
    run(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], what, inProject);
  await tsop(['init', '--domain', 'example.com', '--repo', 'memcached-operator', '--skip-install'], 'tsop init');
  await tsop(
    [
      'create',
      'api',
      '--group',
      'cache',
      '--version',
      'v1alpha1',
      '--kind',
      'Memcached',
      '--plugins',
      'deploy-image/v1-alpha',
      '--image',
      IMAGE,
      '--image-container-command',
      COMMAND.join(','),
      '--image-container-port',
      String(PORT),
      '--run-as-user',
      String(USER),
    ],
    'tsop create api --plugins deploy-image/v1-alpha',
  );
  step(
    `scaffolded the Memcached operator (deploy-image: ${IMAGE}) in ${dir}, its CRD and RBAC generated (tsop manifests)`,
  );

  // The control plane boots while the operator's dependencies install and it compiles. Its CRD
  // goes in as the plane starts, so kube-controller-manager's garbage collector knows the kind
  // from its first discovery instead of its next one (every 30 s).
  const crds = [join(dir, 'config/crd/bases')];
  const booting = (async () => {
    const { assets, fuller } = await binaries;
    if (!assets.kubectl)
      throw new DemoError(`no kubectl next to kube-apiserver (${assets.source}): run 'npx tsop envtest use --fuller'`);
    plane = await startControlPlane(
      fuller ? { controllers: true, nodes: 1, crdDirectoryPaths: crds } : { crdDirectoryPaths: crds },
    );
    step(
      fuller
        ? 'control plane up: etcd, kube-apiserver, kube-controller-manager, kube-scheduler, one kwok node; CRD installed: memcacheds.cache.example.com'
        : 'control plane up: etcd and kube-apiserver only — note: kube-controller-manager, ' +
            'kube-scheduler or kwok are missing, so no pods run and nothing is garbage-collected; the ' +
            "steps that need them are skipped ('npx tsop envtest use --fuller' gets them)",
    );
    return { plane, assets, fuller };
  })();
  booting.catch(() => undefined);
  planeBooting = booting;
  const building = (async () => {
    // tsop is linked from this checkout: --ignore-scripts keeps npm from rebuilding it (its `prepare`).
    await run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'],
      'npm install',
      inProject,
    );
    step('installed its dependencies (npm install)');
    await run('npm', ['run', 'build'], 'npm run build', inProject);
    step('compiled the operator (npm run build: tsop manifests, tsc)');
  })();
  // Whichever fails first ends the demo at once.
  const [{ plane: up, assets, fuller }] = await Promise.all([booting, building]);
  const kc = up.kubeconfigPath;
  const kubectl = (args: string[], input?: string) =>
    run(assets.kubectl!, args, `kubectl ${args.slice(0, 2).join(' ')}`, {
      env: { KUBECONFIG: kc },
      ...(input === undefined ? {} : { input }),
    });
  const get = async <T>(args: string[]): Promise<T | undefined> => {
    const got = await spawn(assets.kubectl!, ['get', ...args, '-o', 'json'], { env: { KUBECONFIG: kc } });
    if (got.exitCode === 0) return JSON.parse(String(got.stdout)) as T;
    if (/NotFound/.test(String(got.all))) return undefined;
    throw new DemoError(`kubectl get ${args.join(' ')}: ${String(got.all).trim()}`);
  };
  const runningPods = async () =>
    (
      (
        await get<{ items: { status: { phase: string } }[] }>([
          'pods',
          '-n',
          'default',
          '-l',
          'app.kubernetes.io/name=memcached-operator',
        ])
      )?.items ?? []
    ).filter((p) => p.status.phase === 'Running').length;

  const operator = spawn(
    process.execPath,
    ['build/main.js', '--metrics-bind-address=0', '--health-probe-bind-address=0'],
    {
      cwd: dir,
      env: { KUBECONFIG: kc, MEMCACHED_IMAGE: IMAGE },
    },
  );
  let operatorLog = '';
  operator.all?.on('data', (c: Buffer) => void (operatorLog += c.toString()));
  void operator.then((r) => {
    if (!cleaning)
      process.stderr.write(
        `demo: the operator exited early (${r.exitCode}): ${operatorLog.trim().split('\n').slice(-1)[0] ?? ''}\n`,
      );
  });
  await waitFor('the operator to start', async () =>
    /"msg":"starting manager"/.test(operatorLog)
      ? true
      : operator.exitCode !== null
        ? Promise.reject(new DemoError(`the operator exited: ${operatorLog.trim().split('\n').slice(-1)[0] ?? ''}`))
        : undefined,
  );
  step(`operator running: node build/main.js (pid ${operator.pid})`);

  await kubectl(['apply', '-n', 'default', '-f', join(dir, 'config/samples/cache_v1alpha1_memcached.yaml')]);
  step('sample applied: memcached-sample (size 1)');

  const deployment = await waitFor('the Deployment', () =>
    get<Deployment>(['deployment', 'memcached-sample', '-n', 'default']),
  );
  const container = deployment.spec.template.spec.containers[0];
  const facts = {
    image: container?.image,
    command: container?.command?.join(' '),
    port: container?.ports?.[0]?.containerPort,
    user: container?.securityContext?.runAsUser,
  };
  if (facts.image !== IMAGE || facts.command !== COMMAND.join(' ') || facts.port !== PORT || facts.user !== USER) {
    throw new DemoError(`the Deployment does not run what was asked: ${JSON.stringify(facts)}`);
  }
  step(
    `Deployment created: image ${facts.image}, command "${facts.command}", port ${facts.port}, runAsUser ${facts.user}, replicas ${deployment.spec.replicas}`,
  );

  const available = await waitFor('condition Available=True', async () => {
    const c = (await get<Memcached>(['memcached', 'memcached-sample', '-n', 'default']))?.status?.conditions?.find(
      (x) => x.type === 'Available',
    );
    return c?.status === 'True' ? c : undefined;
  });
  if (fuller) {
    await waitFor('1 pod Running', async () => ((await runningPods()) === 1 ? true : undefined));
    step('pods Running: 1/1 (scheduled on the kwok node)');
  }
  step(`condition Available=True (${available.reason}): ${available.message}`);

  await kubectl([
    'patch',
    'memcached',
    'memcached-sample',
    '-n',
    'default',
    '--type=merge',
    '-p',
    '{"spec":{"size":3}}',
  ]);
  await waitFor('the Deployment to have 3 replicas', async () =>
    (await get<Deployment>(['deployment', 'memcached-sample', '-n', 'default']))?.spec.replicas === 3
      ? true
      : undefined,
  );
  if (fuller) await waitFor('3 pods Running', async () => ((await runningPods()) === 3 ? true : undefined));
  step(fuller ? 'scaled: size 3 → Deployment replicas 3, pods Running 3/3' : 'scaled: size 3 → Deployment replicas 3');

  await kubectl(['delete', 'memcached', 'memcached-sample', '-n', 'default', '--wait=false']);
  const warning = await waitFor("the finalizer's Warning event", async () => {
    const events = await get<{ items: { type: string; reason: string; note: string; regarding: { name: string } }[] }>([
      'events.v1.events.k8s.io',
      '-n',
      'default',
    ]);
    return events?.items.find((e) => e.type === 'Warning' && e.regarding.name === 'memcached-sample');
  });
  await waitFor('the Memcached to be gone', async () =>
    (await get<Memcached>(['memcached', 'memcached-sample', '-n', 'default'])) === undefined ? true : undefined,
  );
  step(`finalizer ran: Warning ${warning.reason} "${warning.note}"; the Memcached is gone`);
  if (fuller) {
    await waitFor('the Deployment to be garbage-collected', async () =>
      (await get<Deployment>(['deployment', 'memcached-sample', '-n', 'default'])) === undefined ? true : undefined,
    );
    step('Deployment garbage-collected (owner reference, kube-controller-manager)');
  }

  await cleanup();
  step(`cleaned up: operator stopped, control plane stopped, ${workDir} removed (${stopTimes.join(', ')})`);
  process.stdout.write(`demo passed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

try {
  await main();
} catch (err) {
  // After Ctrl-C the step in progress fails because its process was stopped: not news; the
  // signal handler finishes the cleanup and exits.
  if (!interrupted) {
    const message =
      err instanceof DemoError
        ? err.message
        : err instanceof Error
          ? `${err.name}: ${err.message.split('\n')[0]}`
          : String(err);
    process.stderr.write(`demo failed: ${message}\n`);
    await cleanup();
    // A download still under way (it resumes next time) must not keep the demo alive.
    process.exit(1);
  }
}
