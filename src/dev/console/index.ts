/**
 * The live console of `tsop dev` (on unless --console=false): a page on loopback that shows the
 * operator under development as it runs. It gathers from three places, none of which changes
 * what the operator does in production:
 * - the operator's spans, which its runtime posts to /dev/spans every 100 ms
 *   (runtime/tracing/dev-console.ts; an older runtime exports OTLP here instead);
 * - its /debug/controllers endpoint (queues, workers, waiting keys) on its health-probe port: the
 *   operator binds an ephemeral loopback port itself and logs it, and the session passes it on
 *   (a port chosen here and bound later could be taken in between, by any outgoing connection);
 * - its webhook server, which reports each call to TSOP_DEV_CONSOLE_URL (runtime/webhook/dev-console.ts,
 *   inert when the variable is unset);
 * and from the cluster: the objects of the project's kinds as the operator's informers deliver
 * them (runtime/manager/dev-console.ts posts them to /dev/objects), with a watch of its own
 * (watch.ts) for each kind until the operator's report covers it — before the operator first
 * runs, and for kinds it does not watch whole and cluster-wide; and one object's Events when its
 * detail is open. A second watch of every kind, and one of every Event, cost the API server a
 * stream and the machine a process each, for every change the operator makes.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { ResourceWatch } from './watch.js';
import { collectionPath, watchedResources, type WatchedResource } from './resources.js';
import { ConsoleServer } from './server.js';
import { ConsoleStore, kubeEventOf, type KubeEvent, type ObjectRef, type RestartMark } from './store.js';
import type { ReportedObjects } from './reported-objects.js';

/** The annotation the trigger button sets: an update of the object, which queues its reconcile. */
export const RECONCILE_REQUEST_ANNOTATION = 'tsop.dev/reconcile-requested-at';
/** How often the controllers' state is read. */
const TICK_MS = 1000;

export interface ConsoleCluster {
  kubectl: string;
  kubeconfigPath: string;
}

export class DevConsole {
  readonly store = new ConsoleStore();
  private readonly server: ConsoleServer;
  /** By resource; undefined while its version is being discovered. */
  private readonly watches = new Map<string, ResourceWatch | undefined>();
  /** What the console shows, by resource (kubectl's plural.group). */
  private readonly wanted = new Map<string, WatchedResource>();
  /** Resources the operator's informers report: the console's own watch of them is stopped. */
  private readonly fed = new Set<string>();
  private stopping = false;
  private cluster: ConsoleCluster | undefined;
  private ticker: NodeJS.Timeout | undefined;
  /** The running operator's health-probe port; undefined until it has logged it. */
  private debugPort: number | undefined;
  url = '';

  constructor(opts: { port?: number } = {}) {
    this.server = new ConsoleServer({
      store: this.store,
      trigger: (ref) => this.trigger(ref),
      objects: (report) => this.takeObjects(report),
      events: (ref) => this.eventsAbout(ref),
      ...(opts.port !== undefined ? { port: opts.port } : {}),
    });
  }

  async start(): Promise<string> {
    this.url = await this.server.listen();
    this.ticker = setInterval(() => void this.tick(), TICK_MS);
    return this.url;
  }

  /**
   * What the operator's environment gains: TSOP_DEV_CONSOLE_URL, to which its runtime sends its
   * spans, its informers' objects and its webhook calls. A project whose embedded runtime predates
   * the runtime's own span channel (no src/runtime/tracing/dev-console.ts) sends its spans through
   * the OTLP export its main.ts starts instead, pointed here.
   */
  operatorEnv(root: string): Record<string, string> {
    const env: Record<string, string> = { TSOP_DEV_CONSOLE_URL: this.url };
    if (existsSync(join(root, 'src/runtime/tracing/dev-console.ts')))
      // The runtime's channel stands in for a project's own export while the console is on.
      return { ...env, OTEL_TRACES_EXPORTER: 'none' };
    return {
      ...env,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${this.url}/v1/traces`,
      // The SDK's default is 5 s between exports; the console wants a reconcile on screen within a second.
      OTEL_BSP_SCHEDULE_DELAY: '100',
      // The SDK drops spans past 2,048 queued; a burst of reconciles (a thousand objects applied at once) queues more.
      OTEL_BSP_MAX_QUEUE_SIZE: '16384',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048',
    };
  }

  /** Flags added to the operator's: /debug/controllers on an ephemeral loopback port, which it logs. */
  operatorArgs(): string[] {
    return ['--health-probe-bind-address=127.0.0.1:0', '--debug-controllers'];
  }

  /** Where the operator that runs now serves /debug/controllers (undefined: it is (re)starting). */
  operatorProbes(port: number | undefined): void {
    this.debugPort = port;
  }

  /** Watches the project's kinds (again after its CRDs or RBAC change: new kinds are added). */
  watch(root: string, cluster: ConsoleCluster): void {
    this.cluster = cluster;
    for (const wanted of watchedResources(root)) {
      this.wanted.set(wanted.resource, wanted);
      if (this.watches.has(wanted.resource) || this.fed.has(wanted.resource)) continue;
      // Claimed at once, so a second call while discovery runs does not start it twice.
      this.watches.set(wanted.resource, undefined);
      void this.startWatch(wanted, cluster);
    }
  }

  /**
   * A batch of what the operator's informers delivered. A resource reported is the operator's to
   * tell from then on (its informer lists it again after each restart); objects of kinds the
   * console does not show are passed over.
   */
  private takeObjects(report: ReportedObjects): void {
    for (const { resource, type, at, object } of report.objects ?? []) {
      const wanted = this.wanted.get(resource);
      if (!wanted) continue;
      this.feedFromOperator(resource);
      this.store.addObjectEvent(type, object, wanted.served, at);
    }
    for (const { resource, apiVersion, kind, uids } of report.listed ?? []) {
      const wanted = this.wanted.get(resource);
      if (!wanted) continue;
      this.feedFromOperator(resource);
      // What the informer's first list lacks was deleted while no one watched (the operator was down).
      this.store.keepOnly({ apiVersion, kind }, new Set(uids));
    }
  }

  private feedFromOperator(resource: string): void {
    if (this.fed.has(resource)) return;
    this.fed.add(resource);
    const own = this.watches.get(resource);
    this.watches.delete(resource);
    void own?.stop();
  }

  private async startWatch(wanted: WatchedResource, cluster: ConsoleCluster): Promise<void> {
    const version = wanted.version ?? (await this.preferredVersion(wanted.group, cluster));
    if (this.fed.has(wanted.resource)) return;
    if (!version || this.stopping) {
      // Not served (yet): tried again on the next call of watch(), after the manifests change.
      this.watches.delete(wanted.resource);
      return;
    }
    const w = new ResourceWatch({
      ...cluster,
      path: collectionPath(wanted, version),
      onEvent: (type, object) => this.store.addObjectEvent(type, object, wanted.served),
    });
    this.watches.set(wanted.resource, w);
    w.start();
  }

  /** The version the API server prefers for a group (its discovery document), as kubectl would pick it. */
  private async preferredVersion(group: string, cluster: ConsoleCluster): Promise<string | undefined> {
    const doc = await getRaw<{ preferredVersion?: { version?: string } }>(cluster, `/apis/${group}`, 30_000);
    return doc?.preferredVersion?.version;
  }

  restart(mark: RestartMark): void {
    this.store.addRestart(mark);
  }

  ready(ms: number): void {
    this.store.restartReady(ms);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.ticker) clearInterval(this.ticker);
    await Promise.all([...this.watches.values()].map((w) => w?.stop()));
    await this.server.close();
  }

  private async tick(): Promise<void> {
    this.store.tick(await this.readDebug());
  }

  private readDebug(): Promise<unknown> {
    const port = this.debugPort;
    if (port === undefined) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/debug/controllers', timeout: 500 }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(text) as unknown);
          } catch {
            resolve(undefined);
          }
        });
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(undefined));
      req.end();
    });
  }

  /**
   * The Events about one object, read when its detail is opened (and again while it stays open):
   * a watch of every Event of the cluster cost the API server and this process more than the
   * rest of the console together, for a list that only an open object shows.
   */
  private async eventsAbout(ref: ObjectRef): Promise<KubeEvent[]> {
    const cluster = this.cluster;
    if (!cluster) return [];
    const selector = encodeURIComponent(`involvedObject.uid=${ref.uid}`);
    const path = `${ref.namespace ? `/api/v1/namespaces/${ref.namespace}` : '/api/v1'}/events?fieldSelector=${selector}`;
    const list = await getRaw<{ items?: unknown[] }>(cluster, path, 10_000);
    return (list?.items ?? []).map(kubeEventOf).sort((a, b) => a.at - b.at);
  }

  /** The trigger button: an annotation set with kubectl, an update the controller's watch sees. */
  private async trigger(ref: ObjectRef): Promise<string> {
    const cluster = this.cluster;
    if (!cluster) return 'not connected to a cluster yet';
    const group = ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '';
    const type = `${ref.kind.toLowerCase()}${group ? `.${group}` : ''}`;
    const at = new Date().toISOString();
    const args = ['annotate', '--overwrite', type, ref.name, `${RECONCILE_REQUEST_ANNOTATION}=${at}`];
    if (ref.namespace) args.push('-n', ref.namespace);
    this.store.requestedReconcile(ref.kind, ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name);
    const { error, stderr } = await runKubectl(cluster, args, 30_000);
    return error
      ? `kubectl annotate failed: ${stderr.trim() || error.message}`
      : `reconcile requested (${RECONCILE_REQUEST_ANNOTATION}=${at})`;
  }
}

/** Runs the session's kubectl with its kubeconfig; never rejects (the outcome carries the error). */
function runKubectl(
  cluster: ConsoleCluster,
  args: string[],
  timeout: number,
): Promise<{ error: Error | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      cluster.kubectl,
      args,
      { env: { ...process.env, KUBECONFIG: cluster.kubeconfigPath }, timeout, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ error, stdout, stderr }),
    );
  });
}

/** `kubectl get --raw <path>` read as JSON; undefined when it fails or answers anything else. */
async function getRaw<T>(cluster: ConsoleCluster, path: string, timeout: number): Promise<T | undefined> {
  const { error, stdout } = await runKubectl(cluster, ['get', '--raw', path], timeout);
  if (error) return undefined;
  try {
    return JSON.parse(stdout) as T;
  } catch {
    return undefined;
  }
}
