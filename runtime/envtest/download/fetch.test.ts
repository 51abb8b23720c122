import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChecksumMismatchError,
  DownloadFailedError,
  DownloadUnreachableError,
  downloadFile,
  fetchText,
} from './fetch.js';

const scratch = mkdtempSync(join(tmpdir(), 'tsop-fetch-test-'));
const body = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
const sha256 = createHash('sha256').update(body).digest('hex');

/** Per path: how the next answers go wrong. */
const behaviour = new Map<string, { cutAfter?: number; cuts?: number; ignoreRange?: boolean; status?: number }>();
const seen: Array<{ path: string; range: string | undefined }> = [];
let server: Server;
let base = '';
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push({ path, range: req.headers.range });
    if (path === '/moved') {
      res.writeHead(302, { location: '/file' }).end();
      return;
    }
    const b = behaviour.get(path) ?? {};
    if (b.status) {
      res.writeHead(b.status).end('no');
      return;
    }
    const m = b.ignoreRange ? null : /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    res.writeHead(m ? 206 : 200, {
      'content-length': body.length - start,
      ...(m ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    if (b.cutAfter !== undefined && (b.cuts ?? Infinity) > 0) {
      b.cuts = (b.cuts ?? Infinity) - 1;
      res.write(body.subarray(start, start + b.cutAfter), () => res.socket?.destroy());
      return;
    }
    res.end(body.subarray(start));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
  rmSync(scratch, { recursive: true, force: true });
});

const fast = { backoffMs: 10 };

describe('downloading a file', () => {
  it('follows redirects and checks the digest', async () => {
    const file = join(scratch, 'redirected');
    await downloadFile(`${base}/moved`, file, { algorithm: 'sha256', hex: sha256 }, fast);
    expect(readFileSync(file).equals(body)).toBe(true);
  });

  it('resumes a body cut short with a Range request from where it stopped', async () => {
    behaviour.set('/cut-once', { cutAfter: 70_000, cuts: 1 });
    const file = join(scratch, 'resumed');
    const from = seen.length;
    await downloadFile(`${base}/cut-once`, file, { algorithm: 'sha256', hex: sha256 }, fast);
    expect(readFileSync(file).equals(body)).toBe(true);
    const ranges = seen.slice(from).map((s) => s.range);
    expect(ranges).toEqual([undefined, expect.stringMatching(/^bytes=\d+-$/)]);
    // From what had arrived: more than nothing, no more than was sent.
    const offset = Number(/\d+/.exec(ranges[1] ?? '')?.[0]);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(70_000);
  });

  it('starts over when the server ignores Range', async () => {
    behaviour.set('/no-range', { cutAfter: 50_000, cuts: 1, ignoreRange: true });
    const file = join(scratch, 'restarted');
    await downloadFile(`${base}/no-range`, file, { algorithm: 'sha256', hex: sha256 }, fast);
    expect(readFileSync(file).equals(body)).toBe(true);
  });

  it('gives up on a body cut short every time, saying how far it got', async () => {
    behaviour.set('/cut-always', { cutAfter: 10 });
    const file = join(scratch, 'never-whole');
    await expect(
      downloadFile(`${base}/cut-always`, file, { algorithm: 'sha256', hex: sha256 }, { ...fast, attempts: 3 }),
    ).rejects.toThrow(DownloadFailedError);
    await expect(
      downloadFile(`${base}/cut-always`, file, { algorithm: 'sha256', hex: sha256 }, { ...fast, attempts: 3 }),
    ).rejects.toThrow(/the connection closed after \d+ of 200000 bytes \(3 attempts\)/);
  });

  it('refuses a file whose digest is not the published one, and removes it', async () => {
    const file = join(scratch, 'mismatch');
    const wrong = '0'.repeat(64);
    const error = await downloadFile(`${base}/file`, file, { algorithm: 'sha256', hex: wrong }, fast).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ChecksumMismatchError);
    expect(error).toMatchObject({ expected: wrong, actual: sha256 });
    expect(existsSync(file)).toBe(false);
  });

  it('fetches a stale partial file once more from scratch before calling a mismatch', async () => {
    const file = join(scratch, 'stale');
    writeFileSync(file, Buffer.alloc(1000, 1)); // left by a run that fetched another file
    await downloadFile(`${base}/file`, file, { algorithm: 'sha256', hex: sha256 }, fast);
    expect(readFileSync(file).equals(body)).toBe(true);
  });

  it('reports a 404 at once, a host that never answers as unreachable', async () => {
    behaviour.set('/gone', { status: 404 });
    await expect(fetchText(`${base}/gone`, fast)).rejects.toThrow(/HTTP 404/);
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const started = Date.now();
    await expect(fetchText(`http://127.0.0.1:${port}/index.yaml`, fast)).rejects.toThrow(DownloadUnreachableError);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('retries a 5xx answer', async () => {
    behaviour.set('/flaky', { status: 503 });
    const from = seen.length;
    await expect(fetchText(`${base}/flaky`, { ...fast, attempts: 3 })).rejects.toThrow(/HTTP 503/);
    expect(seen.slice(from).filter((s) => s.path === '/flaky')).toHaveLength(3);
  });
});
