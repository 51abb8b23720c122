/**
 * `tsop manifests --verify` from the built CLI (bin/tsop.js → dist/, `npm run build`), which loads
 * the control-plane harness from its TypeScript source: exit 1 with one line per finding on a bad
 * project, 0 on a good one (with --check too), and 2 with one line naming `tsop envtest use` and scripts/control-plane.sh without binaries.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/tsop.js', import.meta.url));
const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

function tsop(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('tsop manifests --verify (built CLI)', { timeout: 120_000 }, () => {
  it('exits 1 on a bad project with one line per finding, each at file:line', async () => {
    const r = await tsop(['manifests', '--verify', '--dir', fixture('bad')]);
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^tsop: verified 1 CRD and 1 sample on kube-apiserver v[\d.]+ in [\d.]+ s: 4 errors$/);
    expect(lines.slice(1).map((l) => /^tsop: ([^:]+:\d+): /.exec(l)?.[1])).toEqual([
      'config/samples/cache_v1_cache.yaml:6',
      'src/api/v1/cache.ts:8',
      'src/api/v1/cache.ts:16',
      'src/api/v1/cache.ts:24',
    ]);
  });

  const temps: string[] = [];
  afterAll(async () => {
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  it('exits 0 on a good project with its manifests committed, next to --check', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tsop-verify-'));
    temps.push(dir);
    await cp(fixture('good'), dir, { recursive: true });
    const generated = await tsop(['manifests', '--dir', dir]);
    expect(generated.code, generated.stderr).toBe(0);
    const r = await tsop(['manifests', '--check', '--verify', '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      'config/samples/cache_v1_cache.yaml:5: Cache cache-sample: spec.port defaulted to 11211 (from src/api/v1/cache.ts:17 @Default)\n',
    );
    expect(r.stderr).toMatch(/^tsop: verified 1 CRD and 1 sample on kube-apiserver v[\d.]+ in [\d.]+ s: no errors\n$/);
  });

  it('exits 2 with one line saying how to get the binaries when there are none', async () => {
    const r = await tsop(['manifests', '--verify', '--dir', fixture('good')], {
      ...process.env,
      KUBEBUILDER_ASSETS: fixture('good'),
    });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(
        new RegExp(
          /^tsop: --verify: no control-plane binaries \(etcd, kube-apiserver\) found; get them with 'npx tsop/.source +
            / envtest use' \(downloads\) or build them once with 'bash \/\S+\/scripts\/control-plane\.sh' .*KUBEBUILDER_ASSETS.*\n$/
              .source,
        ),
      ),
    });
  });
});
