/**
 * The I/O half of the watcher: performs the action `nextAction` asks for (list, open a watch,
 * read it, back off), feeds the result to `step`, and hands the resulting events on.
 * Everything stops when `signal` aborts: the open request is destroyed and the backoff timer
 * cleared, so nothing outlives the run.
 *
 * The list is a watch-list stream where the server has it (client-go ≥ 1.35's default): one
 * watch with `sendInitialEvents=true` whose ADDED events are the current objects, ended by a
 * bookmark marked `k8s.io/initial-events-end`, after which the same stream carries the changes.
 * A server that refuses it (WatchList feature gate off: 422) is listed page by page instead,
 * from then on; any other error answer falls back for that one list.
 *
 * Built-in kinds are listed and watched in protobuf, as client-go does, and metadata-only watches
 * read PartialObjectMetadata in protobuf for every kind (rest/protobuf.ts decodes it into the
 * objects the JSON gives); custom resources, and kinds at versions the table does not know, in JSON.
 *
 * Watches go over HTTP/2 where the server offers it (rest/http2.ts): a connection that does not
 * answer a PING after 30 s without a frame is closed within 15 s, and its watches fail and are
 * re-opened. Every watch also runs under a liveness check (liveness.ts): over HTTP/1.1 one that
 * the API server does not answer a probe for, and on either one that carries neither an event nor
 * a bookmark for `watchSilenceMs`, is dropped and re-opened from its last resourceVersion.
 */
import type { Readable } from 'node:stream';
import { objectKeyString, type KubeObject } from '../apimachinery/model.js';
import {
  HttpStatusError,
  METADATA_ACCEPT,
  type ConnectionSource,
  decodeWatchEvent,
  isProtobuf,
  openStream,
  PROTOBUF_ACCEPT,
  ProtobufDecodeError,
  type ProtobufTable,
  protobufTable,
  readBody,
  requestDecoded,
  requestJSON,
  statusError,
  type RequestMetrics,
  type StreamAnswer,
} from '../rest/index.js';
import { realClock, sleep, type Clock } from '../queue/index.js';
import { backoffDelay, watchBackoff, type BackoffPolicy } from './backoff.js';
import { frameReader, type Items, lineReader } from './lines.js';
import { LivenessCheck, livenessOf, type Liveness } from './liveness.js';
import {
  initialState,
  nextAction,
  step,
  type RawWatchEvent,
  type WatcherEvent,
  type WatcherInput,
  type WatcherState,
} from './watcher.js';

/** What to list and watch: one collection path with optional server-side selectors. */
export interface WatchTarget {
  /** a KubeConfig (its shared connection) or the connection to use */
  kubeConfig: ConnectionSource;
  /** collection path, e.g. '/api/v1/namespaces/ns/configmaps' or '/apis/apps/v1/deployments' */
  path: string;
  /** stamped on listed items, which the API server sends without apiVersion/kind */
  apiVersion: string;
  kind: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** page size of lists (default 500, like client-go's pager) */
  pageSize?: number;
  /** counts every list and watch request */
  metrics?: RequestMetrics;
  /**
   * Ask for metadata only (PartialObjectMetadata): objects arrive with apiVersion, kind and
   * metadata, and are stamped with `apiVersion`/`kind` above, as the list items are.
   */
  metadataOnly?: boolean;
}

export interface DriverOptions {
  clock?: Clock;
  /** [0, 1); jitter source for backoff and watch timeouts */
  random?: () => number;
  backoff?: BackoffPolicy;
  /** server-side watch timeout; default 5–10 min at random, like client-go's reflector */
  watchTimeoutSeconds?: () => number;
  /** silence on a watch after which the API server is probed (default 30 s) */
  probeIdleMs?: number;
  /** how long the probe may take before the watch is declared dead (default 15 s) */
  probeTimeoutMs?: number;
  /**
   * A watch with neither an event nor a bookmark for this long is re-opened from its last
   * resourceVersion (default 150 s; the API server sends a watch's first bookmark about 2 min
   * after it opens, then one a minute). 0 turns it off.
   */
  watchSilenceMs?: number;
  /** list with a watch-list stream where the server supports it (default true); false: pages */
  watchList?: boolean;
  /** the server does not take watch-list requests (400/422); the list is paginated from now on */
  onWatchListRefused?: (err: HttpStatusError) => void;
  /**
   * Watch built-in kinds (and every kind metadata-only) in protobuf, as client-go does (default
   * true): the API server encodes it at less than half the CPU of JSON. false: JSON for all.
   */
  protobuf?: boolean;
  /** leave metadata.managedFields out of protobuf objects unread (the transform drops it anyway) */
  skipManagedFields?: boolean;
}

/** How a watch is asked for and its events read: JSON lines, or protobuf frames read with the table (until one fails). */
interface Codec {
  /** the Accept header of watches; undefined: JSON */
  accept: string | undefined;
  table: ProtobufTable | undefined;
  skipManagedFields: boolean;
}

/** Whether a kind of this apiVersion may be built in: custom resources' groups have a dot and are not *.k8s.io. */
function mayBeBuiltIn(apiVersion: string): boolean {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  return !group.includes('.') || group.endsWith('.k8s.io');
}

/** Protobuf where the table knows the kind (PartialObjectMetadata for every kind), JSON otherwise. */
async function codecFor(target: WatchTarget, opts: DriverOptions): Promise<Codec> {
  const json: Codec = {
    accept: target.metadataOnly ? METADATA_ACCEPT.object : undefined,
    table: undefined,
    skipManagedFields: false,
  };
  if (opts.protobuf === false || (!target.metadataOnly && !mayBeBuiltIn(target.apiVersion))) return json;
  // The table is loaded with the first watch that may use it.
  const table = await protobufTable();
  if (!target.metadataOnly && !table.knows(target.apiVersion, target.kind)) return json;
  return {
    accept: target.metadataOnly ? PROTOBUF_ACCEPT.metadataObject : PROTOBUF_ACCEPT.watch,
    table,
    skipManagedFields: opts.skipManagedFields ?? false,
  };
}

/**
 * After a message the table could not read (from a server whose wire format moved on in a way the
 * decoder does not skip), the watcher asks for JSON from its next request on: the failed list or
 * watch is retried, not repeated forever.
 */
function jsonFromNowOn(codec: Codec, target: WatchTarget, err: unknown): void {
  if (!(err instanceof ProtobufDecodeError)) return;
  codec.table = undefined;
  codec.accept = target.metadataOnly ? METADATA_ACCEPT.object : undefined;
}

/** A watch answer's events: protobuf frames when the server answered protobuf, JSON lines otherwise. */
function eventsOf(answer: StreamAnswer, target: WatchTarget, codec: Codec): Items<RawWatchEvent | undefined> {
  if (codec.table && isProtobuf(answer.headers['content-type'])) {
    const table = codec.table;
    const options = {
      skipManagedFields: codec.skipManagedFields,
      ...(target.metadataOnly ? { stamp: { apiVersion: target.apiVersion, kind: target.kind } } : {}),
    };
    return frameReader(answer.body, (frame) => {
      try {
        return decodeWatchEvent(table, frame, options) as RawWatchEvent;
      } catch (err) {
        jsonFromNowOn(codec, target, err);
        throw err;
      }
    });
  }
  return lineReader(answer.body, parseEvent);
}

/** One line of a JSON watch: an event, or undefined for a blank line. */
function parseEvent(line: string): RawWatchEvent | undefined {
  if (line.trim() === '') return undefined;
  try {
    return JSON.parse(line) as RawWatchEvent;
  } catch {
    throw new Error(`undecodable watch event: ${line.slice(0, 200)}`);
  }
}

const LIST_IDLE_TIMEOUT_MS = 60_000;

interface ListPage {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: KubeObject[];
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function failure(kind: 'listFailed' | 'watchFailed', err: unknown): WatcherInput {
  const code = err instanceof HttpStatusError ? err.code : undefined;
  return code === undefined ? { kind, message: messageOf(err) } : { kind, code, message: messageOf(err) };
}

/** Runs the watcher until `signal` aborts, calling `emit` with every event in order. */
export async function runWatcher(
  target: WatchTarget,
  emit: (event: WatcherEvent) => void,
  signal: AbortSignal,
  opts: DriverOptions = {},
): Promise<void> {
  const clock = opts.clock ?? realClock;
  const random = opts.random ?? Math.random;
  const policy = opts.backoff ?? watchBackoff;
  const watchTimeout = opts.watchTimeoutSeconds ?? (() => Math.floor(300 * (1 + random())));
  let state: WatcherState = initialState;
  let watchList = opts.watchList ?? true;
  const codec = await codecFor(target, opts);

  const apply = (input: WatcherInput): void => {
    const result = step(state, input);
    state = result.state;
    for (const event of result.events) emit(event);
  };

  while (!signal.aborted) {
    const action = nextAction(state);
    if (action.kind === 'read') {
      // `watch` always leaves the state disconnected; should that ever not hold, re-watch after a backoff.
      apply({ kind: 'watchClosed', quiet: true });
      continue;
    }
    await sleep(clock, backoffDelay(action.failures, random(), policy), signal);
    if (signal.aborted) break;
    const liveness = livenessOf(clock, opts);
    if (action.kind === 'list') {
      if (watchList && action.continueToken === undefined) {
        const refused = await streamList(target, codec, watchTimeout(), signal, apply, () => state, liveness);
        if (!refused) continue;
        // 400/422: the server does not take watch-list requests (WatchList off) and never will.
        // Any other status (403, 429, 5xx) falls back for this list only, as client-go does.
        if (refused.code === 400 || refused.code === 422) {
          watchList = false;
          opts.onWatchListRefused?.(refused);
        }
      }
      const input = await listPage(target, codec, action.continueToken, signal);
      if (signal.aborted) break;
      apply(input);
    } else {
      await watch(target, codec, action.resourceVersion, watchTimeout(), signal, apply, () => state, liveness);
    }
  }
}

async function listPage(
  target: WatchTarget,
  codec: Codec,
  continueToken: string | undefined,
  signal: AbortSignal,
): Promise<WatcherInput> {
  try {
    const req = {
      path: target.path,
      query: {
        limit: target.pageSize ?? 500,
        continue: continueToken,
        labelSelector: target.labelSelector,
        fieldSelector: target.fieldSelector,
      },
      signal,
      idleTimeoutMs: LIST_IDLE_TIMEOUT_MS,
      metrics: target.metrics,
    };
    const page = codec.table
      ? await requestDecoded<ListPage>(
          target.kubeConfig,
          { ...req, accept: target.metadataOnly ? PROTOBUF_ACCEPT.metadataList : PROTOBUF_ACCEPT.object },
          codec.table,
          { skipManagedFields: codec.skipManagedFields },
        )
      : await requestJSON<ListPage>(target.kubeConfig, {
          ...req,
          ...(target.metadataOnly ? { accept: METADATA_ACCEPT.list } : {}),
        });
    const items = (page.items ?? []).map((item) => ofTargetKind(target, item));
    const resourceVersion = page.metadata?.resourceVersion ?? '';
    const next = page.metadata?.continue;
    return next
      ? { kind: 'page', items, resourceVersion, continueToken: next }
      : { kind: 'page', items, resourceVersion };
  } catch (err) {
    jsonFromNowOn(codec, target, err);
    return failure('listFailed', err);
  }
}

/** Requests a watch stream of the target's collection, with bookmarks and its selectors. */
function openWatch(
  target: WatchTarget,
  codec: Codec,
  query: Record<string, string>,
  timeoutSeconds: number,
  signal: AbortSignal,
): Promise<StreamAnswer> {
  return openStream(target.kubeConfig, {
    path: target.path,
    query: {
      watch: 'true',
      ...query,
      allowWatchBookmarks: 'true',
      timeoutSeconds,
      labelSelector: target.labelSelector,
      fieldSelector: target.fieldSelector,
    },
    signal,
    // The server ends the watch after timeoutSeconds; silence well beyond that is a dead peer.
    idleTimeoutMs: (timeoutSeconds + 30) * 1000,
    metrics: target.metrics,
    ...(codec.accept ? { accept: codec.accept } : {}),
  });
}

/** Opens one watch and feeds it to `apply` until it ends or the state no longer wants it. */
async function watch(
  target: WatchTarget,
  codec: Codec,
  resourceVersion: string,
  timeoutSeconds: number,
  signal: AbortSignal,
  apply: (input: WatcherInput) => void,
  current: () => WatcherState,
  liveness: Liveness,
): Promise<void> {
  const wanted = (): boolean => {
    const s = current();
    return !signal.aborted && s.phase === 'watching' && s.connected;
  };
  // Watches the watch from the moment it is requested: a server that stops answering while
  // the headers are awaited is as dead as one that goes silent mid-stream.
  const check = new LivenessCheck(target.kubeConfig, liveness, signal);
  try {
    let res: StreamAnswer;
    try {
      res = await openWatch(target, codec, { resourceVersion }, timeoutSeconds, check.signal);
    } catch (err) {
      if (!signal.aborted) apply(failure('watchFailed', check.dead ?? err));
      return;
    }
    if (res.protocol === 'h2') check.connectionPinged();
    if (res.status !== 200) {
      const body = await readBody(res.body).catch(() => '');
      if (!signal.aborted) apply(failure('watchFailed', statusError(res.status, body)));
      res.body.destroy();
      return;
    }
    apply({ kind: 'watchOpened' });
    await readStream(res.body, eventsOf(res, target, codec), check, stamped(target, apply), wanted);
  } finally {
    check.stop();
  }
}

/** The map's values, leaving it empty. */
function drain<V>(map: Map<string, V>): V[] {
  const values = [...map.values()];
  map.clear();
  return values;
}

/** The bookmark that ends a watch-list's initial events. */
function endsInitialEvents(event: RawWatchEvent): boolean {
  return event.type === 'BOOKMARK' && event.object.metadata?.annotations?.['k8s.io/initial-events-end'] === 'true';
}

/**
 * Lists with a watch-list stream: collects the initial events into one `page`, then hands the
 * same stream on as a watch from the end bookmark's resourceVersion. Resolves with the server's
 * refusal when it answers the request with an error status (the caller lists page by page), or
 * undefined once the stream has been used (or failed, reported as `listFailed`).
 */
async function streamList(
  target: WatchTarget,
  codec: Codec,
  timeoutSeconds: number,
  signal: AbortSignal,
  apply: (input: WatcherInput) => void,
  current: () => WatcherState,
  liveness: Liveness,
): Promise<HttpStatusError | undefined> {
  const check = new LivenessCheck(target.kubeConfig, liveness, signal);
  try {
    let answer: StreamAnswer;
    try {
      answer = await openWatch(
        target,
        codec,
        { sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan' },
        timeoutSeconds,
        check.signal,
      );
    } catch (err) {
      if (!signal.aborted) apply(failure('listFailed', check.dead ?? err));
      return undefined;
    }
    if (answer.protocol === 'h2') check.connectionPinged();
    const res = answer.body;
    if (answer.status !== 200) {
      const body = await readBody(res).catch(() => '');
      res.destroy();
      return signal.aborted ? undefined : statusError(answer.status, body);
    }
    const events = eventsOf(answer, target, codec);
    check.onDead(() => {
      res.destroy();
      events.close();
    });
    const objects = new Map<string, KubeObject>();
    try {
      for (let next = await events.next(); !next.done; next = await events.next()) {
        const event = next.value;
        if (event === undefined) continue;
        check.heard();
        if (event.type === 'ERROR') {
          const code = typeof event.object['code'] === 'number' ? event.object['code'] : undefined;
          const message =
            typeof event.object['message'] === 'string' ? event.object['message'] : 'watch-list error event';
          throw code === undefined ? new Error(message) : statusError(code, JSON.stringify(event.object));
        }
        if (endsInitialEvents(event)) {
          const resourceVersion = event.object.metadata?.resourceVersion ?? '';
          // Nothing here may keep the objects: this frame lives as long as the watch.
          apply({ kind: 'page', items: drain(objects), resourceVersion });
          apply({ kind: 'watchOpened' });
          const wanted = (): boolean => {
            const s = current();
            return !signal.aborted && s.phase === 'watching' && s.connected;
          };
          await readStream(res, events, check, stamped(target, apply), wanted);
          return undefined;
        }
        if (event.type === 'DELETED') objects.delete(objectKeyString(event.object));
        else if (event.type !== 'BOOKMARK')
          objects.set(objectKeyString(event.object), ofTargetKind(target, event.object));
      }
      throw new Error('the stream ended before its initial-events-end bookmark');
    } catch (err) {
      if (!signal.aborted) apply(failure('listFailed', check.dead ?? err));
      res.destroy();
      return undefined;
    }
  } finally {
    check.stop();
  }
}

/** `obj` with the target's apiVersion and kind: list items carry none, metadata-only objects another. */
function ofTargetKind(target: WatchTarget, obj: KubeObject): KubeObject {
  // A watch event's object already says it (no copy: one object less per object at 100,000).
  if (obj.apiVersion === target.apiVersion && obj.kind === target.kind) return obj;
  return { ...obj, apiVersion: target.apiVersion, kind: target.kind };
}

/**
 * A metadata-only watch's objects are PartialObjectMetadata: their kind is put back (the
 * target's), so the cache and the handlers see objects of the kind they asked for.
 */
function stamped(target: WatchTarget, apply: (input: WatcherInput) => void): (input: WatcherInput) => void {
  if (!target.metadataOnly) return apply;
  return (input) => {
    if (input.kind !== 'event' || input.event.type === 'BOOKMARK' || input.event.type === 'ERROR') return apply(input);
    apply({ ...input, event: { ...input.event, object: ofTargetKind(target, input.event.object) } });
  };
}

/** Feeds the stream's events to `apply` until it ends, fails, or is no longer wanted. */
async function readStream(
  res: Readable,
  events: Items<RawWatchEvent | undefined>,
  check: LivenessCheck,
  apply: (input: WatcherInput) => void,
  wanted: () => boolean,
): Promise<void> {
  check.onDead(() => {
    res.destroy();
    events.close();
  });
  let seen = 0;
  try {
    for (let next = await events.next(); !next.done; next = await events.next()) {
      const event = next.value;
      if (event === undefined) continue;
      check.heard();
      seen++;
      apply({ kind: 'event', event });
      if (!wanted()) break;
    }
    // The stream ended on the server's side (timeout, shutdown): a normal close — unless it was
    // ended here because the server stopped answering (readline then just ends).
    if (wanted()) apply(check.dead ? failure('watchFailed', check.dead) : { kind: 'watchClosed', quiet: seen === 0 });
  } catch (err) {
    if (wanted()) apply(failure('watchFailed', check.dead ?? err));
  } finally {
    events.close();
    res.destroy();
  }
}
