/**
 * tsop as users get it: `npm pack` of this checkout, published to a real npm registry on loopback
 * (verdaccio, see package-registry.ts), then `npx tsop@<version> init` in an empty directory with
 * no checkout in sight. The generated project names tsop by a semver range, its own `npm install`
 * resolves tsop from the registry (so does `npm i -D tsop && npx tsop init` in a directory with a
 * package.json), `create api` and `manifests` run from the installed package, its
 * `npm test` passes against the control plane it starts itself, and its Dockerfile's builder stage
 * builds from the project alone.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TSOP_VERSION } from '../../src/version.js';
import { tsopRegistry, type TsopRegistry } from './package-registry.js';

const MINUTES = 60_000;

describe('tsop from a registry', () => {
  let registry: TsopRegistry;
  let tarball: string;
  let work: string;
  let project: string;
  const run = (cmd: string, args: string[], cwd: string) =>
    execa(cmd, args, { cwd, env: { ...registry.env, NO_COLOR: '1' }, extendEnv: false, all: true, reject: false });

  beforeAll(async () => {
    registry = await tsopRegistry();
    work = mkdtempSync(join(tmpdir(), 'tsop-package-'));
    tarball = registry.tarball;
    project = join(work, 'empty', 'shop-operator');
    mkdirSync(project, { recursive: true });
    // The first file to ask also waits for the run's package store to fill (package-registry-broker.ts).
  }, 10 * MINUTES);

  afterAll(async () => {
    await registry?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('packs what runs and nothing that only tests tsop', async () => {
    const listed = await execa('tar', ['-tzf', tarball]);
    const files = listed.stdout.split('\n').map((f) => f.replace(/^package\//, ''));
    for (const needed of [
      'bin/tsop.js',
      'dist/bundle/launch.js',
      'dist/bundle/cli.cjs',
      'dist/bundle/worker.js',
      'dist/bundle/templates.precompiled.cjs',
      'runtime/index.ts',
      'runtime/testing/register.mjs',
      // What a project's tests and vitest.config.ts import from the package (package.json "exports").
      'runtime/testing/index.ts',
      'runtime/envtest/index.ts',
      'dist/bundle/vitest-plugin.js',
      'scripts/control-plane.sh',
      'src/codegen/core/core-schemas.json',
      'package.json',
      'README.md',
      'LICENSE',
    ]) {
      expect(files, needed).toContain(needed);
    }
    const unwanted = files.filter(
      (f) =>
        /\.test\.ts$|\.contract\.ts$|(^|\/)(testdata|test-fixtures)\/|^(test|bench|templates|src\/(?!codegen\/core\/core-schemas\.json$))|^dist\/(?!bundle\/)/.test(
          f,
        ) || /^scripts\/(?!control-plane\.sh$)/.test(f),
    );
    expect(unwanted).toEqual([]);
  });

  it(
    'npx tsop@<version> init in an empty directory installs tsop from the registry by version',
    async () => {
      const init = await run(
        'npx',
        ['--yes', `tsop@${TSOP_VERSION}`, 'init', '--domain', 'example.com', '--owner', 'Package Test'],
        project,
      );
      expect(init.exitCode, init.all).toBe(0);
      expect(init.all).toContain('running npm install...');
      const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
        devDependencies: Record<string, string>;
      };
      expect(pkg.devDependencies['tsop']).toBe(`^${TSOP_VERSION}`);
      // A real install, not a link to a checkout, and the lock file records the registry's tarball.
      expect(lstatSync(join(project, 'node_modules/tsop')).isSymbolicLink()).toBe(false);
      expect(existsSync(join(project, 'node_modules/tsop/test'))).toBe(false);
      const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { version?: string; resolved?: string }>;
      };
      expect(lock.packages['node_modules/tsop']).toMatchObject({
        version: TSOP_VERSION,
        resolved: `${registry.url}tsop/-/tsop-${TSOP_VERSION}.tgz`,
      });
    },
    10 * MINUTES,
  );

  it(
    'npm i -D tsop && npx tsop init in a directory npm init made: init takes over its package.json',
    async () => {
      const dir = join(work, 'npm-first', 'billing-operator');
      mkdirSync(dir, { recursive: true });
      expect((await run('npm', ['init', '-y'], dir)).exitCode).toBe(0);
      const add = await run('npm', ['i', '-D', `tsop@${TSOP_VERSION}`, '--no-audit', '--no-fund'], dir);
      expect(add.exitCode, add.all).toBe(0);
      const init = await run('npx', ['tsop', 'init', '--domain', 'example.com'], dir);
      expect(init.exitCode, init.all).toBe(0);
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name: string;
        type: string;
        scripts: Record<string, string>;
        devDependencies: Record<string, string>;
      };
      expect(pkg).toMatchObject({ name: 'billing-operator', type: 'module' });
      expect(pkg.devDependencies['tsop']).toBe(`^${TSOP_VERSION}`);
      expect(pkg.scripts['test']).toMatch(/^tsop manifests && /);
      const create = await run(
        'npx',
        ['tsop', 'create', 'api', '--group', 'billing', '--version', 'v1', '--kind', 'Invoice'],
        dir,
      );
      expect(create.exitCode, create.all).toBe(0);
      const typecheck = await run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit'], dir);
      expect(typecheck.exitCode, typecheck.all).toBe(0);
    },
    10 * MINUTES,
  );

  it(
    'create api and manifests run from the installed package',
    async () => {
      const create = await run(
        'npx',
        ['tsop', 'create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Order'],
        project,
      );
      expect(create.exitCode, create.all).toBe(0);
      const manifests = await run('npm', ['run', 'manifests'], project);
      expect(manifests.exitCode, manifests.all).toBe(0);
      expect(readFileSync(join(project, 'config/crd/bases/shop.example.com_orders.yaml'), 'utf8')).toContain(
        'kind: CustomResourceDefinition',
      );
      expect(readFileSync(join(project, 'src/runtime/VERSION'), 'utf8').trim()).toBe(TSOP_VERSION);
      // The runtime embedded from the package matches the CHECKSUMS written with it.
      const sums = await run(
        'sha256sum',
        ['--check', '--strict', '--quiet', 'CHECKSUMS'],
        join(project, 'src/runtime'),
      );
      expect(sums.exitCode, sums.all).toBe(0);
    },
    5 * MINUTES,
  );

  it(
    'passes its own tests against the control plane it starts',
    async () => {
      const test = await run('npm', ['test'], project);
      expect(test.exitCode, test.all).toBe(0);
      expect(test.all).toMatch(/✓ src\/controllers\/order-controller\.test\.ts/);
    },
    10 * MINUTES,
  );

  it(
    "builds the image's builder stage from the project alone",
    async () => {
      // No Docker engine here: the builder stage's COPY and RUN steps run in a directory holding
      // only what the Dockerfile copies (as in scaffold.int.test.ts).
      const context = join(work, 'image-context');
      mkdirSync(context);
      const builder = readFileSync(join(project, 'Dockerfile'), 'utf8').split(/^FROM /m)[1] ?? '';
      for (const [, op, args] of builder.matchAll(/^(COPY|RUN) (.+)$/gm)) {
        if (op === 'COPY') {
          for (const source of args!.split(' ').slice(0, -1)) {
            const path = join(project, source.replace(/\*$/, ''));
            if (existsSync(path)) cpSync(path, join(context, source.replace(/\*$/, '')), { recursive: true });
          }
        } else {
          const step = await run('sh', ['-c', args!], context);
          expect(step.exitCode, `${args}\n${step.all}`).toBe(0);
        }
      }
      expect(existsSync(join(context, 'build/main.js'))).toBe(true);
      expect(existsSync(join(context, 'node_modules/tsop'))).toBe(false);
      const help = await run(process.execPath, ['build/main.js', '--help'], context);
      expect(help.exitCode, help.all).toBe(0);
    },
    10 * MINUTES,
  );
});
