/**
 * A download mirror on loopback in the real layout, for tests and benchmarks on machines that
 * cannot reach the real hosts: built from control-plane binaries that are here (e.g. the ones
 * scripts/control-plane.sh built), it serves, under the paths each real host uses,
 *
 * - raw.githubusercontent.com: /kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml (the
 *   index: releases → v<version> → envtest-v<version>-<os>-<arch>.tar.gz → hash (sha512), selfLink);
 * - github.com: /kubernetes-sigs/controller-tools/releases/download/envtest-v<version>/<archive>
 *   (a redirect to /objects/…, as GitHub answers) holding controller-tools/envtest/{etcd,
 *   kube-apiserver,kubectl}, and /kubernetes-sigs/kwok/releases/download/v<kwok>/kwok-<os>-<arch>;
 * - api.github.com: /repos/kubernetes-sigs/kwok/releases/tags/v<kwok> (assets with their sha256 digest);
 * - dl.k8s.io: /release/v<version>/bin/<os>/<arch>/{kube-controller-manager,kube-scheduler}[.sha256].
 *
 * Range requests are answered (206), and faults can be switched on per file: corrupt bytes, a
 * body cut short once or every time. Every request is recorded.
 *
 * Standalone: `node --import ./runtime/testing/register.mjs runtime/envtest/testdata/mirror.ts [binaries-dir]`
 * prints the variables that point tsop at it and serves until Ctrl-C.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hostPlatform, PINNED_KWOK_VERSION } from '../download/index.js';

export interface MirrorOptions {
  /** A directory with etcd, kube-apiserver, kubectl and, for the fuller plane, kube-controller-manager, kube-scheduler, kwok. */
  binaries: string;
  /** The Kubernetes version the files are published as. */
  version: string;
  kwokVersion?: string;
}

export interface Fault {
  /** Flip one byte in the middle of the body: the digest no longer matches. */
  corrupt?: boolean;
  /** Close the connection after this many bytes, on the next `times` requests (default: every time). */
  cutAfterBytes?: number;
  times?: number;
}

export interface MirrorRequest {
  path: string;
  range: string | undefined;
  status: number;
}

export interface Mirror {
  readonly url: string;
  /** The variables that point tsop's downloads at this mirror. */
  readonly env: Record<string, string>;
  readonly requests: MirrorRequest[];
  /** Sets (or clears, with undefined) the fault for a file, by its base name (e.g. `kube-scheduler`, the archive's name). */
  fault(name: string, fault: Fault | undefined): void;
  readonly archiveName: string;
  close(): Promise<void>;
}

const ENVTEST = ['etcd', 'kube-apiserver', 'kubectl'];
const KUBE = ['kube-controller-manager', 'kube-scheduler'];

const digest = (file: string, algorithm: 'sha256' | 'sha512'): string => createHash(algorithm).update(readFileSync(file)).digest('hex');

export async function startMirror(options: MirrorOptions): Promise<Mirror> {
  const { os, arch } = hostPlatform();
  const kwokVersion = options.kwokVersion ?? PINNED_KWOK_VERSION;
  const work = mkdtempSync(join(tmpdir(), 'tsop-mirror-'));
  try {
    // The archive as controller-tools' release build makes it: controller-tools/envtest/<binary>.
    const tree = join(work, 'tree', 'controller-tools', 'envtest');
    mkdirSync(tree, { recursive: true });
    for (const b of ENVTEST) copyFileSync(join(options.binaries, b), join(tree, b));
    const archiveName = `envtest-v${options.version}-${os}-${arch}.tar.gz`;
    const archive = join(work, archiveName);
    execFileSync('/bin/sh', ['-c', `tar -C "${join(work, 'tree')}" -cf - controller-tools/envtest | gzip -1 > "${archive}"`]);
    rmSync(join(work, 'tree'), { recursive: true, force: true });

    const files = new Map<string, string>(); // URL path → file
    const texts = new Map<string, string>(); // URL path → generated body
    const redirects = new Map<string, string>();
    const releasePath = `/kubernetes-sigs/controller-tools/releases/download/envtest-v${options.version}/${archiveName}`;
    redirects.set(releasePath, `/objects/${archiveName}`);
    files.set(`/objects/${archiveName}`, archive);
    for (const b of KUBE) {
      const path = `/release/v${options.version}/bin/${os}/${arch}/${b}`;
      files.set(path, join(options.binaries, b));
      texts.set(`${path}.sha256`, digest(join(options.binaries, b), 'sha256'));
    }
    const kwokAsset = `kwok-${os}-${arch}`;
    files.set(`/kubernetes-sigs/kwok/releases/download/v${kwokVersion}/${kwokAsset}`, join(options.binaries, 'kwok'));

    const requests: MirrorRequest[] = [];
    const faults = new Map<string, Fault & { used: number }>();
    const server: Server = createServer((req, res) => serve(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    texts.set(
      '/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml',
      `releases:\n  v${options.version}:\n    ${archiveName}:\n      hash: ${digest(archive, 'sha512')}\n      selfLink: ${url}${releasePath}\n`,
    );
    texts.set(
      `/repos/kubernetes-sigs/kwok/releases/tags/v${kwokVersion}`,
      JSON.stringify({
        tag_name: `v${kwokVersion}`,
        assets: [{ name: kwokAsset, digest: `sha256:${digest(join(options.binaries, 'kwok'), 'sha256')}`, browser_download_url: `${url}/kubernetes-sigs/kwok/releases/download/v${kwokVersion}/${kwokAsset}` }],
      }),
    );

    function serve(req: IncomingMessage, res: ServerResponse): void {
      const path = new URL(req.url ?? '/', url).pathname;
      const range = req.headers.range;
      const answer = (status: number, headers: Record<string, string | number> = {}): void => {
        requests.push({ path, range, status });
        res.writeHead(status, headers);
      };
      const redirect = redirects.get(path);
      if (redirect) {
        answer(302, { location: redirect });
        res.end();
        return;
      }
      const text = texts.get(path);
      const file = files.get(path);
      if (text === undefined && file === undefined) {
        answer(404, { 'content-type': 'text/plain' });
        res.end('Not Found\n');
        return;
      }
      const size = text !== undefined ? Buffer.byteLength(text) : statSync(file!).size;
      const m = /^bytes=(\d+)-$/.exec(range ?? '');
      const start = m ? Number(m[1]) : 0;
      if (start >= size && m) {
        answer(416, { 'content-range': `bytes */${size}` });
        res.end();
        return;
      }
      const fault = faults.get(path.split('/').pop() ?? '');
      const cut = fault?.cutAfterBytes !== undefined && (fault.times === undefined || fault.used < fault.times) ? fault.cutAfterBytes : undefined;
      if (cut !== undefined && fault) fault.used++;
      answer(m ? 206 : 200, { 'content-length': size - start, 'accept-ranges': 'bytes', ...(m ? { 'content-range': `bytes ${start}-${size - 1}/${size}` } : {}) });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      const body = text !== undefined ? [Buffer.from(text).subarray(start)] : createReadStream(file!, { start });
      let sent = 0;
      const middle = Math.floor(size / 2);
      void (async () => {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          let piece = Buffer.from(chunk);
          const offset = start + sent;
          if (fault?.corrupt && middle >= offset && middle < offset + piece.length) piece[middle - offset] = (piece[middle - offset] ?? 0) ^ 0xff;
          if (cut !== undefined && sent + piece.length > cut) {
            // Once those bytes are on their way, the connection drops, as a broken download does.
            res.write(piece.subarray(0, cut - sent), () => res.socket?.destroy());
            return;
          }
          sent += piece.length;
          if (!res.write(piece)) await new Promise((r) => res.once('drain', r));
        }
        res.end();
      })().catch(() => res.destroy());
    }

    const sockets = new Set<import('node:net').Socket>();
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    return {
      url,
      requests,
      archiveName,
      env: {
        TSOP_ENVTEST_INDEX_URL: `${url}/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml`,
        TSOP_KUBERNETES_RELEASE_URL: `${url}/release`,
        TSOP_KWOK_RELEASE_URL: `${url}/kubernetes-sigs/kwok/releases/download`,
        TSOP_KWOK_API_URL: `${url}/repos/kubernetes-sigs/kwok`,
      },
      fault(name, fault) {
        if (fault) faults.set(name, { ...fault, used: 0 });
        else faults.delete(name);
      },
      close: async () => {
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        rmSync(work, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { locateAssets, PINNED_KUBE_VERSION } = await import('../assets.js');
  const binaries = process.argv[2] ?? locateAssets(undefined, process.env, { controllers: true })?.kubeApiserver.replace(/\/kube-apiserver$/, '');
  if (!binaries) throw new Error('no binaries to serve: pass a directory, or build them with `bash scripts/control-plane.sh`');
  const mirror = await startMirror({ binaries, version: process.env['KUBE_VERSION'] ?? PINNED_KUBE_VERSION });
  process.stdout.write(`${Object.entries(mirror.env).map(([k, v]) => `export ${k}=${v}`).join('\n')}\n`);
  const stop = (): void => void mirror.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
