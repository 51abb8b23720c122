/**
 * A dev-only report of each webhook call: when TSOP_DEV_CONSOLE_URL names a loopback URL (only
 * `tsop dev` sets it, for its console), the webhook server posts every review it answered — the
 * request, the answer, the time it took — to <url>/dev/webhooks, without waiting and ignoring
 * failures. Unset, as in a deployed operator, the server does nothing more than it did.
 */
// node:http through rest/node-http.ts (required, not imported), so the hook adds no undici load on Node 22+.
import { nodeHttp } from '../rest/node-http.js';

export const DEV_CONSOLE_ENV = 'TSOP_DEV_CONSOLE_URL';

/** One answered webhook call, as the dev console reads it (src/dev/console/webhook-calls.ts). */
export interface DevWebhookReport {
  path: string;
  /** When the request arrived, ms since the epoch. */
  at: number;
  durationMs: number;
  status: number;
  request: unknown;
  response: unknown;
}

/** The reporter the environment asks for, or undefined (the usual case). */
export function devConsoleReporter(
  env: NodeJS.ProcessEnv = process.env,
): ((report: DevWebhookReport) => void) | undefined {
  const base = env[DEV_CONSOLE_ENV];
  if (!base) return undefined;
  let url: URL;
  try {
    url = new URL('/dev/webhooks', base);
  } catch {
    return undefined;
  }
  // Reviews carry whole objects: they go to this machine only.
  if (url.protocol !== 'http:' || url.hostname !== '127.0.0.1') return undefined;
  return (report) => {
    const body = JSON.stringify(report);
    const req = nodeHttp.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => res.resume());
    req.on('error', () => undefined);
    req.end(body);
  };
}
