import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skipReason } from './control-plane.js';

// Every temp dir of this file lives under one root, removed at the end.
const scratch = mkdtempSync(join(tmpdir(), 'tsop-control-plane-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('when control-plane suites are skipped', () => {
  const empty = mkdtempSync(join(scratch, 'no-assets-'));
  const noGo = { PATH: '/nonexistent', KUBEBUILDER_ASSETS: empty };

  it('skips, saying how to get the binaries, only without binaries and without Go', () => {
    expect(skipReason({}, noGo)).toMatch(
      /install Go and run `bash scripts\/control-plane\.sh`, or set KUBEBUILDER_ASSETS/,
    );
  });

  it('never skips in CI: the suite fails there instead', () => {
    expect(skipReason({}, { ...noGo, CI: 'true' })).toBeUndefined();
  });

  it('never skips where Go can build the binaries', () => {
    const bin = mkdtempSync(join(scratch, 'fake-go-'));
    writeFileSync(join(bin, 'go'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    expect(skipReason({}, { PATH: bin, KUBEBUILDER_ASSETS: empty })).toBeUndefined();
  });
});

describe('when suites asking for the fuller plane are skipped', () => {
  const trio = mkdtempSync(join(scratch, 'trio-only-'));
  for (const name of ['etcd', 'kube-apiserver']) {
    writeFileSync(join(trio, name), '#!/bin/sh\n');
    chmodSync(join(trio, name), 0o755);
  }
  const noGo = { PATH: '/nonexistent', KUBEBUILDER_ASSETS: trio };

  it('runs a plain suite on the trio alone', () => {
    expect(skipReason({}, noGo)).toBeUndefined();
  });

  it('skips a `controllers: true` suite without the fuller binaries only where Go is absent, naming the script', () => {
    expect(skipReason({ controllers: true }, noGo)).toMatch(
      /kube-controller-manager, kube-scheduler and kwok .* run `bash scripts\/control-plane\.sh`/,
    );
    expect(skipReason({ controllers: true }, { ...noGo, CI: 'true' })).toBeUndefined();
  });
});

describe('when suites that could download their binaries are skipped', () => {
  const cache = mkdtempSync(join(scratch, 'empty-cache-'));
  const noGo = { PATH: '/nonexistent', TSOP_ASSETS_ROOT: cache };

  it('runs them (the plane downloads at start) when the download index answers', async () => {
    // In a process of its own: skipReason asks synchronously, so a server here could not answer.
    const server = spawn(
      process.execPath,
      [
        '-e',
        "const s = require('node:http').createServer((q, r) => r.end('releases: {}')).listen(0, '127.0.0.1', () => console.log(s.address().port))",
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const port = await new Promise<string>((r) => server.stdout.once('data', (d: Buffer) => r(d.toString().trim())));
    try {
      const url = `http://127.0.0.1:${port}/envtest-releases.yaml`;
      expect(skipReason({}, { ...noGo, TSOP_ENVTEST_INDEX_URL: url })).toBeUndefined();
      // Not with downloads off: then nothing can get the binaries here.
      expect(skipReason({}, { ...noGo, TSOP_ENVTEST_INDEX_URL: url, TSOP_ENVTEST_DOWNLOAD: 'false' })).toMatch(
        /^no control-plane binaries, downloads are off and no Go/,
      );
    } finally {
      server.kill();
      await new Promise((r) => server.once('exit', r));
    }
  });

  it('skips them, naming the index it could not reach, when nothing answers and Go is absent', () => {
    expect(skipReason({}, { ...noGo, TSOP_ENVTEST_INDEX_URL: 'http://127.0.0.1:9/envtest-releases.yaml' })).toBe(
      'no control-plane binaries, http://127.0.0.1:9/envtest-releases.yaml is unreachable (set ' +
        'TSOP_ENVTEST_INDEX_URL to a mirror) and no Go to build them: install Go and run `bash ' +
        "scripts/control-plane.sh`, or set KUBEBUILDER_ASSETS to setup-envtest's directory",
    );
  });
});
