/**
 * Downloading control-plane binaries end to end against a mirror on loopback in the real layout
 * (testdata/mirror.ts: setup-envtest's index and archive, the Kubernetes release binaries with
 * their .sha256, kwok's binary and its release's digests), built from the binaries on this
 * machine: they land checked in setup-envtest's layout and a fuller control plane starts from
 * them; a wrong checksum, a download cut short and an unreachable host each leave nothing
 * half-installed and say so in one line.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAssets, locateAssets, PINNED_KUBE_VERSION, requireAssets } from '../assets.js';
import { startControlPlane } from '../control-plane.js';
import { startMirror, type Mirror } from '../testdata/mirror.js';
import { skipReason } from '../../testing/control-plane.js';
import {
  ChecksumMismatchError,
  DownloadFailedError,
  DownloadUnreachableError,
  downloadFailureLine,
  downloadSources,
  ENVTEST_BINARIES,
  FULLER_BINARIES,
  installBinaries,
  installedVersions,
  versionDirName,
  type InstallRequest,
} from './index.js';

const ALL = [...ENVTEST_BINARIES, ...FULLER_BINARIES];
const scratch = mkdtempSync(join(tmpdir(), 'tsop-download-test-'));
const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
const reason = skipReason({ controllers: true });

describe.skipIf(reason !== undefined)('downloading control-plane binaries from a mirror in the real layout', () => {
  let mirror: Mirror;
  let source = '';
  const version = PINNED_KUBE_VERSION;
  const newRoot = (): string => mkdtempSync(join(scratch, 'cache-'));
  const request = (root: string, more: Partial<InstallRequest> = {}): InstallRequest => ({
    root,
    sources: downloadSources(mirror.env),
    pinned: version,
    fuller: true,
    ...more,
  });
  const fetchesOf = (name: string): Array<{ range: string | undefined; status: number }> =>
    mirror.requests.filter((r) => r.path.endsWith(`/${name}`));

  beforeAll(async () => {
    // The binaries to serve: the fuller plane that scripts/control-plane.sh built (found, never fetched here).
    const found = requireAssets(undefined, process.env, { controllers: true });
    source = join(found.kubeApiserver, '..');
    mirror = await startMirror({ binaries: source, version });
  }, 120_000);

  afterAll(async () => {
    await mirror?.close();
    // Cleanup makes setup-envtest's read-only directories writable first, as it must.
    for (const dir of readdirSync(scratch))
      for (const v of installedVersions(join(scratch, dir))) chmodSync(v.dir, 0o755);
    rmSync(scratch, { recursive: true, force: true });
  });

  it("installs the envtest trio from the index's archive and the fuller plane one by one, all checked, in setup-envtest's layout; a fuller plane starts from them", async () => {
    const root = newRoot();
    const logged: string[] = [];
    const result = await installBinaries(request(root, { log: (l) => logged.push(l) }));
    expect(result).toEqual({ dir: join(root, 'k8s', versionDirName(version)), version, fetched: ALL });
    for (const b of ALL) expect(sha256(join(result.dir, b)), b).toBe(sha256(join(source, b)));
    expect(readdirSync(result.dir).sort()).toEqual([...ALL].sort());
    // Nothing left over from the download.
    expect(readdirSync(join(root, 'k8s', '.tsop-downloads'))).toEqual([]);
    expect(logged[0]).toBe(
      `downloading etcd, kube-apiserver, kubectl ${version} (linux/amd64) from ${mirror.url}/kubernetes-sigs/controller-tools/releases/download/envtest-v${version}/${mirror.archiveName}`,
    );
    expect(logged.at(-1)).toMatch(new RegExp(`^installed ${ALL.join(', ')} in ${result.dir} \\(\\d+\\.\\d s\\)$`));

    // A second run finds them and asks the mirror nothing.
    const asked = mirror.requests.length;
    expect(await installBinaries(request(root))).toEqual({ ...result, fetched: [] });
    expect(mirror.requests.length).toBe(asked);

    const plane = await startControlPlane({ binaryAssetsDirectory: result.dir, controllers: true, nodes: 1 });
    try {
      expect(plane.assets.kwok).toBe(join(result.dir, 'kwok'));
      expect(plane.nodeNames).toHaveLength(1);
    } finally {
      await plane.stop();
    }
  });

  it('is what ensureAssets does when the cache lacks the binaries (the path startControlPlane takes)', async () => {
    const root = newRoot();
    const lines: string[] = [];
    const env = { ...mirror.env, TSOP_ASSETS_ROOT: root };
    expect(locateAssets(undefined, env)).toBeUndefined();
    const assets = await ensureAssets(undefined, env, {}, { progress: (l) => lines.push(l) });
    expect(assets.kubeApiserver).toBe(join(root, 'k8s', versionDirName(version), 'kube-apiserver'));
    expect(assets.kwok).toBeUndefined(); // the trio only, as asked
    expect(lines).toHaveLength(2);
    // Nothing is downloaded where the user named the binaries, nor with downloads off.
    await expect(
      ensureAssets(undefined, { ...env, TSOP_ASSETS_ROOT: newRoot(), TSOP_ENVTEST_DOWNLOAD: 'false' }),
    ).rejects.toThrow(/not found in .*k8s\/<version>-<os>-<arch>\/; get them with 'npx tsop envtest use'/);
  });

  it('refuses an archive whose sha512 is not the published one: one line, nothing installed', async () => {
    const root = newRoot();
    mirror.fault(mirror.archiveName, { corrupt: true });
    try {
      const error = await installBinaries(request(root)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChecksumMismatchError);
      const line = downloadFailureLine(error, downloadSources(mirror.env));
      expect(line).not.toContain('\n');
      // The URL the index names (the mirror redirects it, as GitHub does).
      expect(line).toMatch(
        new RegExp(
          `^refused ` +
            `${mirror.url}/kubernetes-sigs/controller-tools/releases/download/envtest-v${version}/${mirror.archiveName.replace(/\./g, '\\.')}: ` +
            `its sha512 is [0-9a-f]{128}, but the published checksum is [0-9a-f]{128}; nothing was ` +
            `installed .*npx tsop envtest use --source`,
        ),
      );
      expect(existsSync(join(root, 'k8s', versionDirName(version)))).toBe(false);
      expect(installedVersions(root)).toEqual([]);
      // Not even a partial file: a corrupt download is not worth resuming.
      expect(readdirSync(join(root, 'k8s', '.tsop-downloads'))).toEqual([]);
    } finally {
      mirror.fault(mirror.archiveName, undefined);
    }
  });

  it('refuses a fuller-plane binary whose sha256 is not the published one; the binaries before it stay, and the next run fetches only what is missing', async () => {
    const root = newRoot();
    mirror.fault('kube-scheduler', { corrupt: true });
    const error = await installBinaries(request(root)).catch((e: unknown) => e);
    mirror.fault('kube-scheduler', undefined);
    expect(error).toBeInstanceOf(ChecksumMismatchError);
    expect((error as ChecksumMismatchError).algorithm).toBe('sha256');
    const dir = join(root, 'k8s', versionDirName(version));
    expect(readdirSync(dir).sort()).toEqual(['etcd', 'kube-apiserver', 'kube-controller-manager', 'kubectl']);
    expect((await installBinaries(request(root))).fetched).toEqual(['kube-scheduler', 'kwok']);
  });

  it('resumes an archive cut short with a Range request, and installs it whole', async () => {
    const root = newRoot();
    mirror.fault(mirror.archiveName, { cutAfterBytes: 10_000_000, times: 1 });
    const from = mirror.requests.length;
    try {
      const result = await installBinaries(request(root, { fuller: false }));
      for (const b of ENVTEST_BINARIES) expect(sha256(join(result.dir, b))).toBe(sha256(join(source, b)));
    } finally {
      mirror.fault(mirror.archiveName, undefined);
    }
    const fetches = mirror.requests.slice(from).filter((r) => r.path === `/objects/${mirror.archiveName}`);
    expect(fetches.map((f) => f.status)).toEqual([200, 206]);
    expect(Number(/^bytes=(\d+)-$/.exec(fetches[1]?.range ?? '')?.[1])).toBeGreaterThan(0);
  });

  it('gives up on an archive cut short every time without installing anything, and a later run resumes the partial file', async () => {
    const root = newRoot();
    mirror.fault(mirror.archiveName, { cutAfterBytes: 1_000 });
    const error = await installBinaries(request(root, { fuller: false })).catch((e: unknown) => e);
    mirror.fault(mirror.archiveName, undefined);
    expect(error).toBeInstanceOf(DownloadFailedError);
    const line = downloadFailureLine(error, downloadSources(mirror.env));
    expect(line).toMatch(
      /^downloading .* failed: the connection closed after \d+ of \d+ bytes \(5 attempts\); nothing was installed; build them from source instead/,
    );
    expect(installedVersions(root)).toEqual([]);
    const partial = join(root, 'k8s', '.tsop-downloads', versionDirName(version), `${mirror.archiveName}.partial`);
    const kept = statSync(partial).size;
    expect(kept).toBeGreaterThan(0);

    const from = mirror.requests.length;
    await installBinaries(request(root, { fuller: false }));
    const resumed = mirror.requests.slice(from).find((r) => r.path === `/objects/${mirror.archiveName}`);
    expect(resumed).toMatchObject({ range: `bytes=${kept}-`, status: 206 });
    expect(existsSync(partial)).toBe(false);
  });

  it('says in one line that a host is unreachable, naming its variable and the --source fallback', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const sources = downloadSources({ TSOP_ENVTEST_INDEX_URL: `http://127.0.0.1:${port}/envtest-releases.yaml` });
    const root = newRoot();
    const error = await installBinaries({ root, sources, pinned: version }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadUnreachableError);
    expect(downloadFailureLine(error, sources)).toBe(
      `http://127.0.0.1:${port}/envtest-releases.yaml is unreachable (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}): no network, or a host you cannot reach from here; ` +
        "point TSOP_ENVTEST_INDEX_URL at a mirror, or build them from source instead with 'npx tsop envtest use --source' (needs Go 1.26+)",
    );
    expect(installedVersions(root)).toEqual([]);
  });

  it('downloads once when two processes ask at the same time; the other waits and finds the result', async () => {
    const root = newRoot();
    const from = mirror.requests.length;
    const [a, b] = await Promise.all([
      installBinaries(request(root, { fuller: false })),
      installBinaries(request(root, { fuller: false })),
    ]);
    expect(a.dir).toBe(b.dir);
    expect([a.fetched, b.fetched].sort((x, y) => x.length - y.length)).toEqual([[], [...ENVTEST_BINARIES]]);
    expect(mirror.requests.slice(from).filter((r) => r.path === `/objects/${mirror.archiveName}`)).toHaveLength(1);
  });

  it("adds the fuller plane to setup-envtest's read-only directory and leaves it read-only", async () => {
    const root = newRoot();
    const dir = join(root, 'k8s', versionDirName(version));
    mkdirSync(dir, { recursive: true });
    for (const b of ENVTEST_BINARIES) copyFileSync(join(source, b), join(dir, b));
    chmodSync(dir, 0o555);
    const from = mirror.requests.length;
    expect((await installBinaries(request(root))).fetched).toEqual([...FULLER_BINARIES]);
    expect(statSync(dir).mode & 0o777).toBe(0o555);
    // The trio was reused, not fetched: setup-envtest's binaries serve tsop as they are.
    expect(
      mirror.requests.slice(from).some((r) => r.path.endsWith('.tar.gz') || r.path.endsWith('envtest-releases.yaml')),
    ).toBe(false);
  });

  it('ignores a stale lock of a process that died mid-download', async () => {
    const root = newRoot();
    const locks = join(root, 'k8s', '.tsop-downloads');
    mkdirSync(locks, { recursive: true });
    // A pid above Linux's largest (2^22) belongs to no process.
    writeFileSync(
      join(locks, `${versionDirName(version)}.lock`),
      JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname() }),
    );
    expect((await installBinaries(request(root, { fuller: false }))).fetched).toEqual([...ENVTEST_BINARIES]);
    expect(fetchesOf(mirror.archiveName).length).toBeGreaterThan(0);
  });
});
