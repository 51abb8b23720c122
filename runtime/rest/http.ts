/**
 * Request helpers over the process's one connection (connection.ts) for discovery, the cache
 * and the metrics filter: `requestJSON` for a JSON answer (non-2xx becomes `HttpStatusError`),
 * `openRequest` for streams, whose callers get the raw response and own its lifetime. Both take
 * a KubeConfig (its shared connection is used) or an explicit `ApiConnection`.
 */
import type * as http from 'node:http';
import type { KubeConfigSource } from '../kubeconfig/index.js';
import { connectionOf, type ApiConnection, type KubeRequest } from './connection.js';
import type { StreamAnswer } from './http2.js';
import { nodeHttp } from './node-http.js';
import { type DecodeOptions, decodeObject, isProtobuf, type ProtobufTable } from './protobuf.js';

export { DeadConnectionError, type StreamAnswer } from './http2.js';
export {
  type KubeRequest,
  type RequestMetrics,
  TransportError,
  openRequestCount,
  readBody,
} from './connection.js';

/** The body of a failed request when the server sent a metav1.Status. */
export interface ApiStatus {
  kind?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: unknown;
}

/** A response with a non-2xx status code. `code` is the HTTP status (410 for Gone, 404, …). */
export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError';
  constructor(
    readonly code: number,
    readonly reason: string | undefined,
    message: string,
    readonly status?: ApiStatus,
  ) {
    super(message);
  }
}

/** What the HTTP helpers talk through: a KubeConfig's shared connection, or a given one. */
export type ConnectionSource = KubeConfigSource | ApiConnection;

/**
 * Sends one request on a socket of its own and resolves with the response once headers
 * arrive, whatever the status. The caller must consume or destroy the response; aborting
 * `signal` destroys it.
 */
export function openRequest(source: ConnectionSource, req: KubeRequest): Promise<http.IncomingMessage> {
  return connectionOf(source).open(req);
}

/**
 * Sends one request whose answer is a long stream (a watch) and resolves once its headers
 * arrive: over HTTP/2 where the server offers it, whose connection is then health-checked with
 * PINGs (a connection dropped without FIN or RST fails its streams within 45 s), over HTTP/1.1
 * otherwise. The caller reads or destroys `body`; aborting `signal` destroys it.
 */
export function openStream(source: ConnectionSource, req: KubeRequest): Promise<StreamAnswer> {
  return connectionOf(source).openStream(req);
}

/** Turns a failed response body into a typed error, keeping the server's Status when there is one. */
export function statusError(code: number, body: string): HttpStatusError {
  let status: ApiStatus | undefined;
  try {
    const parsed = JSON.parse(body) as ApiStatus;
    if (parsed && parsed.kind === 'Status') status = parsed;
  } catch {
    // not JSON: keep the raw text as the message
  }
  const message = status?.message ?? (body.trim() || nodeHttp.STATUS_CODES[code] || `HTTP ${code}`);
  return new HttpStatusError(code, status?.reason, message, status);
}

/** One request with a JSON answer; throws `HttpStatusError` on non-2xx, `TransportError` otherwise. */
export async function requestJSON<T>(source: ConnectionSource, req: KubeRequest): Promise<T> {
  const { status, body } = await connectionOf(source).request(req);
  if (status < 200 || status >= 300) throw statusError(status, body);
  return (body ? JSON.parse(body) : undefined) as T;
}

/**
 * One request whose answer may be protobuf (asked for in `req.accept`): decoded with `table` when
 * the server answered protobuf, parsed as JSON otherwise. Throws `HttpStatusError` on non-2xx,
 * with the server's Status in either encoding.
 */
export async function requestDecoded<T>(
  source: ConnectionSource,
  req: KubeRequest,
  table: ProtobufTable,
  opts: DecodeOptions = {},
): Promise<T> {
  const answer = await connectionOf(source).request({ ...req, bytes: true });
  const protobuf = isProtobuf(answer.contentType) && answer.bytes !== undefined;
  if (answer.status < 200 || answer.status >= 300) {
    if (protobuf) {
      try {
        const status = decodeObject(table, answer.bytes!) as ApiStatus;
        if (status.kind === 'Status' && status.message)
          throw new HttpStatusError(answer.status, status.reason, status.message, status);
      } catch (err) {
        if (err instanceof HttpStatusError) throw err;
      }
      throw statusError(answer.status, '');
    }
    throw statusError(answer.status, answer.body);
  }
  if (protobuf) return decodeObject(table, answer.bytes!, opts) as T;
  return (answer.body ? JSON.parse(answer.body) : undefined) as T;
}
