/**
 * What the manager tells `tsop dev`'s console, and only when TSOP_DEV_CONSOLE_URL names a loopback
 * URL (only `tsop dev` sets it): its spans (tracing/dev-console.ts, posted to <url>/dev/spans), and
 * every object its informers add, change or delete, posted in batches every 50 ms to
 * <url>/dev/objects, and when an informer has listed, the uids it holds (so the console learns
 * what was deleted while the operator was down). The console then shows the
 * objects the operator sees without watching them a second time: a watch of its own cost the API
 * server a second stream and the machine a process per kind, for every change the operator makes.
 * Posting never holds up the operator (the batches go one after another, in the background) and
 * failures are ignored. Unset, as in a deployed operator, nothing is
 * observed and nothing is sent.
 */
// node:http through rest/node-http.ts (required, not imported), so the hook adds no undici load on Node 22+.
import { nodeHttp } from '../rest/node-http.js';
import { apiVersionOf, gvkString, type GroupVersionKind, type KubeObject } from '../apimachinery/model.js';
import type { RESTMapper } from '../restmapper/index.js';
import { startDevConsoleTracing, type DevConsoleTracing } from '../tracing/index.js';

export const DEV_CONSOLE_ENV = 'TSOP_DEV_CONSOLE_URL';

/** How often the reported objects are sent. */
const FLUSH_MS = 50;

/** The console's URL for `path`, or undefined unless the environment names a loopback console. */
export function devConsoleURL(path: string, env: NodeJS.ProcessEnv = process.env): URL | undefined {
  const base = env[DEV_CONSOLE_ENV];
  if (!base) return undefined;
  let url: URL;
  try {
    url = new URL(path, base);
  } catch {
    return undefined;
  }
  // Reports carry whole objects: they go to this machine only.
  return url.protocol === 'http:' && url.hostname === '127.0.0.1' ? url : undefined;
}

/** How long a post may take before it is given up (a console that stopped answering). */
const POST_TIMEOUT_MS = 5_000;

/**
 * Posts a JSON body to the console. The promise says when the post is over (answered, failed or
 * given up) and never rejects: a console that is gone is ignored, and a caller that does not need
 * the order of its posts does not wait for it.
 */
export function postToDevConsole(url: URL, body: string): Promise<void> {
  return new Promise((resolve) => {
    const req = nodeHttp.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      timeout: POST_TIMEOUT_MS,
    });
    req.on('response', (res) => res.resume());
    req.on('timeout', () => req.destroy());
    req.on('error', () => undefined);
    // The request's last event, whether it was answered, failed or given up.
    req.on('close', () => resolve());
    req.end(body);
  });
}

/**
 * The runtime's spans to the console, when the environment names one and no OpenTelemetry SDK is
 * registered (a project's own export wins); undefined otherwise.
 */
export function startDevConsoleSpans(env: NodeJS.ProcessEnv = process.env): DevConsoleTracing | undefined {
  const url = devConsoleURL('/dev/spans', env);
  return url ? startDevConsoleTracing((body) => postToDevConsole(url, body)) : undefined;
}

export type ObservedChange = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One batch as the console reads it (src/dev/console/index.ts). */
export interface DevObjectsReport {
  /** What the informers delivered, in order. */
  objects: Array<{
    /** As kubectl names it: `memcacheds.cache.example.com`, `deployments.apps`, `configmaps`. */
    resource: string;
    type: ObservedChange;
    /** When the informer delivered it, ms since the epoch. */
    at: number;
    object: KubeObject;
  }>;
  /** Informers that have just listed: every uid each holds, so the others are gone. */
  listed: Array<{ resource: string; apiVersion: string; kind: string; uids: string[] }>;
}

/** Reports a manager's informers to the dev console (see the module comment). */
export class DevObjectReporter {
  private objects: Array<{ gvk: GroupVersionKind; type: ObservedChange; at: number; object: KubeObject }> = [];
  private listed: Array<{ gvk: GroupVersionKind; uids: string[] }> = [];
  private timer: NodeJS.Timeout | undefined;
  /**
   * The batch being sent. One at a time, so that the console reads the changes in the order the
   * informers delivered them: two posts in flight at once can be answered in either order.
   */
  private sending: Promise<void> = Promise.resolve();
  private readonly resources = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly url: URL,
    private readonly mapper: Pick<RESTMapper, 'mapping'>,
  ) {}

  /** The reporter the environment asks for, or undefined (the usual case). */
  static fromEnv(
    mapper: Pick<RESTMapper, 'mapping'>,
    env: NodeJS.ProcessEnv = process.env,
  ): DevObjectReporter | undefined {
    const url = devConsoleURL('/dev/objects', env);
    return url ? new DevObjectReporter(url, mapper) : undefined;
  }

  observe(gvk: GroupVersionKind, type: ObservedChange, object: KubeObject): void {
    this.objects.push({ gvk, type, at: Date.now(), object });
    this.schedule();
  }

  /** An informer's list is complete: `objects` is all it holds. */
  synced(gvk: GroupVersionKind, objects: readonly KubeObject[]): void {
    const uids = objects.flatMap((o) => (o.metadata?.uid ? [o.metadata.uid] : []));
    this.listed.push({ gvk, uids });
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // What arrives while a batch is in flight goes in the next one, sent after it.
      this.sending = this.sending.then(() => this.flush());
    }, FLUSH_MS);
    // A report never keeps the process alive.
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    const objects = this.objects;
    const listed = this.listed;
    this.objects = [];
    this.listed = [];
    const report: DevObjectsReport = { objects: [], listed: [] };
    for (const o of objects) {
      const resource = await this.resourceOf(o.gvk);
      if (resource) report.objects.push({ resource, type: o.type, at: o.at, object: o.object });
    }
    for (const l of listed) {
      const resource = await this.resourceOf(l.gvk);
      if (resource) report.listed.push({ resource, apiVersion: apiVersionOf(l.gvk), kind: l.gvk.kind, uids: l.uids });
    }
    if (report.objects.length > 0 || report.listed.length > 0) await postToDevConsole(this.url, JSON.stringify(report));
  }

  /** The informer resolved its kind before it delivered anything, so this is the mapper's cache. */
  private resourceOf(gvk: GroupVersionKind): Promise<string | undefined> {
    const key = gvkString(gvk);
    let resource = this.resources.get(key);
    if (!resource) {
      resource = this.mapper.mapping(gvk).then(
        (m) => (gvk.group ? `${m.plural}.${gvk.group}` : m.plural),
        () => undefined,
      );
      this.resources.set(key, resource);
    }
    return resource;
  }
}
