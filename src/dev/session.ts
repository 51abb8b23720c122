/**
 * `tsop dev`: one command that keeps a live operator in step with its code. It regenerates the
 * manifests, starts the embedded control plane (cluster.ts: the fuller one when the controllers
 * create workloads; an existing cluster only with --kubeconfig), applies the CRDs server-side,
 * registers the project's webhooks against the operator (webhooks.ts), runs the operator from
 * source, applies config/samples, and then reacts to saves (watcher.ts): an API type → manifests
 * regenerated, breaking changes reported as `manifests --check` does, CRDs re-applied, operator
 * restarted; a webhook → manifests regenerated, webhooks registered again when they changed,
 * operator restarted; other source → type-check, operator restarted; a sample → re-applied. What
 * the API server answers is reported object by object. The cluster and its objects live for the
 * whole session; Ctrl-C stops everything and removes what the session created, but with --keep
 * the control plane's etcd data stays for the next --keep session.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { UsageError, UserError, UserErrors } from '../errors.js';
import { breakingChanges } from '../manifests/breaking.js';
import { PROJECT_FILE } from '../project/config.js';
import { fullerPlaneChoice, startCluster, type DevCluster } from './cluster.js';
import { countExisting, kubectlCommand, serverSideApply } from './kubectl.js';
import { DevConsole } from './console/index.js';
import { OperatorProcess } from './operator.js';
import {
  formatOperatorLine,
  prefixed,
  statusLine,
  type DevStatus,
  type ReconcileOutcome,
  type Source,
} from './stream.js';
import { findDeprecatedUses } from '../project/deprecated-uses.js';
import { sameObjectSamples, sampleObjects } from './samples.js';
import { TypeChecker, type TypeCheckResult } from './typecheck.js';
import { TreeWatcher, type FileChange } from './watcher.js';
import {
  describeWebhooks,
  hasWebhooks,
  installDevWebhooks,
  localServing,
  operatorWebhookArgs,
  projectWebhooks,
  waitForWebhookServer,
  WEBHOOK_MANIFESTS,
  type InstalledWebhooks,
  type WebhookServing,
} from './webhooks.js';

export interface DevFlags {
  dir?: string;
  /** Use this cluster instead of an embedded control plane; `true` means $KUBECONFIG or ~/.kube/config. */
  kubeconfig?: string | boolean;
  /** Apply config/samples (default true). */
  samples?: boolean;
  /** Keep the embedded control plane's data here for the next `--keep` run; `true` means .tsop/dev in the project. */
  keep?: string | boolean;
  /** The fuller plane (controller-manager, scheduler, kwok nodes): true, false, or undefined to decide from the controllers' RBAC. */
  controllers?: boolean;
  /** kwok nodes of the fuller plane (default 1). */
  nodes?: number;
  /** The live console on loopback (default true). */
  console?: boolean;
  /** The console's port (default: a free one). */
  consolePort?: number;
}

/** Where `--keep` without a path keeps the data (the generated .gitignore lists .tsop/). */
export const DEFAULT_KEEP_DIR = '.tsop/dev';

export interface DevIO {
  write: (text: string) => void;
  /** Resolves when the session should end; default: SIGINT or SIGTERM. */
  stopped?: Promise<void>;
}

const CRD_DIR = 'config/crd/bases';
const SAMPLES_DIR = 'config/samples';
const DEBOUNCE_MS = 100;

type Change = { kind: 'api' } | { kind: 'webhook' } | { kind: 'source' } | { kind: 'sample'; file: string };

/** A source file that declares webhooks: its change may change config/webhook/manifests.yaml. */
const WEBHOOK_SOURCE = /@Webhook\(|@WebhookConfiguration\(|conversionFor\(/;

/**
 * Runs the session until `io.stopped`, or SIGINT / SIGTERM: then the operator stops, then the
 * plane. Resolves with the signal that ended it (the CLI exits 128 + its number, as a shell reports it).
 */
export async function runDev(
  flags: DevFlags,
  io: DevIO = { write: (t) => void process.stdout.write(t) },
): Promise<NodeJS.Signals | undefined> {
  const root = resolve(flags.dir ?? process.cwd());
  if (!existsSync(join(root, PROJECT_FILE)))
    throw new UsageError(
      `dev: ${root} is not a tsop project (no ${PROJECT_FILE} file); run it in the project's directory or pass --dir <project>`,
    );
  if (!existsSync(join(root, 'src/main.ts')))
    throw new UsageError(
      `dev: ${join(root, 'src/main.ts')} is missing; tsop dev runs the operator from it (tsop init writes it)`,
    );
  if (flags.kubeconfig !== undefined && flags.kubeconfig !== false) {
    const given = resolve(
      typeof flags.kubeconfig === 'string'
        ? flags.kubeconfig
        : (process.env['KUBECONFIG'] ?? join(homedir(), '.kube/config')),
    );
    if (!existsSync(given))
      throw new UsageError(
        `dev: --kubeconfig: ${given} does not exist; pass the path of a kubeconfig file, or leave --kubeconfig out for the embedded control plane`,
      );
    flags = { ...flags, kubeconfig: given };
    if (flags.keep !== undefined && flags.keep !== false)
      throw new UsageError(
        "dev: --keep keeps the embedded control plane's data and cannot go with --kubeconfig (that cluster keeps its own); pass one of them",
      );
  }
  if (flags.keep !== undefined && flags.keep !== false) {
    flags = { ...flags, keep: resolve(root, typeof flags.keep === 'string' ? flags.keep : DEFAULT_KEEP_DIR) };
  }
  if (flags.controllers === false && (flags.nodes ?? 0) > 0)
    fullerPlaneChoice(root, { controllers: false, nodes: flags.nodes }); // throws the one line
  const session = new DevSession(root, flags, io);
  if (io.stopped) {
    await session.run(io.stopped);
    return undefined;
  }
  // Kept until the session has cleaned up: while a listener of ours is there, the control-plane
  // harness leaves the signal to us, so the operator stops before the plane it talks to.
  let signal: NodeJS.Signals | undefined;
  let stop = (): void => undefined;
  const stopped = new Promise<void>((done) => (stop = done));
  const onInt = (): void => {
    signal ??= 'SIGINT';
    stop();
  };
  const onTerm = (): void => {
    signal ??= 'SIGTERM';
    stop();
  };
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  try {
    await session.run(stopped);
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
  return signal;
}

class DevSession {
  private readonly status: DevStatus = {
    plane: 'control plane starting',
    crds: 0,
    objects: 0,
    operator: 'operator not started',
  };
  private readonly cacheDir: string;
  private readonly checker: TypeChecker;
  private deprecatedSeen = new Set<string>();
  private readonly clashesSaid = new Set<string>();
  private operator: OperatorProcess | undefined;
  private console: DevConsole | undefined;
  private cluster: DevCluster | undefined;
  private webhooks: InstalledWebhooks | undefined;
  /** Where the operator serves its webhooks: the registration's port and certificate, or a local-only one. */
  private serving: WebhookServing | undefined;
  private watchers: TreeWatcher[] = [];
  private pending: Change[] = [];
  private changedAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private busy: Promise<void> = Promise.resolve();
  private restartStarted: number | undefined;
  private restartWhy: 'start' | 'change' = 'start';
  private lastStatus = '';
  private ending = false;

  constructor(
    private readonly root: string,
    private readonly flags: DevFlags,
    private readonly io: DevIO,
  ) {
    this.checker = new TypeChecker(root);
    this.cacheDir = mkdtempSync(join(tmpdir(), 'tsop-dev-'));
  }

  private say(source: Source, text: string): void {
    this.io.write(prefixed(source, text));
  }

  /** The status line, when it says something the last one did not. */
  private showStatus(): void {
    const line = statusLine(this.status);
    if (line === this.lastStatus) return;
    this.lastStatus = line;
    this.say('tsop', line);
  }

  private get kubectl(): string {
    return this.cluster?.kubectl ?? 'kubectl';
  }

  private get kubeconfigPath(): string {
    return this.cluster?.kubeconfigPath ?? '';
  }

  async run(stopped: Promise<void>): Promise<void> {
    let stopPlane: (() => Promise<void>) | undefined;
    const started = performance.now();
    const since = (): string => `${((performance.now() - started) / 1000).toFixed(1)} s`;
    try {
      this.say('tsop', `dev loop for ${this.root}`);
      await this.regenerate();
      // The cold type-check blocks this thread for a while: let the control plane's processes boot meanwhile.
      const keep = typeof this.flags.keep === 'string' ? this.flags.keep : undefined;
      const { kubeconfig, controllers, nodes } = this.flags;
      const booting = startCluster(this.root, { kubeconfig, keep, controllers, nodes }, (line) =>
        this.say('tsop', line),
      );
      booting.catch(() => undefined);
      let firstCheck: TypeCheckResult;
      try {
        firstCheck = this.checker.check();
      } catch (error) {
        await (await booting.catch(() => undefined))?.stop?.();
        throw error;
      }
      this.cluster = await booting;
      stopPlane = this.cluster.stop;
      this.say(
        'tsop',
        `${this.cluster.description} (${since()}); for kubectl: export KUBECONFIG=${this.kubeconfigPath}`,
      );
      if (this.flags.console !== false) {
        this.console = new DevConsole(this.flags.consolePort !== undefined ? { port: this.flags.consolePort } : {});
        const url = await this.console.start().catch((error: unknown) => {
          const code = (error as { code?: unknown }).code;
          throw new UsageError(
            `dev: the console cannot listen on 127.0.0.1:${this.flags.consolePort ?? 0} (${code ?? String(error)}); pass another --console-port, or --console=false`,
          );
        });
        this.say('tsop', `console: ${url} (reconciles, objects, webhooks, restarts; --console=false turns it off)`);
      }
      if (keep)
        this.say('tsop', `data kept in ${this.shown(keep)} (the next 'tsop dev --keep' starts with these objects)`);
      this.status.plane = this.cluster.description.split(':')[0] ?? 'cluster';
      await this.applyCrds();
      await this.registerWebhooks();
      this.operator = new OperatorProcess({
        root: this.root,
        kubeconfigPath: this.kubeconfigPath,
        cacheDir: this.cacheDir,
        args: () => [
          ...(this.serving ? operatorWebhookArgs(this.serving) : []),
          ...(this.console?.operatorArgs() ?? []),
        ],
        ...(this.console ? { env: this.console.operatorEnv(this.root) } : {}),
        onLine: (line) => this.operatorLine(line),
        onExit: (code, signal) => {
          this.status.operator = `operator exited (${signal ?? `code ${code}`}); save a file to restart it`;
          this.say(
            'tsop',
            `operator exited with ${signal ?? `code ${code}`}; fix the cause and save a file to restart it`,
          );
        },
      });
      this.console?.watch(this.root, { kubectl: this.kubectl, kubeconfigPath: this.kubeconfigPath });
      await this.restart('start', performance.now(), firstCheck);
      if (this.flags.samples !== false) await this.applySamples();
      else await this.countObjects();
      this.watch();
      this.say('tsop', `watching src/ and ${SAMPLES_DIR}/ (${since()}); Ctrl-C stops everything`);
      this.showStatus();
      await stopped;
    } finally {
      this.ending = true;
      await this.shutdown(stopPlane);
    }
  }

  private async shutdown(stopPlane: (() => Promise<void>) | undefined): Promise<void> {
    for (const w of this.watchers) w.close();
    if (this.timer) clearTimeout(this.timer);
    await this.busy.catch(() => undefined);
    await this.operator?.stop();
    await this.console?.stop();
    await stopPlane?.();
    rmSync(this.cacheDir, { recursive: true, force: true });
    // Only when something ran: a start that failed says so in its one error line.
    if (stopPlane || this.operator) {
      const kept =
        stopPlane && typeof this.flags.keep === 'string' ? `; data kept in ${this.shown(this.flags.keep)}` : '';
      this.say('tsop', `stopped: operator${stopPlane ? ', control plane' : ''}, temp files removed${kept}`);
    }
  }

  /** A path as the user reads it: relative inside the project. */
  private shown(path: string): string {
    const inside = relative(this.root, path);
    return inside && !inside.startsWith('..') ? inside : path;
  }

  /** `tsop manifests`, with what it says on the `api` stream and breaking CRD changes reported. */
  private async regenerate(): Promise<boolean> {
    const before = this.crdTexts();
    const { runManifests } = await import('../manifests/run.js');
    const out = (t: string): void => this.say('api', t.replace(/^tsop: /gm, ''));
    try {
      await runManifests({ dir: this.root }, { out, err: out });
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      const lines = error instanceof UserErrors ? error.errors.map((e) => e.message) : [error.message];
      for (const l of lines) this.say('api', `error: ${l}`);
      this.say('api', 'manifests not regenerated; the cluster keeps the previous CRDs');
      return false;
    }
    const breaking: string[] = [];
    for (const [file, text] of this.crdTexts()) {
      const old = before.get(file);
      if (old === undefined || old === text) continue;
      for (const line of breakingChanges(parse(old), parse(text))) breaking.push(`${CRD_DIR}/${file}: ${line}`);
    }
    if (breaking.length > 0) this.say('api', `breaking changes:\n${breaking.map((b) => `  ${b}`).join('\n')}`);
    return true;
  }

  private crdTexts(): Map<string, string> {
    const dir = join(this.root, CRD_DIR);
    const texts = new Map<string, string>();
    if (!existsSync(dir)) return texts;
    for (const f of readdirSync(dir).sort()) if (f.endsWith('.yaml')) texts.set(f, readFileSync(join(dir, f), 'utf8'));
    return texts;
  }

  private async applyCrds(): Promise<void> {
    if (this.crdTexts().size === 0) {
      this.say('api', `no CRDs in ${CRD_DIR} yet ('tsop create api' adds a kind)`);
      return;
    }
    const result = await serverSideApply(this.kubectl, this.kubeconfigPath, ['-f', join(this.root, CRD_DIR)]);
    for (const l of result.applied)
      this.say('api', `CRD ${l.replace(/^customresourcedefinition\.apiextensions\.k8s\.io\//, '')}`);
    for (const w of result.warnings) this.say('api', `warning from the API server: ${w}`);
    for (const e of result.errors) this.say('api', `CRD refused by the API server: ${e}`);
    // The status line counts what the server holds now, not what this apply touched.
    this.status.crds =
      (await countExisting(this.kubectl, this.kubeconfigPath, ['-f', join(this.root, CRD_DIR)])) ??
      result.applied.length;
    if (result.applied.length > 0 && this.webhooks) await this.keepConversion();
  }

  /** The project's webhooks onto the embedded plane (again, replacing the earlier registration). */
  private async registerWebhooks(): Promise<void> {
    const wanted = projectWebhooks(this.root);
    if (!hasWebhooks(wanted) && !this.webhooks) return;
    const plane = this.cluster?.plane;
    if (!plane) {
      this.serving ??= await localServing(join(this.cacheDir, 'webhook-serving'), this.root);
      this.say(
        'tsop',
        [
          `webhooks: not registered on this cluster (its API server cannot call the operator on this machine's`,
          `loopback; ${WEBHOOK_MANIFESTS} goes in with 'npm run deploy'); the operator serves them on port`,
          `${this.serving.port} with a self-signed certificate`,
        ].join(' '),
      );
      return;
    }
    try {
      this.webhooks = await installDevWebhooks(plane, wanted, this.webhooks);
      this.serving = this.webhooks;
      this.say('tsop', describeWebhooks(this.webhooks, wanted));
    } catch (error) {
      if (!(error instanceof Error) || error.name !== 'WebhookInstallError') throw error;
      this.say('tsop', `webhooks not registered: ${error.message.split('\n')[0]}`);
    }
  }

  /** A CRD apply that reset a conversion stanza: registered again (new certificate), so the operator restarts. */
  private async keepConversion(): Promise<void> {
    for (const name of projectWebhooks(this.root).conversionCRDs) {
      const got = await kubectlCommand(this.kubectl, this.kubeconfigPath, [
        'get',
        'crd',
        name,
        '-o',
        'jsonpath={.spec.conversion.strategy}',
      ]);
      if (got.ok && got.stdout.trim() === 'Webhook') continue;
      await this.registerWebhooks();
      if (this.operator?.pid !== undefined) await this.restart('change');
      return;
    }
  }

  /** After a (re)start with webhooks registered: waits until the operator serves them, so applies are not refused meanwhile. */
  private async webhooksServed(): Promise<void> {
    const port = this.webhooks?.port;
    if (port === undefined || this.operator?.pid === undefined) return;
    const gone = (): boolean => this.ending || this.operator?.pid === undefined;
    if (!(await waitForWebhookServer(port, gone)) && !gone())
      this.say(
        'tsop',
        `the operator does not serve webhooks on port ${port} yet; applies that need them are refused until it does`,
      );
  }

  private samplesArgs(): string[] {
    const dir = join(this.root, SAMPLES_DIR);
    return existsSync(join(dir, 'kustomization.yaml')) ? ['-k', dir] : ['-f', dir];
  }

  private async applySamples(file?: string): Promise<void> {
    if (!existsSync(join(this.root, SAMPLES_DIR))) return;
    await this.webhooksServed();
    // The kustomization decides which samples go in, as `kubectl apply -k config/samples` would.
    const args = file && !file.endsWith('kustomization.yaml') ? ['-f', file] : this.samplesArgs();
    // Two files writing one object (a kind's v1 and v2 samples named alike): said once, not left silent.
    for (const line of sameObjectSamples(sampleObjects(this.root, join(this.root, SAMPLES_DIR)))) {
      if (this.clashesSaid.has(line)) continue;
      this.clashesSaid.add(line);
      this.say('tsop', `note: ${line}`);
    }
    const result = await serverSideApply(this.kubectl, this.kubeconfigPath, args);
    const name = file ? relative(this.root, file) : `${SAMPLES_DIR}/`;
    for (const l of result.applied) this.say('tsop', `applied ${l}`);
    for (const w of result.warnings) this.say('tsop', `warning from the API server: ${w}`);
    for (const e of result.errors) this.say('tsop', `sample ${name} refused by the API server: ${e}`);
    await this.countObjects();
  }

  /** The status line's object count: the sample objects the API server holds now. */
  private async countObjects(): Promise<void> {
    const dir = join(this.root, SAMPLES_DIR);
    if (!existsSync(dir) || !readdirSync(dir).some((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml')) return;
    const n = await countExisting(this.kubectl, this.kubeconfigPath, this.samplesArgs());
    if (n !== undefined) this.status.objects = n;
  }

  private operatorLine(line: string): void {
    const formatted = formatOperatorLine(line);
    if (formatted.text !== undefined) this.say('operator', formatted.text);
    if (formatted.healthProbePort !== undefined) this.console?.operatorProbes(formatted.healthProbePort);
    if (formatted.reconcile) {
      const key = (o: ReconcileOutcome | undefined): string =>
        o ? [o.controller, o.object, o.result, o.error].join('\0') : '';
      // A new status line only when the outcome is new, so a busy controller does not flood the stream.
      const fresh = key(formatted.reconcile) !== key(this.status.last);
      this.status.last = formatted.reconcile;
      if (fresh) this.showStatus();
    }
    if (this.restartStarted !== undefined && /Starting workers/.test(line)) {
      const ms = Math.round(performance.now() - this.restartStarted);
      this.restartStarted = undefined;
      this.console?.ready(ms);
      this.say(
        'tsop',
        this.restartWhy === 'start'
          ? `operator ready ${ms} ms after its start`
          : `operator ready ${ms} ms after the change (type-check, restart, caches synced)`,
      );
      this.showStatus();
    }
  }

  /** Type-checks the sources and (re)starts the operator when they pass; the old one keeps running otherwise. */
  private async restart(why: 'start' | 'change', changedAt = performance.now(), done?: TypeCheckResult): Promise<void> {
    const checked = done ?? this.checker.check();
    if (checked.errors.length > 0) {
      for (const e of checked.errors.slice(0, 20)) this.say('tsop', `type error: ${e}`);
      if (checked.errors.length > 20) this.say('tsop', `… and ${checked.errors.length - 20} more`);
      this.console?.restart({ at: Date.now(), why, ok: false, errors: checked.errors });
      const running = this.operator?.pid !== undefined;
      this.say(
        'tsop',
        `${checked.errors.length} type error${checked.errors.length === 1 ? '' : 's'}; ${running ? 'the operator keeps running the previous code' : 'operator not started'}`,
      );
      return;
    }
    this.say(
      'tsop',
      `type-check passed in ${Math.round(checked.ms)} ms; ${why === 'start' ? 'starting' : 'restarting'} the operator`,
    );
    this.warnDeprecated(why === 'start');
    await this.operator?.stop();
    if (this.ending) return;
    this.console?.restart({ at: Date.now(), why, ok: true, errors: [] });
    this.restartStarted = changedAt;
    this.restartWhy = why;
    this.console?.operatorProbes(undefined);
    this.operator?.start();
    this.status.operator = `operator running (pid ${this.operator?.pid ?? '?'})`;
  }

  /**
   * Deprecated API the last save brought in, at its line (`tsop manifests` lists all of them when it
   * runs, which the dev loop does at its start, so the first scan is only remembered).
   */
  private warnDeprecated(quiet: boolean): void {
    const now = findDeprecatedUses(this.root).map((u) => `${u.file}:${u.line}: ${u.message}`);
    if (!quiet) for (const use of now.filter((u) => !this.deprecatedSeen.has(u))) this.say('tsop', `warning: ${use}`);
    this.deprecatedSeen = new Set(now);
  }

  private watch(): void {
    const src = join(this.root, 'src');
    const sources = new TreeWatcher(src, {
      include: (rel) => rel.endsWith('.ts') && !rel.endsWith('.test.ts'),
      skipDirs: new Set(['node_modules']),
      onChange: (changes) => {
        for (const c of changes) this.queue(this.classify(src, c));
      },
    });
    const samples = join(this.root, SAMPLES_DIR);
    const watchSamples = this.flags.samples !== false && existsSync(samples);
    const sampleWatcher = watchSamples
      ? new TreeWatcher(samples, {
          include: (rel) => /\.ya?ml$/.test(rel),
          recursive: false,
          onChange: (changes) => {
            for (const c of changes) this.queue({ kind: 'sample', file: c.path });
          },
        })
      : undefined;
    for (const w of [sources, sampleWatcher]) {
      if (!w) continue;
      w.start();
      this.watchers.push(w);
    }
  }

  /** What a changed source file calls for: its folder says API type; its content, webhooks. */
  private classify(src: string, change: FileChange): Change {
    if (relative(src, change.path).split(/[\\/]/)[0] === 'api') return { kind: 'api' };
    // A removed file may have declared webhooks: regenerating tells.
    if (change.kind === 'removed') return { kind: 'webhook' };
    try {
      return WEBHOOK_SOURCE.test(readFileSync(change.path, 'utf8')) ? { kind: 'webhook' } : { kind: 'source' };
    } catch {
      return { kind: 'source' };
    }
  }

  private queue(change: Change): void {
    if (this.ending) return;
    this.pending.push(change);
    this.changedAt ??= performance.now();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.busy = this.busy
        .then(() => this.drain())
        .catch((error: unknown) =>
          this.say('tsop', `error: ${error instanceof Error ? error.message : String(error)}`),
        );
    }, DEBOUNCE_MS);
  }

  private async drain(): Promise<void> {
    const changes = this.pending;
    const changedAt = this.changedAt ?? performance.now();
    this.pending = [];
    this.changedAt = undefined;
    if (changes.length === 0 || this.ending) return;
    const api = changes.some((c) => c.kind === 'api');
    const webhook = changes.some((c) => c.kind === 'webhook');
    const source = api || webhook || changes.some((c) => c.kind === 'source');
    if (api || webhook) {
      this.say(
        'api',
        api ? 'API types changed: regenerating manifests' : 'webhook source changed: regenerating manifests',
      );
      const before = this.webhookManifest();
      if (await this.regenerate()) {
        if (api) await this.applyCrds();
        this.console?.watch(this.root, { kubectl: this.kubectl, kubeconfigPath: this.kubeconfigPath });
        if (this.webhookManifest() !== before) await this.registerWebhooks();
      }
    }
    if (source) {
      if (!api && !webhook) this.say('tsop', 'source changed: type-checking');
      await this.restart('change', changedAt);
      await this.webhooksServed();
    }
    for (const file of new Set(changes.flatMap((c) => (c.kind === 'sample' ? [c.file] : [])))) {
      if (!existsSync(file)) {
        // Deleting on a file's removal would surprise more than it helps: say how instead.
        this.say(
          'tsop',
          `sample removed: ${relative(this.root, file)}; its objects stay (kubectl delete them if you want them gone)`,
        );
        continue;
      }
      this.say('tsop', `sample changed: ${relative(this.root, file)}`);
      await this.applySamples(file);
    }
    this.showStatus();
  }

  private webhookManifest(): string {
    try {
      return readFileSync(join(this.root, WEBHOOK_MANIFESTS), 'utf8');
    } catch {
      return '';
    }
  }
}
