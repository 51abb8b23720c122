/**
 * The console's own watch on the cluster (the dev process holds its kubeconfig): `kubectl get
 * --raw '<collection>?watch=1'` per resource, so it authenticates as kubectl does, on the embedded
 * plane and with --kubeconfig alike. `--raw` hands the API server's stream through untouched: one
 * compact JSON line per event, which costs kubectl nothing to re-print and this process one
 * JSON.parse to read (`kubectl get --watch -o json` decoded each event and printed it again,
 * indented, for the console to scan character by character). A watch that ends (a dropped
 * connection, the server's timeout) is started again after a second, until stopped; a watch with
 * no resourceVersion begins with every current object as ADDED, so nothing is missed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface WatchEvent {
  type: string;
  object: unknown;
}

/** One line of a watch stream as an event, or undefined for anything else (a blank line, a notice). */
export function watchEventOf(line: string): WatchEvent | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const e = JSON.parse(line) as { type?: unknown; object?: unknown };
    return typeof e.type === 'string' ? { type: e.type, object: e.object } : undefined;
  } catch {
    return undefined;
  }
}

export interface WatchOptions {
  kubectl: string;
  kubeconfigPath: string;
  /** The collection's path for every namespace: `/apis/cache.example.com/v1alpha1/memcacheds`, `/api/v1/events`. */
  path: string;
  onEvent: (type: string, object: unknown) => void;
}

export class ResourceWatch {
  private child: ChildProcess | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly opts: WatchOptions) {}

  start(): void {
    if (this.stopped) return;
    const { kubectl, kubeconfigPath, path, onEvent } = this.opts;
    const child = spawn(kubectl, ['get', '--raw', `${path}?watch=1`], {
      env: { ...process.env, KUBECONFIG: kubeconfigPath },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    this.child = child;
    if (child.stdout)
      createInterface({ input: child.stdout }).on('line', (line) => {
        const e = watchEventOf(line);
        // An ERROR event (an expired watch) is followed by the stream's end, and a new watch.
        if (e && e.type !== 'ERROR') onEvent(e.type, e.object);
      });
    child.on('error', () => undefined);
    child.on('exit', () => {
      if (this.child !== child || this.stopped) return;
      this.timer = setTimeout(() => this.start(), 1000);
    });
  }

  stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((done) => {
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  }
}
