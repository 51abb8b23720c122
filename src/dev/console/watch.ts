/**
 * The console's own watch on the cluster (the dev process holds its kubeconfig): `kubectl get
 * --watch -o json --output-watch-events` per resource, so it works the same on the embedded plane
 * and with --kubeconfig. kubectl prints one JSON document per event, indented over many lines;
 * JsonSplitter cuts the stream into documents. A watch that ends (a dropped connection, an expired
 * resourceVersion) is started again after a second, until stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** Cuts a stream of concatenated JSON documents into the documents' texts. */
export class JsonSplitter {
  private buffer = '';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private scanned = 0;

  /** The complete documents this chunk finishes, in order. */
  push(chunk: string): string[] {
    this.buffer += chunk;
    const out: string[] = [];
    let start = 0;
    for (let i = this.scanned; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
        continue;
      }
      if (c === '"') this.inString = true;
      else if (c === '{' || c === '[') this.depth++;
      else if (c === '}' || c === ']') {
        this.depth--;
        if (this.depth === 0) {
          out.push(this.buffer.slice(start, i + 1).trim());
          start = i + 1;
        }
      }
    }
    this.buffer = this.buffer.slice(start);
    this.scanned = this.buffer.length;
    return out;
  }
}

export interface WatchOptions {
  kubectl: string;
  kubeconfigPath: string;
  /** A resource as kubectl names it: `memcacheds.cache.example.com`, `deployments.apps`, `events`. */
  resource: string;
  onEvent: (type: string, object: unknown) => void;
}

export class ResourceWatch {
  private child: ChildProcess | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly opts: WatchOptions) {}

  start(): void {
    if (this.stopped) return;
    const { kubectl, kubeconfigPath, resource, onEvent } = this.opts;
    const child = spawn(
      kubectl,
      ['get', resource, '--all-namespaces', '--watch', '-o', 'json', '--output-watch-events'],
      {
        env: { ...process.env, KUBECONFIG: kubeconfigPath },
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    this.child = child;
    const splitter = new JsonSplitter();
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      for (const doc of splitter.push(chunk)) {
        try {
          const e = JSON.parse(doc) as { type?: unknown; object?: unknown };
          if (typeof e.type === 'string') onEvent(e.type, e.object);
        } catch {
          // Not a watch event (kubectl's own notice): skipped.
        }
      }
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
