/**
 * vitest globalSetup: one local npm registry for the run, holding the packed tsop. The tests
 * that install tsop as users do (test/e2e/package.int.test.ts, test/verify/installed.int.test.ts,
 * test/docs/getting-started.int.test.ts) each used to start verdaccio, pack tsop and publish it;
 * now the first to ask starts the registry, packs and publishes once, and the next ones install
 * from the same registry, whose storage already holds the dependencies it fetched for the first.
 * Each test file still installs with an npm cache of its own, whose package store is the one this
 * setup makes for the run (test/e2e/package-registry.ts says why).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import {
  startLocalRegistry,
  type LocalRegistry,
  type SharedRegistryAddress,
  REGISTRY_BROKER_KEY,
} from '../e2e/package-registry.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));

interface GlobalSetupProject {
  provide(key: typeof REGISTRY_BROKER_KEY, value: { url: string; token: string; contentCache: string }): void;
}

/** The registry with tsop published in it, and the tarball that was published. */
async function startWithTsop(
  contentCache: string,
): Promise<{ registry: LocalRegistry; shared: SharedRegistryAddress }> {
  const registry = await startLocalRegistry({ contentCache });
  try {
    // --ignore-scripts: pack the dist/ the run's globalSetup built, never rebuild it under the tests.
    const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', registry.dir], {
      cwd: TSOP,
      env: registry.env,
      extendEnv: false,
      all: true,
      reject: false,
    });
    if (packed.exitCode !== 0) throw new Error(`npm pack failed:\n${packed.all}`);
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; version: string }>;
    const tarball = join(registry.dir, info!.filename);
    await registry.publish(tarball);
    await fillPackageStore(registry, info!.version);
    return {
      registry,
      shared: { registryUrl: registry.url, userconfig: registry.env['npm_config_userconfig']!, tarball },
    };
  } catch (error) {
    await registry.stop();
    throw error;
  }
}

/**
 * Installs a generated project once, so that the run's package store holds every document and
 * tarball a new project needs before any test file gets the registry. Verdaccio answers on one
 * thread and parses a package's whole document (megabytes for typescript) for each request: the
 * test files that start together used to miss the store together and queue behind it, and a
 * single `npx tsop@<version> init` took 210 s beside four others instead of 62 s alone. With the
 * store filled, npm (prefer-offline) asks the registry for none of it.
 */
async function fillPackageStore(registry: LocalRegistry, version: string): Promise<void> {
  const project = join(registry.dir, 'fill-package-store');
  mkdirSync(project);
  const steps: Array<[string, string[], Record<string, string>]> = [
    [
      process.execPath,
      [join(TSOP, 'bin/tsop.js'), 'init', '--domain', 'example.com', '--skip-install'],
      { TSOP_DEPENDENCY: `^${version}` },
    ],
    ['npm', ['install', '--no-audit', '--no-fund'], {}],
  ];
  for (const [cmd, args, env] of steps) {
    const done = await execa(cmd, args, {
      cwd: project,
      env: { ...registry.env, ...env },
      extendEnv: false,
      all: true,
      reject: false,
    });
    if (done.exitCode !== 0) throw new Error(`filling the package store: ${args.join(' ')} failed:\n${done.all}`);
  }
  rmSync(project, { recursive: true, force: true });
}

export default async function setup(project: GlobalSetupProject): Promise<() => Promise<void>> {
  const token = randomBytes(16).toString('hex');
  const contentCache = mkdtempSync(join(tmpdir(), 'tsop-npm-store-'));
  let started: ReturnType<typeof startWithTsop> | undefined;
  const server = createServer((req, res) => {
    const reply = (status: number, body: unknown): void =>
      void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'POST' || req.url !== '/registry' || req.headers.authorization !== `Bearer ${token}`)
      return reply(404, { error: 'not found' });
    started ??= startWithTsop(contentCache);
    started.then(
      (s) => reply(200, s.shared),
      (error: unknown) => reply(500, { error: error instanceof Error ? error.message : String(error) }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide(REGISTRY_BROKER_KEY, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    contentCache,
  });
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const s = await started?.catch(() => undefined);
    await s?.registry.stop();
    rmSync(contentCache, { recursive: true, force: true });
  };
}
