/**
 * Everything the console knows, in bounded memory (LIMITS): reconciles with their API calls,
 * object versions with their diffs, webhook calls, restarts and the controllers'
 * state over the last minutes. Each thing added is also handed to the listeners (the SSE streams),
 * so a page that is open sees it as it happens and a page opened later starts from `snapshot()`.
 */
import { diffObjects, type FieldChange } from './diff.js';
import { Ring } from './history.js';
import { callOf, reconcileOf, type ApiCall, type FlatSpan, type ReconcileRecord } from './spans.js';
import { webhookCallOf, type ReportedWebhookCall, type WebhookCall } from './webhook-calls.js';

/** How much the console keeps; about 20 MB at most with typical objects (docs/guide/dev-console.md). */
export const LIMITS = {
  reconciles: 2000,
  /** API calls waiting for their reconcile's span (they are exported first). */
  orphanCalls: 5000,
  objects: 1000,
  versionsPerObject: 20,
  webhooks: 500,
  restarts: 200,
  /** One point a second: five minutes. */
  controllerPoints: 300,
} as const;

export interface ObjectVersion {
  resourceVersion: string;
  at: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: Record<string, unknown>;
  changes: FieldChange[];
}

export interface ObjectRef {
  uid: string;
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

export interface ObjectSummary extends ObjectRef {
  /** namespace/name */
  key: string;
  served: boolean;
  versions: number;
  deleted: boolean;
  lastAt: number;
  owners: string[];
}

interface ObjectHistory {
  ref: ObjectRef;
  served: boolean;
  versions: Ring<ObjectVersion>;
  deleted: boolean;
  lastAt: number;
}

export interface KubeEvent {
  at: number;
  type: string;
  reason: string;
  message: string;
  count: number;
  involved: { kind: string; namespace?: string; name: string; uid?: string };
  source: string;
}

export interface RestartMark {
  at: number;
  why: 'start' | 'change';
  ok: boolean;
  /** Type errors when the operator was not (re)started. */
  errors: string[];
  /** Set once the restarted operator's workers run. */
  readyMs?: number;
}

export interface ControllerState {
  name: string;
  workers: number;
  busy: number;
  depth: number;
  waiting: Array<{ key: string; inMs?: number; forMs?: number; cause: string; state: 'in flight' | 'delayed' }>;
  reconciles: number;
  errors: number;
  requeues: number;
}

export interface ControllersPoint {
  at: number;
  controllers: ControllerState[];
}

export interface VersionDetail extends ObjectVersion {
  /** The reconcile whose API call wrote this version. */
  writtenBy?: { spanId: string; controller: string; object: string; call: string };
  /** The first reconcile this version queued. */
  caused?: { spanId: string; controller: string; object: string };
}

export interface ObjectDetail {
  summary: ObjectSummary;
  versions: VersionDetail[];
  events: KubeEvent[];
  owned: ObjectSummary[];
}

export type ConsoleEvent =
  | { type: 'reconcile'; data: ReconcileRecord }
  | { type: 'object'; data: ObjectSummary }
  | { type: 'webhook'; data: WebhookCall }
  | { type: 'restart'; data: RestartMark }
  | { type: 'controllers'; data: ControllersPoint };

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/** A Kubernetes Event (core/v1, or events.k8s.io/v1) as the console shows it. */
export function kubeEventOf(object: unknown): KubeEvent {
  const o = obj(object);
  const meta = obj(o['metadata']);
  const involved = obj(o['involvedObject'] ?? o['regarding']);
  const when = [o['lastTimestamp'], o['eventTime'], o['firstTimestamp'], meta['creationTimestamp']].find(
    (t) => typeof t === 'string' && t !== '',
  );
  const e: KubeEvent = {
    at: typeof when === 'string' ? Date.parse(when) : 0,
    type: String(o['type'] ?? ''),
    reason: String(o['reason'] ?? ''),
    message: String(o['message'] ?? o['note'] ?? ''),
    count: typeof o['count'] === 'number' ? o['count'] : 1,
    involved: { kind: String(involved['kind'] ?? ''), name: String(involved['name'] ?? '') },
    source: String(obj(o['source'])['component'] ?? o['reportingComponent'] ?? o['reportingController'] ?? ''),
  };
  if (typeof involved['namespace'] === 'string') e.involved.namespace = involved['namespace'];
  if (typeof involved['uid'] === 'string') e.involved.uid = involved['uid'];
  return e;
}
const keyOf = (ns: string | undefined, name: string): string => (ns ? `${ns}/${name}` : name);
const shortKind = (kind: string): string => kind.split('/').pop() ?? kind;
const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '');

/**
 * Whether resourceVersion `a` comes after `b`. They are opaque strings to a client, but the API
 * server's are etcd revisions, integers that grow; anything else differing counts as newer.
 */
function newer(a: string, b: string): boolean {
  if (a === b) return false;
  return /^\d+$/.test(a) && /^\d+$/.test(b) ? BigInt(a) > BigInt(b) : true;
}

export class ConsoleStore {
  private readonly reconciles = new Ring<ReconcileRecord>(LIMITS.reconciles);
  private readonly bySpan = new Map<string, ReconcileRecord>();
  private readonly orphans = new Map<string, ApiCall[]>();
  private orphanCount = 0;
  private readonly objects = new Map<string, ObjectHistory>();
  private readonly webhooks = new Ring<WebhookCall>(LIMITS.webhooks);
  private readonly restarts = new Ring<RestartMark>(LIMITS.restarts);
  private readonly points = new Ring<ControllersPoint>(LIMITS.controllerPoints);
  private readonly manual: Array<{ kind: string; key: string; at: number }> = [];
  private tally = new Map<string, { reconciles: number; errors: number; requeues: number }>();
  private readonly listeners = new Set<(e: ConsoleEvent) => void>();

  subscribe(listener: (e: ConsoleEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: ConsoleEvent): void {
    for (const l of this.listeners) l(e);
  }

  /** The spans of one OTLP export: reconciles and their calls, joined whichever comes first. */
  addSpans(spans: FlatSpan[]): void {
    const touched = new Set<ReconcileRecord>();
    for (const span of spans) {
      const r = reconcileOf(span);
      if (r) {
        r.calls = this.orphans.get(r.spanId) ?? [];
        this.orphanCount -= r.calls.length;
        this.orphans.delete(r.spanId);
        this.markManual(r);
        this.count(r);
        const gone = this.reconciles.push(r);
        if (gone) this.bySpan.delete(gone.spanId);
        this.bySpan.set(r.spanId, r);
        touched.add(r);
        continue;
      }
      const call = callOf(span);
      if (!call || !span.parentSpanId) continue;
      const parent = this.bySpan.get(span.parentSpanId);
      if (parent) {
        parent.calls.push(call);
        touched.add(parent);
      } else if (this.orphanCount < LIMITS.orphanCalls) {
        const list = this.orphans.get(span.parentSpanId) ?? [];
        list.push(call);
        this.orphans.set(span.parentSpanId, list);
        this.orphanCount++;
      }
    }
    for (const r of touched) {
      r.calls.sort((a, b) => a.startMs - b.startMs);
      this.emit({ type: 'reconcile', data: r });
    }
  }

  private count(r: ReconcileRecord): void {
    const t = this.tally.get(r.controller) ?? { reconciles: 0, errors: 0, requeues: 0 };
    t.reconciles++;
    if (r.error || r.result === 'error') t.errors++;
    else if (r.result !== 'success') t.requeues++;
    this.tally.set(r.controller, t);
  }

  /** The console asked for a reconcile of this object (by an annotation): the update it causes is shown as manual. */
  requestedReconcile(kind: string, key: string, at = Date.now()): void {
    this.manual.push({ kind, key, at });
    if (this.manual.length > 50) this.manual.shift();
  }

  private markManual(r: ReconcileRecord): void {
    const t = r.trigger;
    if (t.reason !== 'event' || t.event !== 'update' || !t.object) return;
    const i = this.manual.findIndex(
      (m) =>
        m.key === t.object &&
        m.kind === shortKind(t.kind ?? '') &&
        r.startMs >= m.at - 100 &&
        r.startMs - m.at < 10_000,
    );
    if (i < 0) return;
    t.manual = true;
    this.manual.splice(i, 1);
  }

  /** One watch event of an object the project serves (`served`) or owns. */
  addObjectEvent(type: string, object: unknown, served: boolean, at = Date.now()): void {
    const o = obj(object);
    const meta = obj(o['metadata']);
    const uid = typeof meta['uid'] === 'string' ? meta['uid'] : '';
    if (!uid || (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED')) return;
    const { managedFields: _dropped, ...keptMeta } = meta;
    const kept = { ...o, metadata: keptMeta };
    let h = this.objects.get(uid);
    if (!h) {
      if (this.objects.size >= LIMITS.objects) this.evictOldest();
      const ref: ObjectRef = {
        uid,
        apiVersion: String(o['apiVersion'] ?? ''),
        kind: String(o['kind'] ?? ''),
        name: String(meta['name'] ?? ''),
      };
      if (typeof meta['namespace'] === 'string') ref.namespace = meta['namespace'];
      h = { ref, served, versions: new Ring(LIMITS.versionsPerObject), deleted: false, lastAt: at };
      this.objects.set(uid, h);
    }
    const previous = h.versions.last();
    const resourceVersion = String(meta['resourceVersion'] ?? '');
    // A relist repeats versions already seen, and of two sources (the console's watch, the
    // operator's report) the slower may tell a version after a newer one.
    if (type !== 'DELETED' && previous && !newer(resourceVersion, previous.resourceVersion)) return;
    if (type === 'DELETED' && h.deleted) return;
    const changes = type === 'DELETED' ? [] : diffObjects(previous?.object, kept);
    h.versions.push({ resourceVersion, at, type: type as ObjectVersion['type'], object: kept, changes });
    h.deleted = type === 'DELETED';
    h.lastAt = at;
    this.emit({ type: 'object', data: this.summary(h) });
  }

  /**
   * Of the objects of one kind (matched by group and kind: the version may differ), those whose
   * uid is not in `uids` are deleted: a complete list of the kind lacks them.
   */
  keepOnly(kind: { apiVersion: string; kind: string }, uids: ReadonlySet<string>, at = Date.now()): void {
    const group = groupOf(kind.apiVersion);
    for (const h of [...this.objects.values()]) {
      if (h.deleted || h.ref.kind !== kind.kind || groupOf(h.ref.apiVersion) !== group || uids.has(h.ref.uid)) continue;
      const last = h.versions.last();
      if (last) this.addObjectEvent('DELETED', last.object, h.served, at);
    }
  }

  private evictOldest(): void {
    let oldest: ObjectHistory | undefined;
    for (const h of this.objects.values()) if (!oldest || h.lastAt < oldest.lastAt) oldest = h;
    if (oldest) this.objects.delete(oldest.ref.uid);
  }

  private summary(h: ObjectHistory): ObjectSummary {
    const last = h.versions.last()?.object;
    const owners = ((obj(last?.['metadata'])['ownerReferences'] as unknown[] | undefined) ?? []).map((r) =>
      String(obj(r)['uid']),
    );
    return {
      ...h.ref,
      key: keyOf(h.ref.namespace, h.ref.name),
      served: h.served,
      versions: h.versions.size,
      deleted: h.deleted,
      lastAt: h.lastAt,
      owners,
    };
  }

  addWebhookCall(reported: ReportedWebhookCall): void {
    const call = webhookCallOf(reported);
    this.webhooks.push(call);
    this.emit({ type: 'webhook', data: call });
  }

  addRestart(mark: RestartMark): void {
    this.restarts.push(mark);
    this.emit({ type: 'restart', data: mark });
  }

  /** The restarted operator's workers run: the last restart learns how long that took. */
  restartReady(ms: number): void {
    const last = this.restarts.last();
    if (!last?.ok || last.readyMs !== undefined) return;
    last.readyMs = ms;
    this.emit({ type: 'restart', data: last });
  }

  /**
   * One tick of the controllers' chart: the queue state the operator's /debug/controllers reports
   * (undefined while it does not answer) and the reconciles the spans told of since the last tick.
   */
  tick(debug: unknown, at = Date.now()): ControllersPoint {
    const states = new Map<string, ControllerState>();
    const list = Array.isArray(obj(debug)['controllers']) ? (obj(debug)['controllers'] as unknown[]) : [];
    for (const c of list.map(obj)) {
      const queue = obj(c['queue']);
      const inFlight = Array.isArray(queue['inFlight']) ? queue['inFlight'].map(obj) : [];
      const delayed = Array.isArray(queue['delayed']) ? queue['delayed'].map(obj) : [];
      const name = String(c['name'] ?? '');
      states.set(name, {
        name,
        workers: Number(c['workers'] ?? 0),
        busy: inFlight.length,
        depth: Number(queue['depth'] ?? 0) + Number(queue['delayedTotal'] ?? 0),
        waiting: [
          ...inFlight.map((i) => ({
            key: String(i['key']),
            forMs: Number(i['forMs'] ?? 0),
            cause: causeOf(i['trigger']),
            state: 'in flight' as const,
          })),
          ...delayed.map((i) => ({
            key: String(i['key']),
            inMs: Number(i['inMs'] ?? 0),
            cause: causeOf(i['trigger']),
            state: 'delayed' as const,
          })),
        ],
        reconciles: 0,
        errors: 0,
        requeues: 0,
      });
    }
    for (const [name, t] of this.tally) {
      const s = states.get(name) ?? {
        name,
        workers: 0,
        busy: 0,
        depth: 0,
        waiting: [],
        reconciles: 0,
        errors: 0,
        requeues: 0,
      };
      Object.assign(s, t);
      states.set(name, s);
    }
    // Controllers seen before keep their line in the chart at zero.
    for (const name of new Set(this.points.last()?.controllers.map((c) => c.name) ?? []))
      if (!states.has(name))
        states.set(name, { name, workers: 0, busy: 0, depth: 0, waiting: [], reconciles: 0, errors: 0, requeues: 0 });
    this.tally = new Map();
    const point = { at, controllers: [...states.values()].sort((a, b) => a.name.localeCompare(b.name)) };
    this.points.push(point);
    this.emit({ type: 'controllers', data: point });
    return point;
  }

  /** What a page opened now starts from. */
  snapshot(): {
    reconciles: ReconcileRecord[];
    objects: ObjectSummary[];
    webhooks: WebhookCall[];
    restarts: RestartMark[];
    points: ControllersPoint[];
    limits: typeof LIMITS;
  } {
    return {
      reconciles: this.reconciles.values(),
      objects: [...this.objects.values()].map((h) => this.summary(h)),
      webhooks: this.webhooks.values(),
      restarts: this.restarts.values(),
      points: this.points.values(),
      limits: LIMITS,
    };
  }

  /** Whether an object of this kind and key is known, and its ref (for the trigger button). */
  find(uid: string): ObjectRef | undefined {
    return this.objects.get(uid)?.ref;
  }

  /**
   * One object's versions (each with the reconcile that wrote it and the one it caused), its
   * owned objects, and the Events about it that `events` holds (the console reads them from the
   * cluster when the object is opened).
   */
  detail(uid: string, events: KubeEvent[] = []): ObjectDetail | undefined {
    const h = this.objects.get(uid);
    if (!h) return undefined;
    const key = keyOf(h.ref.namespace, h.ref.name);
    const reconciles = this.reconciles.values();
    const versions = h.versions.values();
    const claimed = new Set<string>();
    const out: VersionDetail[] = versions.map((v, i) => {
      const d: VersionDetail = { ...v };
      const writer = writerOf(v, key, h.ref.kind, reconciles, claimed);
      if (writer) d.writtenBy = writer;
      const until = versions[i + 1]?.at ?? Number.POSITIVE_INFINITY;
      const caused = reconciles.find(
        (r) =>
          r.trigger.object === key &&
          shortKind(r.trigger.kind ?? '') === h.ref.kind &&
          r.startMs >= v.at - 250 &&
          r.startMs < until,
      );
      if (caused) d.caused = { spanId: caused.spanId, controller: caused.controller, object: caused.object };
      return d;
    });
    const owned = [...this.objects.values()].map((o) => this.summary(o)).filter((s) => s.owners.includes(uid));
    return { summary: this.summary(h), versions: out, events, owned };
  }
}

/**
 * The reconcile whose write made this version: a call of the right verb for the version (a create
 * for the first one, a status write when only the status changed, another write when only the rest
 * did) on this object, that ended at most a second before the watch saw the version. A call is
 * given to one version only (`claimed`); a version written by someone else (kubectl) finds none.
 */
export function writerOf(
  v: { at: number; type: string; changes: FieldChange[] },
  key: string,
  kind: string,
  reconciles: ReconcileRecord[],
  claimed: Set<string> = new Set(),
): VersionDetail['writtenBy'] {
  const plural = `/${kind.toLowerCase()}`;
  const statusOnly = v.changes.length > 0 && v.changes.every((c) => c.path.startsWith('status'));
  const noStatus = v.changes.every((c) => !c.path.startsWith('status'));
  const fits = (call: ApiCall): boolean => {
    if (call.status !== undefined || !call.path.includes(plural)) return false;
    if (v.type === 'ADDED') return call.method === 'POST';
    if (v.type === 'DELETED') return call.method === 'DELETE' && call.objectKey === key;
    if (call.objectKey !== key || (call.method !== 'PUT' && call.method !== 'PATCH')) return false;
    const toStatus = call.path.endsWith('/status');
    return statusOnly ? toStatus : noStatus ? !toStatus : true;
  };
  let best: { r: ReconcileRecord; call: ApiCall; gap: number } | undefined;
  for (const r of reconciles)
    for (const call of r.calls) {
      if (claimed.has(call.spanId) || !fits(call)) continue;
      // The watch event comes after the write's answer, give or take the scheduling of two processes.
      const gap = v.at - (call.startMs + call.durationMs);
      if (gap < -100 || gap > 1000) continue;
      if (!best || Math.abs(gap) < Math.abs(best.gap)) best = { r, call, gap };
    }
  if (!best) return undefined;
  claimed.add(best.call.spanId);
  return { spanId: best.r.spanId, controller: best.r.controller, object: best.r.object, call: best.call.name };
}

function causeOf(trigger: unknown): string {
  const t = obj(trigger);
  const fold = Number(t['folded'] ?? 0) > 0 ? ` (+${t['folded']} folded)` : '';
  if (t['reason'] === 'event') {
    const o = obj(t['object']);
    const who = o['name'] ? ` ${keyOf(o['namespace'] as string | undefined, String(o['name']))}` : '';
    return `${shortKind(String(t['kind'] ?? ''))}${who} ${String(t['event'] ?? '')}${t['watch'] === 'owns' ? ' (owned)' : ''}${fold}`;
  }
  if (typeof t['reason'] === 'string')
    return `${t['reason']}${typeof t['delayMs'] === 'number' ? ` ${t['delayMs']} ms` : ''}${fold}`;
  return '';
}
