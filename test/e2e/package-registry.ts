/**
 * A real npm registry on loopback for the packaging tests: verdaccio (a devDependency) with its
 * storage in a temp dir. It alone serves `tsop` (what the test publishes, never the public
 * package of that name); every other package is proxied from the machine's own npm registry, so
 * a generated project installs its dependencies exactly as a user's would.
 *
 * `env` is what a child npm / npx needs to use it: the registry, a user config holding the
 * publish token, and an npm cache of its own (so no npx entry or tarball is left in the user's
 * cache). `stop()` ends the process and removes every file it made.
 *
 * Verdaccio parses a package's whole document (tens of megabytes for typescript) each time it
 * asks its uplink for it, and npm asks for each of a project's few hundred packages per install:
 * that was nearly half of the CPU the packaging tests took. So the uplink's answers stay fresh
 * for the whole run (`maxage`), npm prefers what its cache holds (`prefer-offline`, as many users
 * set), and the caches of one run share their package store (`_cacache`, content-addressed and
 * safe for concurrent npm processes) when they use the run's registry: a tarball or document
 * fetched once is not fetched again by the next install. Each cache keeps its own npx folder, so
 * an `npx tsop@<version>` still installs.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { inject } from 'vitest';
import { portBoundLater } from '../../runtime/envtest/ports.js';

const VERDACCIO = fileURLToPath(new URL('../../node_modules/verdaccio/bin/verdaccio', import.meta.url));

export const REGISTRY_BROKER_KEY = 'tsopPackageRegistry';

declare module 'vitest' {
  interface ProvidedContext {
    tsopPackageRegistry: { url: string; token: string; contentCache: string };
  }
}

/** What the run's registry (test/setup/package-registry-broker.ts) hands to a test file. */
export interface SharedRegistryAddress {
  registryUrl: string;
  /** An npmrc naming the registry (and holding its publish token). */
  userconfig: string;
  /** The packed tsop, as published. */
  tarball: string;
}

export interface LocalRegistry {
  url: string;
  /** Environment for child processes that should install from (and publish to) this registry. */
  env: Record<string, string>;
  /** A scratch directory removed with the registry. */
  dir: string;
  publish(tarball: string): Promise<void>;
  stop(): Promise<void>;
}

/** The parent environment less anything that would point npm elsewhere or pin tsop's dependency. */
export function cleanEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^npm_/i.test(k) || k === 'TSOP_DEPENDENCY' || k === 'INIT_CWD') continue;
    out[k] = v;
  }
  return out;
}

/**
 * An npm cache in `dir`: its own npx folder and logs, and the run's package store when there is
 * one (`contentCache`, linked in as `_cacache`).
 */
function npmCache(dir: string, contentCache: string | undefined): string {
  const cache = join(dir, 'npm-cache');
  mkdirSync(cache, { recursive: true });
  if (contentCache) symlinkSync(contentCache, join(cache, '_cacache'), 'dir');
  return cache;
}

/** The environment for a child npm / npx that installs from `registry` with `cache`. */
function npmEnv(registry: string, userconfig: string, cache: string): Record<string, string> {
  return {
    ...cleanEnv(),
    npm_config_registry: registry,
    npm_config_userconfig: userconfig,
    npm_config_cache: cache,
    npm_config_prefer_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

export interface LocalRegistryOptions {
  /** The one package the registry holds itself (never proxied). */
  packageName?: string;
  /**
   * A package store shared with the other npm caches that use this registry. Only for a registry
   * that lives the whole run: npm keys what it stores by URL, and a later registry on a reused
   * port would meet this one's documents.
   */
  contentCache?: string;
}

export async function startLocalRegistry({
  packageName = 'tsop',
  contentCache,
}: LocalRegistryOptions = {}): Promise<LocalRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'tsop-registry-'));
  let server: ResultPromise | undefined;
  try {
    const upstream = (
      await execa('npm', ['config', 'get', 'registry'], { env: cleanEnv(), extendEnv: false })
    ).stdout.trim();
    const port = await portBoundLater();
    const url = `http://127.0.0.1:${port}/`;
    mkdirSync(join(dir, 'storage'));
    writeFileSync(
      join(dir, 'config.yaml'),
      [
        `storage: ${join(dir, 'storage')}`,
        'auth:',
        '  htpasswd:',
        `    file: ${join(dir, 'htpasswd')}`,
        'uplinks:',
        '  upstream:',
        `    url: ${upstream}`,
        // Asked once per run: the registry lives for one test run.
        '    maxage: 60m',
        '    timeout: 60s',
        '    max_fails: 10',
        'packages:',
        // No proxy: the packed tsop is the only tsop this registry knows.
        `  '${packageName}':`,
        '    access: $all',
        '    publish: $authenticated',
        "  '**':",
        '    access: $all',
        '    publish: $authenticated',
        '    proxy: upstream',
        'web:',
        '  enable: false',
        'max_body_size: 100mb',
        'log: { type: stdout, format: json, level: warn }',
        '',
      ].join('\n'),
    );
    server = execa(
      process.execPath,
      [VERDACCIO, '--config', join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`],
      {
        env: cleanEnv(),
        extendEnv: false,
        all: true,
        reject: false,
      },
    );
    let log = '';
    server.all?.on('data', (c: Buffer) => (log += c.toString()));
    await waitForPing(url, server, () => log);

    // A user for publishing (verdaccio's htpasswd plugin creates it on first login).
    const login = await fetch(new URL('-/user/org.couchdb.user:tsop-test', url), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'tsop-test', password: 'tsop-test-password' }),
    });
    const { token } = (await login.json()) as { token?: string };
    if (!token) throw new Error(`verdaccio gave no token (HTTP ${login.status})`);
    const npmrc = join(dir, 'npmrc');
    writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
    const env = npmEnv(url, npmrc, npmCache(dir, contentCache));
    const running = server;
    return {
      url,
      env,
      dir,
      async publish(tarball) {
        const published = await execa('npm', ['publish', tarball, '--registry', url, '--tag', 'latest'], {
          env,
          extendEnv: false,
          all: true,
          reject: false,
        });
        if (published.exitCode !== 0) throw new Error(`npm publish ${tarball} failed:\n${published.all}`);
      },
      async stop() {
        running.kill('SIGTERM');
        await running;
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (server) {
      server.kill('SIGKILL');
      await server;
    }
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function waitForPing(url: string, server: ResultPromise, log: () => string): Promise<void> {
  let exited = false;
  void server.then(() => (exited = true));
  for (let i = 0; i < 300; i++) {
    if (exited) throw new Error(`verdaccio exited before answering:\n${log()}`);
    try {
      if ((await fetch(new URL('-/ping', url))).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`verdaccio did not answer ${url}-/ping within 30 s:\n${log()}`);
}

/** The run's registry with tsop published, as one test file uses it: its own npm cache and scratch folder. */
export interface TsopRegistry {
  url: string;
  env: Record<string, string>;
  /** The tsop tarball the registry serves. */
  tarball: string;
  /** Removes this file's npm cache and scratch folder (the registry stays for the run). */
  stop(): Promise<void>;
}

/**
 * The broker's answer, through node:http rather than fetch: fetch gives up on an answer whose
 * headers take more than 300 s (undici's headersTimeout), and the first file to ask waits for the
 * whole of the registry's start.
 */
function askBroker(url: URL, token: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () =>
      req.destroy(new Error(`the package registry did not answer within ${timeoutMs / 1000} s`)),
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * The registry of the run with tsop packed and published in it (started by the first file that
 * asks, through the integration project's globalSetup), with an npm cache of this file's own
 * whose package store is the run's.
 */
export async function tsopRegistry(): Promise<TsopRegistry> {
  const broker = inject(REGISTRY_BROKER_KEY);
  if (!broker)
    throw new Error(
      'no package registry: the integration project runs test/setup/package-registry-broker.ts as a globalSetup',
    );
  // Packing, publishing and filling the run's package store: one project's install, under load.
  const body = JSON.parse(await askBroker(new URL('/registry', broker.url), broker.token, 600_000)) as
    | SharedRegistryAddress
    | { error: string };
  if ('error' in body) throw new Error(`the package registry did not start: ${body.error}`);
  const dir = mkdtempSync(join(tmpdir(), 'tsop-registry-user-'));
  return {
    url: body.registryUrl,
    tarball: body.tarball,
    env: npmEnv(body.registryUrl, body.userconfig, npmCache(dir, broker.contentCache)),
    async stop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
