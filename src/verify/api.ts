/**
 * The few API server calls `--verify` makes (server-side apply, dry-run, discovery), over plain
 * HTTPS with the plane's admin certificate. Unlike the harness's own helper it keeps the
 * `Warning` headers: they are findings too.
 */
import { request } from 'node:https';

export interface TlsIdentity {
  ca: string;
  cert: string;
  key: string;
}

export interface ApiResponse {
  status: number;
  body: unknown;
  /** The texts of the response's `Warning: 299 - "…"` headers. */
  warnings: string[];
}

/** One field problem of a refused request (metav1.StatusCause). */
export interface Cause {
  reason?: string;
  message?: string;
  field?: string;
}

export class ApiClient {
  constructor(
    private readonly server: string,
    private readonly tls: TlsIdentity,
  ) {}

  get(path: string): Promise<ApiResponse> {
    return this.send('GET', path);
  }

  /** Server-side apply of `object` at `path` as field manager tsop (`dryRun` changes nothing). */
  apply(path: string, object: unknown, dryRun: boolean): Promise<ApiResponse> {
    const query = `fieldManager=tsop&force=true${dryRun ? '&dryRun=All' : ''}`;
    return this.send('PATCH', `${path}?${query}`, object, 'application/apply-patch+yaml');
  }

  /** Create with dry run: for objects named by generateName, which apply cannot address. */
  createDryRun(path: string, object: unknown): Promise<ApiResponse> {
    return this.send('POST', `${path}?dryRun=All&fieldManager=tsop`, object, 'application/json');
  }

  private send(method: string, path: string, body?: unknown, contentType?: string): Promise<ApiResponse> {
    const payload = body === undefined ? undefined : JSON.stringify(body); // JSON is YAML too
    return new Promise((resolve, reject) => {
      const req = request(
        new URL(path, this.server),
        {
          method,
          ca: this.tls.ca,
          cert: this.tls.cert,
          key: this.tls.key,
          agent: false,
          timeout: 30_000,
          headers: {
            accept: 'application/json',
            ...(payload === undefined
              ? {}
              : { 'content-type': contentType ?? 'application/json', 'content-length': Buffer.byteLength(payload) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              // not JSON: keep the text for the message
            }
            resolve({ status: res.statusCode ?? 0, body: parsed, warnings: warningsOf(res.headers['warning']) });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer from the API server in 30 s`)));
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }
}

/** `299 - "text"` headers (RFC 7234), one or several, comma-joined by Node → the texts. */
function warningsOf(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  const joined = Array.isArray(header) ? header.join(', ') : header;
  const out: string[] = [];
  for (const m of joined.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)) out.push((m[1] ?? '').replace(/\\(.)/g, '$1'));
  return out;
}

/** The causes of a refused request, or its message as one cause when the server gave none. */
export function causesOf(res: ApiResponse): Cause[] {
  const status = res.body as { message?: string; details?: { causes?: Cause[] } } | string;
  if (typeof status === 'string') return [{ message: `${res.status}: ${status}` }];
  const causes = status.details?.causes ?? [];
  return causes.length > 0 ? causes : [{ message: status.message ?? `HTTP ${res.status}` }];
}
