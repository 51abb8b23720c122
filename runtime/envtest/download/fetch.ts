/**
 * HTTP(S) GETs for downloads: redirects followed (GitHub sends release assets elsewhere), a
 * body cut short resumed with a Range request (or fetched again when the server ignores Range),
 * a few attempts with backoff for cuts and 5xx answers, and a file checked against its published
 * digest before anyone may use it. A host that cannot be reached fails fast with
 * DownloadUnreachableError, so callers can say what to do offline.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync, statSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** No answer from the host at all: DNS, refused, unroutable, or no response in time. */
export class DownloadUnreachableError extends Error {
  override readonly name = 'DownloadUnreachableError';
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`${url} is unreachable (${reason})`);
  }
}

/** The server answered, but not with the file (404, 403, a body cut short every time, …). */
export class DownloadFailedError extends Error {
  override readonly name = 'DownloadFailedError';
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`downloading ${url} failed: ${reason}`);
  }
}

/** The file arrived whole but its digest is not the published one. */
export class ChecksumMismatchError extends Error {
  override readonly name = 'ChecksumMismatchError';
  constructor(
    readonly url: string,
    readonly algorithm: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`${url}: ${algorithm} is ${actual}, the published checksum is ${expected}`);
  }
}

export interface FetchOptions {
  /** Extra request headers (e.g. authorization for GitHub's API). */
  headers?: Record<string, string>;
  /** Attempts for a cut body or a 5xx answer (default 5). */
  attempts?: number;
  /** No byte for this long ends an attempt (default 30 s). */
  idleTimeoutMs?: number;
  /** First retry delay; doubles each time (default 500 ms). */
  backoffMs?: number;
}

export interface Digest {
  algorithm: 'sha256' | 'sha512';
  hex: string;
}

const UNREACHABLE = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
]);
const MAX_REDIRECTS = 10;

interface Answer {
  response: IncomingMessage;
  url: string;
}

/** One GET, redirects followed; rejects with the socket error when no answer comes. */
function get(url: string, headers: Record<string, string>, idleTimeoutMs: number, redirects = 0): Promise<Answer> {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? httpsRequest : target.protocol === 'http:' ? httpRequest : undefined;
  if (!request)
    return Promise.reject(new DownloadFailedError(url, `unsupported protocol ${target.protocol} (use http or https)`));
  return new Promise((resolve, reject) => {
    // A connection of its own: a kept-alive socket the server has closed would look like an unreachable host.
    const req = request(
      target,
      { agent: false, headers: { 'user-agent': 'tsop-envtest', accept: '*/*', ...headers } },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location) {
          response.resume();
          if (redirects >= MAX_REDIRECTS)
            return reject(new DownloadFailedError(url, `more than ${MAX_REDIRECTS} redirects`));
          // Credentials go only to the host they were meant for.
          const next = new URL(location, target);
          const kept =
            next.host === target.host
              ? headers
              : Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'authorization'));
          return resolve(get(next.href, kept, idleTimeoutMs, redirects + 1));
        }
        resolve({ response, url });
      },
    );
    req.setTimeout(idleTimeoutMs, () =>
      req.destroy(Object.assign(new Error(`no answer within ${idleTimeoutMs / 1000} s`), { code: 'ETIMEDOUT' })),
    );
    req.on('error', reject);
    req.end();
  });
}

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function socketReason(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  return code && UNREACHABLE.has(code) ? `${code}: ${(error as Error).message}` : undefined;
}

/** A small text body (an index, a checksum file, an API answer). */
export async function fetchText(url: string, options: FetchOptions = {}): Promise<string> {
  const attempts = options.attempts ?? 5;
  let delay = options.backoffMs ?? 500;
  for (let attempt = 1; ; attempt++) {
    let answer: Answer;
    try {
      answer = await get(url, options.headers ?? {}, options.idleTimeoutMs ?? 30_000);
    } catch (error) {
      if (error instanceof DownloadFailedError) throw error;
      const reason = socketReason(error) ?? (error as Error).message;
      // A host that never answers is not worth five tries: two, then say so.
      if (attempt >= Math.min(attempts, 2)) throw new DownloadUnreachableError(url, reason);
      await wait(delay);
      delay *= 2;
      continue;
    }
    const { response } = answer;
    const status = response.statusCode ?? 0;
    if (status === 200) {
      const chunks: Buffer[] = [];
      const complete = await new Promise<boolean>((resolve) => {
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => resolve(response.complete));
        response.on('error', () => resolve(false));
        response.on('aborted', () => resolve(false));
      });
      if (complete) return Buffer.concat(chunks).toString('utf8');
    } else {
      response.resume();
      if (status < 500 && status !== 429) throw new DownloadFailedError(url, `HTTP ${status}`);
    }
    if (attempt >= attempts)
      throw new DownloadFailedError(url, status === 200 ? 'the answer was cut short every time' : `HTTP ${status}`);
    await wait(delay);
    delay *= 2;
  }
}

/**
 * Downloads `url` into `file`, resuming a partial `file` left by an earlier attempt (or run), and
 * checks it against `digest`. On a mismatch the file is removed and ChecksumMismatchError thrown;
 * when the mismatch may come from a stale partial file, the whole file is fetched once more first.
 */
export async function downloadFile(
  url: string,
  file: string,
  digest: Digest,
  options: FetchOptions = {},
): Promise<void> {
  const resumed = sizeOf(file) > 0;
  await fetchToFile(url, file, options);
  const actual = await hashFile(file, digest.algorithm);
  if (actual === digest.hex.toLowerCase()) return;
  rmSync(file, { force: true });
  if (resumed) return downloadFile(url, file, digest, options);
  throw new ChecksumMismatchError(url, digest.algorithm, digest.hex.toLowerCase(), actual);
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

async function fetchToFile(url: string, file: string, options: FetchOptions): Promise<void> {
  const attempts = options.attempts ?? 5;
  let delay = options.backoffMs ?? 500;
  let lastProblem = '';
  let answered = false;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const have = sizeOf(file);
    let answer: Answer;
    try {
      answer = await get(
        url,
        { ...options.headers, ...(have > 0 ? { range: `bytes=${have}-` } : {}) },
        options.idleTimeoutMs ?? 30_000,
      );
      answered = true;
    } catch (error) {
      if (error instanceof DownloadFailedError) throw error;
      const reason = socketReason(error) ?? (error as Error).message;
      // A host that answered before and drops a connection now is flaky, not unreachable: keep trying.
      if (!answered && attempt >= Math.min(attempts, 2)) throw new DownloadUnreachableError(url, reason);
      lastProblem = reason;
      if (attempt < attempts) {
        await wait(delay);
        delay *= 2;
      }
      continue;
    }
    const { response } = answer;
    const status = response.statusCode ?? 0;
    if (status === 416 && have > 0) {
      // The partial file is already whole (or longer than the file): let the digest decide.
      response.resume();
      return;
    }
    if (status !== 200 && status !== 206) {
      response.resume();
      if (status < 500 && status !== 429) throw new DownloadFailedError(url, `HTTP ${status}`);
      lastProblem = `HTTP ${status}`;
    } else {
      const append = status === 206 && have > 0 && contentRangeStart(response) === have;
      const expected = Number(response.headers['content-length']);
      const written = await pipeTo(response, file, append, options.idleTimeoutMs ?? 30_000);
      if (written.complete && (!Number.isFinite(expected) || written.bytes === expected)) return;
      const base = append ? have : 0;
      lastProblem = `the connection closed after ${base + written.bytes} of ${Number.isFinite(expected) ? `${base + expected} bytes` : 'an unknown number of bytes'}`;
    }
    if (attempt < attempts) {
      await wait(delay);
      delay *= 2;
    }
  }
  throw new DownloadFailedError(url, `${lastProblem} (${attempts} attempts)`);
}

function contentRangeStart(response: IncomingMessage): number | undefined {
  const m = /^bytes (\d+)-/.exec(response.headers['content-range'] ?? '');
  return m ? Number(m[1]) : undefined;
}

/** Streams the body into `file` (appending or from scratch); reports whether it ended cleanly. */
function pipeTo(
  response: IncomingMessage,
  file: string,
  append: boolean,
  idleTimeoutMs: number,
): Promise<{ bytes: number; complete: boolean }> {
  return new Promise((resolve) => {
    const out = createWriteStream(file, { flags: append ? 'a' : 'w' });
    let bytes = 0;
    let settled = false;
    const finish = (complete: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      out.end(() => resolve({ bytes, complete }));
    };
    let timer = setTimeout(() => response.destroy(), idleTimeoutMs);
    response.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      clearTimeout(timer);
      timer = setTimeout(() => response.destroy(), idleTimeoutMs);
      if (!out.write(chunk)) {
        response.pause();
        out.once('drain', () => response.resume());
      }
    });
    response.on('end', () => finish(response.complete));
    response.on('aborted', () => finish(false));
    response.on('error', () => finish(false));
    response.on('close', () => finish(response.complete));
    out.on('error', () => {
      response.destroy();
      finish(false);
    });
  });
}

export function hashFile(file: string, algorithm: Digest['algorithm']): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash(algorithm);
    createReadStream(file)
      .on('data', (c) => hash.update(c))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}
