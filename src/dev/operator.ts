/**
 * The operator `tsop dev` runs: the project's src/main.ts under Node with the dev module hooks
 * (no build step), pointed at the dev cluster by KUBECONFIG, health and metrics servers off so
 * nothing competes for ports, its webhook server on loopback, and LOG_LEVEL=debug so each reconcile's result reaches the stream.
 * The variables config/manager/manager.yaml gives the manager's container (deploy-image's image) are set too.
 * One process at a time: a restart stops the old one (SIGTERM, SIGKILL after a grace period)
 * before the new one starts. Each one holds a lifeline to this process (lifeline.ts), so it
 * ends with the session even when the session is killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { LIFELINE_ENV, LIFELINE_FD } from './lifeline.js';
import { readManagerEnv } from './manager-env.js';

export interface OperatorOptions {
  root: string;
  kubeconfigPath: string;
  /** Transpile cache shared by every run (see hooks.ts). */
  cacheDir: string;
  /** Flags added to each start (read at the start: e.g. the webhook port and certificate of the session). */
  args?: () => string[];
  /** Variables added to its environment (the console's: where its spans and webhook calls go). */
  env?: Record<string, string>;
  /** Each line the operator writes (stdout and stderr). */
  onLine: (line: string) => void;
  /** The operator exited on its own (not stopped by us). */
  onExit: (code: number | null, signal: NodeJS.Signals | null) => void;
}

const STOP_GRACE_MS = 5_000;
const REGISTER = new URL('./register.js', import.meta.url).href;

/** The environment of the operator process (see the top of this file). */
export function operatorEnv(o: {
  kubeconfigPath: string;
  cacheDir: string;
  /** What config/manager/manager.yaml gives the container (manager-env.ts); the session's environment wins. */
  declared?: Record<string, string>;
}): NodeJS.ProcessEnv {
  return {
    ...o.declared,
    ...process.env,
    KUBECONFIG: o.kubeconfigPath,
    LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'debug',
    TSOP_DEV_CACHE: o.cacheDir,
    // The webhook server on loopback only (runtime/webhook/server.ts's WEBHOOK_BIND_HOST_ENV): the dev plane calls 127.0.0.1.
    TSOP_WEBHOOK_BIND_HOST: '127.0.0.1',
    [LIFELINE_ENV]: String(LIFELINE_FD),
  };
}

export class OperatorProcess {
  private child: ChildProcess | undefined;
  private stopping = false;

  constructor(private readonly opts: OperatorOptions) {}

  get pid(): number | undefined {
    return this.child?.exitCode === null ? this.child.pid : undefined;
  }

  start(): void {
    const { root, kubeconfigPath, cacheDir, onLine, onExit } = this.opts;
    const child = spawn(
      process.execPath,
      [
        '--enable-source-maps',
        '--import',
        REGISTER,
        join(root, 'src/main.ts'),
        '--health-probe-bind-address=0',
        '--metrics-bind-address=0',
        ...(this.opts.args?.() ?? []),
      ],
      {
        cwd: root,
        env: { ...operatorEnv({ kubeconfigPath, cacheDir, declared: readManagerEnv(root) }), ...this.opts.env },
        // The last pipe is the lifeline: never written, closed by the kernel when this process ends.
        stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    this.stopping = false;
    for (const stream of [child.stdout, child.stderr])
      if (stream) createInterface({ input: stream }).on('line', onLine);
    child.on('exit', (code, signal) => {
      if (this.child === child && !this.stopping) onExit(code, signal);
    });
  }

  /** Stops the running operator, if any; resolves once it has exited. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.stopping = true;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
}
