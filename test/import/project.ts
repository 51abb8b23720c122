/**
 * A fresh tsop project for the import tests, made and run through the built CLI as a user would:
 * `tsop init`, then whatever the test runs (`tsop import crd`, `tsop create api`), the author's
 * files copied in, `npm install` from the shared npm cache and `npm run build`. The temp folder is
 * removed after the test file.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, expect } from 'vitest';
import { TSOP } from '../e2e/seeds/seed-project.js';

const tempRoot = mkdtempSync(join(tmpdir(), 'tsop-import-'));
afterAll(() => rmSync(tempRoot, { recursive: true, force: true }));

export interface ImportProject {
  readonly dir: string;
  run(cmd: string, args: string[]): ResultPromise<{ all: true; reject: false }>;
  tsop(...args: string[]): ResultPromise<{ all: true; reject: false }>;
  /** Copies test/import/fixtures/<name>/src over the project's src. */
  copyFixture(name: string): void;
  /** npm install (from the cache every project shares) and npm run build (manifests + tsc). */
  installAndBuild(): Promise<void>;
}

export async function newProject(name: string, domain: string): Promise<ImportProject> {
  const dir = join(mkdtempSync(join(tempRoot, 'p-')), name);
  mkdirSync(dir);
  const run: ImportProject['run'] = (cmd, args) =>
    execa(cmd, args, {
      cwd: dir,
      env: { NO_COLOR: '1', TSOP_DEPENDENCY: `file:${TSOP}` },
      all: true,
      reject: false,
      extendEnv: true,
    });
  const tsop: ImportProject['tsop'] = (...args) => run(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args]);
  const init = await tsop('init', '--domain', domain, '--skip-install');
  expect(init.exitCode, init.all).toBe(0);
  return {
    dir,
    run,
    tsop,
    copyFixture: (fixture) =>
      cpSync(join(TSOP, 'test/import/fixtures', fixture, 'src'), join(dir, 'src'), { recursive: true }),
    async installAndBuild() {
      const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts']);
      expect(install.exitCode, install.all).toBe(0);
      const build = await run('npm', ['run', 'build']);
      expect(build.exitCode, build.all).toBe(0);
    },
  };
}
