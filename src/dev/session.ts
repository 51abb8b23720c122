/**
 * `tsop dev`: one command that keeps a live operator in step with its code. It regenerates the
 * manifests, starts the embedded control plane (runtime/envtest with the cached binaries; an
 * existing cluster only with --kubeconfig), applies the CRDs server-side, runs the operator from
 * source, applies config/samples, and then reacts to saves: an API type → manifests regenerated,
 * breaking changes reported as `manifests --check` does, CRDs re-applied, operator restarted; other
 * source → type-check, operator restarted; a sample → re-applied. The cluster and its objects
 * live for the whole session; Ctrl-C stops everything and removes what the session created, but
 * with --keep the control plane's etcd data stays for the next --keep session.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch, type FSWatcher } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { parse } from 'yaml';
import { UsageError, UserError, UserErrors } from '../errors.js';
import { breakingChanges } from '../manifests/breaking.js';
import { PROJECT_FILE } from '../project/config.js';
import { loadEnvtest, missingBinariesMessage } from '../verify/plane.js';
import { serverSideApply } from './kubectl.js';
import { OperatorProcess } from './operator.js';
import { formatOperatorLine, prefixed, statusLine, type DevStatus, type ReconcileOutcome, type Source } from './stream.js';
import { findDeprecatedUses } from '../upgrade/deprecated-uses.js';
import { TypeChecker, type TypeCheckResult } from './typecheck.js';

export interface DevFlags {
  dir?: string;
  /** Use this cluster instead of an embedded control plane; `true` means $KUBECONFIG or ~/.kube/config. */
  kubeconfig?: string | boolean;
  /** Apply config/samples (default true). */
  samples?: boolean;
  /** Keep the embedded control plane's data here for the next `--keep` run; `true` means .tsop/dev in the project. */
  keep?: string | boolean;
}

/** Where `--keep` without a path keeps the data (the generated .gitignore lists .tsop/). */
export const DEFAULT_KEEP_DIR = '.tsop/dev';

export interface DevIO {
  write: (text: string) => void;
  /** Resolves when the session should end; default: SIGINT or SIGTERM. */
  stopped?: Promise<void>;
}

/** The part of runtime/envtest `tsop dev` uses. */
interface DevEnvtest {
  locateAssets(directory?: string, env?: NodeJS.ProcessEnv): { source: string; kubectl?: string } | undefined;
  startControlPlane(options?: { startTimeoutMs?: number; dataDir?: string }): Promise<{ server: string; kubeconfigPath: string; stop(): Promise<void> }>;
}

const CRD_DIR = 'config/crd/bases';
const SAMPLES_DIR = 'config/samples';
const DEBOUNCE_MS = 100;

type Change = { kind: 'api' } | { kind: 'source' } | { kind: 'sample'; file: string };

export async function runDev(flags: DevFlags, io: DevIO = { write: (t) => void process.stdout.write(t) }): Promise<void> {
  const root = resolve(flags.dir ?? process.cwd());
  if (!existsSync(join(root, PROJECT_FILE))) throw new UsageError(`dev: ${root} is not a tsop project (no ${PROJECT_FILE} file); run it in the project's directory or pass --dir <project>`);
  if (!existsSync(join(root, 'src/main.ts'))) throw new UsageError(`dev: ${join(root, 'src/main.ts')} is missing; tsop dev runs the operator from it (tsop init writes it)`);
  if (flags.kubeconfig !== undefined && flags.kubeconfig !== false) {
    const given = resolve(typeof flags.kubeconfig === 'string' ? flags.kubeconfig : (process.env['KUBECONFIG'] ?? join(homedir(), '.kube/config')));
    if (!existsSync(given)) throw new UsageError(`dev: --kubeconfig: ${given} does not exist; pass the path of a kubeconfig file, or leave --kubeconfig out for the embedded control plane`);
    flags = { ...flags, kubeconfig: given };
    if (flags.keep !== undefined && flags.keep !== false) throw new UsageError('dev: --keep keeps the embedded control plane\'s data and cannot go with --kubeconfig (that cluster keeps its own); pass one of them');
  }
  if (flags.keep !== undefined && flags.keep !== false) {
    flags = { ...flags, keep: resolve(root, typeof flags.keep === 'string' ? flags.keep : DEFAULT_KEEP_DIR) };
  }
  const session = new DevSession(root, flags, io);
  if (io.stopped) return session.run(io.stopped);
  // Kept until the session has cleaned up: with a listener of ours, the control-plane harness's
  // own signal handler stops its processes without ending this one, so shutdown can finish.
  let stop = (): void => undefined;
  const stopped = new Promise<void>((done) => (stop = done));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    await session.run(stopped);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

class DevSession {
  private readonly status: DevStatus = { plane: 'control plane starting', crds: 0, objects: 0, operator: 'operator not started' };
  private readonly applied = new Set<string>();
  private readonly seen = new Map<string, string>();
  private readonly cacheDir: string;
  private readonly checker: TypeChecker;
  private deprecatedSeen = new Set<string>();
  private operator: OperatorProcess | undefined;
  private kubectl = 'kubectl';
  private kubeconfigPath = '';
  private watchers: FSWatcher[] = [];
  private pending: Change[] = [];
  private timer: NodeJS.Timeout | undefined;
  private busy: Promise<void> = Promise.resolve();
  private restartStarted: number | undefined;
  private restartWhy: 'start' | 'change' = 'start';
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

  private showStatus(): void {
    this.say('tsop', statusLine(this.status));
  }

  async run(stopped: Promise<void>): Promise<void> {
    let stopPlane: (() => Promise<void>) | undefined;
    const started = performance.now();
    const since = (): string => `${((performance.now() - started) / 1000).toFixed(1)} s`;
    try {
      this.say('tsop', `dev loop for ${this.root}`);
      await this.regenerate();
      // The cold type-check blocks this thread for a while: let the control plane's processes boot meanwhile.
      const booting = this.cluster();
      booting.catch(() => undefined);
      let firstCheck: TypeCheckResult;
      try {
        firstCheck = this.checker.check();
      } catch (error) {
        await (await booting.catch(() => undefined))?.stop?.();
        throw error;
      }
      const plane = await booting;
      stopPlane = plane.stop;
      this.say('tsop', `${plane.description} (${since()}); for kubectl: export KUBECONFIG=${this.kubeconfigPath}`);
      this.status.plane = plane.description.split(':')[0] ?? 'cluster';
      await this.applyCrds();
      this.operator = new OperatorProcess({
        root: this.root,
        kubeconfigPath: this.kubeconfigPath,
        cacheDir: this.cacheDir,
        onLine: (line) => this.operatorLine(line),
        onExit: (code, signal) => {
          this.status.operator = `operator exited (${signal ?? `code ${code}`}); save a file to restart it`;
          this.say('tsop', `operator exited with ${signal ?? `code ${code}`}; fix the cause and save a file to restart it`);
        },
      });
      await this.restart('start', performance.now(), firstCheck);
      if (this.flags.samples !== false) await this.applySamples();
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
    await stopPlane?.();
    rmSync(this.cacheDir, { recursive: true, force: true });
    // Only when something ran: a start that failed says so in its one error line.
    if (stopPlane || this.operator) {
      const kept = stopPlane && typeof this.flags.keep === 'string' ? `; data kept in ${this.shown(this.flags.keep)}` : '';
      this.say('tsop', `stopped: operator${stopPlane ? ', control plane' : ''}, temp files removed${kept}`);
    }
  }

  /** A path as the user reads it: relative inside the project. */
  private shown(path: string): string {
    const inside = relative(this.root, path);
    return inside && !inside.startsWith('..') ? inside : path;
  }

  /** The embedded control plane, or the cluster --kubeconfig names. */
  private async cluster(): Promise<{ description: string; stop?: () => Promise<void> }> {
    const envtest = (await loadEnvtest(this.root, 'dev')) as unknown as DevEnvtest;
    const assets = envtest.locateAssets(undefined, process.env);
    if (assets?.kubectl) this.kubectl = assets.kubectl;
    if (typeof this.flags.kubeconfig === 'string') {
      // runDev resolved and checked it.
      this.kubeconfigPath = this.flags.kubeconfig;
      return { description: `cluster of ${this.kubeconfigPath} (its current context)` };
    }
    if (!assets) throw new UsageError(missingBinariesMessage().replace(/^--verify/, 'dev'));
    const keep = typeof this.flags.keep === 'string' ? this.flags.keep : undefined;
    const cp = await envtest.startControlPlane({ startTimeoutMs: 60_000, ...(keep ? { dataDir: keep } : {}) }).catch((error: unknown) => {
      // A kept data dir that is a file, or held by another session, is the user's to fix: one line.
      if (error instanceof Error && error.name === 'ControlPlaneOptionsError') throw new UsageError(`dev: --keep: ${error.message.replace(/^dataDir: /, '')}`);
      throw error;
    });
    this.kubeconfigPath = cp.kubeconfigPath;
    if (keep) this.say('tsop', `data kept in ${this.shown(keep)} (the next 'tsop dev --keep' starts with these objects)`);
    return { description: `control plane up: etcd + kube-apiserver at ${cp.server}`, stop: () => cp.stop() };
  }

  /** `tsop manifests`, with what it says on the `api` stream and breaking CRD changes reported. */
  private async regenerate(): Promise<boolean> {
    const before = this.crdTexts();
    const { runManifests } = await import('../cli/manifests.js');
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
    if (!result.ok) {
      for (const l of result.lines) this.say('api', `CRDs refused: ${l}`);
      return;
    }
    this.status.crds = result.lines.filter((l) => /customresourcedefinition/.test(l)).length;
    for (const l of result.lines) this.say('api', `CRD ${l.replace(/^customresourcedefinition\.apiextensions\.k8s\.io\//, '')}`);
  }

  private async applySamples(file?: string): Promise<void> {
    const dir = join(this.root, SAMPLES_DIR);
    if (!existsSync(dir)) return;
    // The kustomization decides which samples go in, as `kubectl apply -k config/samples` would.
    const args = file && !file.endsWith('kustomization.yaml') ? ['-f', file] : existsSync(join(dir, 'kustomization.yaml')) ? ['-k', dir] : ['-f', dir];
    const result = await serverSideApply(this.kubectl, this.kubeconfigPath, args);
    const name = file ? relative(this.root, file) : `${SAMPLES_DIR}/`;
    if (!result.ok) {
      for (const l of result.lines) this.say('tsop', `sample ${name} refused: ${l}`);
      return;
    }
    for (const l of result.lines) {
      this.applied.add(l.split(' ')[0] ?? l);
      this.say('tsop', `applied ${l}`);
    }
    this.status.objects = this.applied.size;
  }

  private operatorLine(line: string): void {
    const formatted = formatOperatorLine(line);
    if (formatted.text !== undefined) this.say('operator', formatted.text);
    if (formatted.reconcile) {
      const key = (o: ReconcileOutcome | undefined): string => (o ? [o.controller, o.object, o.result, o.error].join('\0') : '');
      // A new status line only when the outcome is new, so a busy controller does not flood the stream.
      const fresh = key(formatted.reconcile) !== key(this.status.last);
      this.status.last = formatted.reconcile;
      if (fresh) this.showStatus();
    }
    if (this.restartStarted !== undefined && /Starting workers/.test(line)) {
      const ms = Math.round(performance.now() - this.restartStarted);
      this.restartStarted = undefined;
      this.say('tsop', this.restartWhy === 'start' ? `operator ready ${ms} ms after its start` : `operator ready ${ms} ms after the change (type-check, restart, caches synced)`);
      this.showStatus();
    }
  }

  /** Type-checks the sources and (re)starts the operator when they pass; the old one keeps running otherwise. */
  private async restart(why: 'start' | 'change', changedAt = performance.now(), done?: TypeCheckResult): Promise<void> {
    const checked = done ?? this.checker.check();
    if (checked.errors.length > 0) {
      for (const e of checked.errors.slice(0, 20)) this.say('tsop', `type error: ${e}`);
      if (checked.errors.length > 20) this.say('tsop', `… and ${checked.errors.length - 20} more`);
      const running = this.operator?.pid !== undefined;
      this.say('tsop', `${checked.errors.length} type error${checked.errors.length === 1 ? '' : 's'}; ${running ? 'the operator keeps running the previous code' : 'operator not started'}`);
      return;
    }
    this.say('tsop', `type-check passed in ${Math.round(checked.ms)} ms; ${why === 'start' ? 'starting' : 'restarting'} the operator`);
    this.warnDeprecated(why === 'start');
    await this.operator?.stop();
    if (this.ending) return;
    this.restartStarted = changedAt;
    this.restartWhy = why;
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
    this.watchers.push(
      watch(src, { recursive: true }, (_event, name) => {
        if (!name || !name.endsWith('.ts') || name.endsWith('.test.ts')) return;
        const file = join(src, name);
        if (!this.changed(file)) return;
        this.queue(name.startsWith(`api${sep}`) ? { kind: 'api' } : { kind: 'source' });
      }),
    );
    const samples = join(this.root, SAMPLES_DIR);
    if (this.flags.samples !== false && existsSync(samples)) {
      this.watchers.push(
        watch(samples, (_event, name) => {
          if (!name || !/\.ya?ml$/.test(name)) return;
          const file = join(samples, name);
          if (this.changed(file)) this.queue({ kind: 'sample', file });
        }),
      );
    }
  }

  /** Whether a file's content differs from the last time it was seen (editors fire several events per save). */
  private changed(file: string): boolean {
    let hash = 'gone';
    try {
      hash = createHash('sha1').update(readFileSync(file)).digest('hex');
    } catch {
      // removed: a change too
    }
    if (this.seen.get(file) === hash) return false;
    this.seen.set(file, hash);
    return true;
  }

  private queue(change: Change): void {
    if (this.ending) return;
    this.pending.push(change);
    this.changedAt ??= performance.now();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.busy = this.busy.then(() => this.drain()).catch((error: unknown) => this.say('tsop', `error: ${error instanceof Error ? error.message : String(error)}`));
    }, DEBOUNCE_MS);
  }

  private changedAt: number | undefined;

  private async drain(): Promise<void> {
    const changes = this.pending;
    const changedAt = this.changedAt ?? performance.now();
    this.pending = [];
    this.changedAt = undefined;
    if (changes.length === 0 || this.ending) return;
    const api = changes.some((c) => c.kind === 'api');
    const source = api || changes.some((c) => c.kind === 'source');
    if (api) {
      this.say('api', 'API types changed: regenerating manifests');
      if (await this.regenerate()) await this.applyCrds();
    }
    if (source) {
      if (!api) this.say('tsop', 'source changed: type-checking');
      await this.restart('change', changedAt);
    }
    for (const file of new Set(changes.flatMap((c) => (c.kind === 'sample' ? [c.file] : [])))) {
      if (!existsSync(file)) {
        // Deleting on a file's removal would surprise more than it helps: say how instead.
        this.say('tsop', `sample removed: ${relative(this.root, file)}; its objects stay (kubectl delete them if you want them gone)`);
        continue;
      }
      this.say('tsop', `sample changed: ${relative(this.root, file)}`);
      await this.applySamples(file);
    }
    this.showStatus();
  }
}
