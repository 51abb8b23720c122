/**
 * A dev-only report of each webhook call: when TSOP_DEV_CONSOLE_URL names a loopback URL (only
 * `tsop dev` sets it, for its console), the webhook server posts every review it answered — the
 * request, the answer, the time it took — to <url>/dev/webhooks, without waiting and ignoring
 * failures. Unset, as in a deployed operator, the server does nothing more than it did.
 */
import { DEV_CONSOLE_ENV, devConsoleURL, postToDevConsole } from '../manager/index.js';

/** @deprecated Import DEV_CONSOLE_ENV from the manager module; kept here until 0.4.0. */
export { DEV_CONSOLE_ENV };

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
  const url = devConsoleURL('/dev/webhooks', env);
  return url ? (report) => postToDevConsole(url, JSON.stringify(report)) : undefined;
}
