/**
 * The client's view of the process's one HTTP connection (rest/connection.ts, where
 * pooling, credentials, Retry-After and the no-resend-of-writes rule live): adds the client's
 * fence, timeout, metrics and warning hook to each request and maps non-2xx answers to typed
 * errors.
 */
import type { KubeConfigSource } from '../kubeconfig/index.js';
import { linkSignals } from '../apimachinery/model.js';
import { connectionOf, parseWarnings, type Answer, type ApiConnection, type RequestMetrics } from '../rest/index.js';
import { errorFromResponse } from './errors.js';

export type { RequestMetrics };
export { parseWarnings };

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | undefined>;
  body?: string;
  contentType?: string;
  /** The Accept header (default application/json). */
  accept?: string;
  /** Cancels the request (and fails it with a TransportError) when aborted. */
  signal?: AbortSignal;
}

export interface TransportOptions {
  metrics?: RequestMetrics;
  /** Called with each `Warning` header text (deprecations, unknown fields dropped, …). */
  onWarning?: (text: string) => void;
  /** Abort a request whose connection carries nothing for this long (default 60 s). */
  timeoutMs?: number;
  /**
   * Once aborted, every request in flight is cancelled and no new one is sent. The manager
   * aborts it when the lease is lost, so a deposed leader cannot write.
   */
  fence?: AbortSignal;
}

export class Transport {
  private readonly connection: ApiConnection;

  /** `source`: a KubeConfig (its shared connection) or a given connection. */
  constructor(
    source: KubeConfigSource | ApiConnection,
    private readonly opts: TransportOptions = {},
  ) {
    this.connection = connectionOf(source);
  }

  get host(): string {
    return this.connection.host;
  }

  /** Sends one request; resolves with the parsed JSON body of a 2xx answer. */
  async request<T>(given: HttpRequest): Promise<T> {
    // Not AbortSignal.any: on Node 20 the fence would keep a reference to each request's signal.
    const linked = linkSignals(given.signal, this.opts.fence);
    let answer: Answer;
    try {
      answer = await this.connection.request({
        ...given,
        signal: linked.signal,
        idleTimeoutMs: this.opts.timeoutMs,
        metrics: this.opts.metrics,
        onWarning: this.opts.onWarning,
      });
    } finally {
      linked.dispose();
    }
    const { status, body } = answer;
    if (status < 200 || status >= 300)
      throw errorFromResponse(status, body, { method: given.method, path: given.path });
    return (body ? JSON.parse(body) : undefined) as T;
  }

  /** Closes idle sockets of the connection (others using it open new ones when they need them). */
  close(): void {
    this.connection.closeIdle();
  }
}
