/**
 * `tsop manifests --verify` from tsop installed as users install it: packed, published to a local
 * registry (test/e2e/package-registry.ts) and installed into a project by `npx tsop@<version> init`.
 * The harness it starts is TypeScript inside node_modules/tsop and imports the project's
 * @kubernetes/client-node: the bad fixture gives its findings at file:line (exit 1), the good one
 * passes (exit 0), also from a tsop that is not the project's (npx's cache, `--dir`), and a
 * project without node_modules gets one line saying to run `npm install` (exit 2).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TSOP_VERSION } from '../../src/version.js';
import { tsopRegistry, type TsopRegistry } from '../e2e/package-registry.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const MINUTES = 60_000;

describe('tsop manifests --verify from the installed package', () => {
  let registry: TsopRegistry;
  let work: string;
  let project: string;
  const run = (cmd: string, args: string[], cwd: string) =>
    execa(cmd, args, {
      cwd,
      env: { ...registry.env, NO_COLOR: '1' },
      extendEnv: false,
      reject: false,
      stripFinalNewline: false,
    });

  /** The fixture's API and samples in `dir`, importing the markers from the project's embedded runtime. */
  const useFixture = (name: string, dir: string): void => {
    for (const sub of ['src/api', 'config/samples']) rmSync(join(dir, sub), { recursive: true, force: true });
    cpSync(join(fixture(name), 'config/samples'), join(dir, 'config/samples'), { recursive: true });
    const api = join(fixture(name), 'src/api');
    for (const version of readdirSync(api)) {
      mkdirSync(join(dir, 'src/api', version), { recursive: true });
      for (const file of readdirSync(join(api, version))) {
        // Same line count, so the findings' lines are the fixture's.
        const text = readFileSync(join(api, version, file), 'utf8').replace(
          /'(\.\.\/)+runtime\/markers\/index\.js'/g,
          "'../../runtime/markers/index.js'",
        );
        writeFileSync(join(dir, 'src/api', version, file), text);
      }
    }
  };

  beforeAll(async () => {
    registry = await tsopRegistry();
    work = mkdtempSync(join(tmpdir(), 'tsop-verify-installed-'));
    project = join(work, 'cache-operator');
    mkdirSync(project);
    const init = await run('npx', ['--yes', `tsop@${TSOP_VERSION}`, 'init', '--domain', 'example.com'], project);
    expect(init.exitCode, `${init.stdout}\n${init.stderr}`).toBe(0);
    expect(existsSync(join(project, 'node_modules/tsop/runtime/envtest/index.ts'))).toBe(true);
  }, 10 * MINUTES);

  afterAll(async () => {
    await registry?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it(
    'bad project: exit 1, one line per finding at file:line',
    async () => {
      useFixture('bad', project);
      const r = await run('npx', ['tsop', 'manifests', '--verify'], project);
      expect(r.exitCode, r.stderr).toBe(1);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^tsop: verified 1 CRD and 1 sample on kube-apiserver v[\d.]+ in [\d.]+ s: 4 errors$/);
      expect(lines.slice(1).map((l) => /^tsop: ([^:]+:\d+): /.exec(l)?.[1])).toEqual([
        'config/samples/cache_v1_cache.yaml:6',
        'src/api/v1/cache.ts:8',
        'src/api/v1/cache.ts:16',
        'src/api/v1/cache.ts:24',
      ]);
    },
    3 * MINUTES,
  );

  it(
    'good project: exit 0 with --check, printing the default the server applied',
    async () => {
      useFixture('good', project);
      const generated = await run('npx', ['tsop', 'manifests'], project);
      expect(generated.exitCode, generated.stderr).toBe(0);
      const r = await run('npx', ['tsop', 'manifests', '--check', '--verify'], project);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(
        'config/samples/cache_v1_cache.yaml:5: Cache cache-sample: spec.port defaulted to 11211 (from src/api/v1/cache.ts:17 @Default)\n',
      );
      expect(r.stderr).toMatch(
        /^tsop: verified 1 CRD and 1 sample on kube-apiserver v[\d.]+ in [\d.]+ s: no errors\n$/,
      );
    },
    3 * MINUTES,
  );

  it(
    "a tsop that is not the project's (npx's cache) takes @kubernetes/client-node from the project",
    async () => {
      useFixture('good', project);
      const elsewhere = join(work, 'elsewhere');
      mkdirSync(elsewhere, { recursive: true });
      const r = await run(
        'npx',
        ['--yes', `tsop@${TSOP_VERSION}`, 'manifests', '--verify', '--dir', project],
        elsewhere,
      );
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /^tsop: verified 1 CRD and 1 sample on kube-apiserver v[\d.]+ in [\d.]+ s: no errors\n$/,
      );
      // It really was another copy: npx installed tsop into its own cache, without the devDependency.
      const copies = readdirSync(join(registry.env['npm_config_cache']!, '_npx')).filter((d) =>
        existsSync(join(registry.env['npm_config_cache']!, '_npx', d, 'node_modules/tsop')),
      );
      expect(copies.length).toBeGreaterThan(0);
      for (const d of copies)
        expect(
          existsSync(join(registry.env['npm_config_cache']!, '_npx', d, 'node_modules/@kubernetes/client-node')),
        ).toBe(false);
    },
    3 * MINUTES,
  );

  it(
    'a project without node_modules: exit 2, one line saying to run npm install',
    async () => {
      const fresh = join(work, 'fresh-clone');
      mkdirSync(fresh);
      for (const f of ['PROJECT', 'package.json']) cpSync(join(project, f), join(fresh, f));
      mkdirSync(join(fresh, 'src'));
      cpSync(join(project, 'src/runtime'), join(fresh, 'src/runtime'), { recursive: true });
      useFixture('good', fresh);
      const r = await run('npx', ['--yes', `tsop@${TSOP_VERSION}`, 'manifests', '--verify'], fresh);
      expect({
        code: r.exitCode,
        stdout: r.stdout,
        stderr: r.stderr.split('\n').filter((l) => !/^npm (warn|notice)/.test(l)),
      }).toEqual({
        code: 2,
        stdout: '',
        stderr: [
          `tsop: --verify: ${fresh} has no node_modules yet (the control-plane harness needs @kubernetes/client-node); run 'npm install' there first`,
          '',
        ],
      });
    },
    3 * MINUTES,
  );
});
