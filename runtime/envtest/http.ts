/**
 * Minimal HTTP(S) requests the harness makes itself (readiness, CRD install, discovery, etcd
 * maintenance), so that starting a control plane does not depend on a client library's API.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface TlsIdentity {
  ca: string;
  cert: string;
  key: string;
}

export interface HttpResponse {
  status: number;
  body: string;
}

export function send(
  url: string,
  options: {
    method?: string;
    body?: unknown;
    tls?: TlsIdentity;
    timeoutMs?: number;
    contentType?: string;
    headers?: Record<string, string>;
    /** Skip server certificate checks: only for health probes of self-signed components. */
    insecure?: boolean;
  } = {},
): Promise<HttpResponse> {
  const target = new URL(url);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: options.method ?? 'GET',
        headers: {
          ...options.headers,
          accept: 'application/json',
          ...(payload
            ? {
                'content-type': options.contentType ?? 'application/json',
                'content-length': Buffer.byteLength(payload),
              }
            : {}),
        },
        ...(options.tls ? { ca: options.tls.ca, cert: options.tls.cert, key: options.tls.key } : {}),
        ...(options.insecure ? { rejectUnauthorized: false } : {}),
        timeout: options.timeoutMs ?? 5_000,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out after ${options.timeoutMs ?? 5_000} ms: ${url}`)));
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** Polls `check` every `intervalMs` until it returns true or `timeoutMs` passes. */
export async function waitFor(
  what: string,
  timeoutMs: number,
  check: () => Promise<boolean>,
  intervalMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
