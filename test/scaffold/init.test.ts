/**
 * `tsop init`: the full generated tree against golden files, the embedded runtime against tsop's
 * runtime/, flags reaching the files they govern, and re-running being refused without --force.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nextSteps, runInit } from '../../src/cli/init.js';
import { runtimeFiles } from '../../src/scaffold/embedded-runtime.js';
import { UserError } from '../../src/errors.js';
import { TSOP_VERSION } from '../../src/version.js';
import { captured, expectGolden, readTree, tempProject } from './harness.js';

const RUNTIME = 'src/runtime/';

// Each case writes a whole project (about 140 files); allow for a loaded machine.
describe('tsop init', { timeout: 30_000 }, () => {
  it('writes the default tree (golden: init-default)', async () => {
    const dir = tempProject('memcached-operator');
    await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
    const files = readTree(dir);
    expectGolden('init-default', files, [RUNTIME, 'scripts/control-plane.sh']);
  });

  it('embeds the runtime minus tests and fixtures, stamped with the tsop version', async () => {
    const dir = tempProject('embedded');
    await runInit({ dir, skipInstall: true }, captured());
    const files = readTree(dir);
    const embedded = Object.keys(files).filter((p) => p.startsWith(RUNTIME));
    expect(embedded.sort()).toEqual(
      [...runtimeFiles().map(([p]) => p), `${RUNTIME}VERSION`, `${RUNTIME}CHECKSUMS`].sort(),
    );
    expect(
      embedded.some(
        (p) =>
          p.endsWith('.test.ts') ||
          p.endsWith('.contract.ts') ||
          p.includes('/testdata/') ||
          p.includes('/test-fixtures/'),
      ),
    ).toBe(false);
    expect(files[`${RUNTIME}VERSION`]).toBe(`${TSOP_VERSION}\n`);
    expect(files[`${RUNTIME}manager/manager.ts`]).toBe(
      readFileSync(new URL('../../runtime/manager/manager.ts', import.meta.url), 'utf8'),
    );
    expect(files['scripts/control-plane.sh']).toBe(
      readFileSync(new URL('../../scripts/control-plane.sh', import.meta.url), 'utf8'),
    );
  });

  it('writes a namespaced, multigroup, unlicensed project (golden: init-namespaced)', async () => {
    const dir = tempProject('fleet');
    await runInit(
      {
        dir,
        domain: 'fleet.io',
        repo: '@fleet/operator',
        owner: 'Fleet Org',
        license: 'none',
        namespaced: true,
        multigroup: true,
        skipInstall: true,
      },
      captured(),
    );
    expectGolden('init-namespaced', readTree(dir), [RUNTIME, 'scripts/control-plane.sh']);
  });

  it('refuses to run twice without --force, and overwrites with it', async () => {
    const dir = tempProject('again');
    await runInit({ dir, skipInstall: true }, captured());
    await expect(runInit({ dir, skipInstall: true }, captured())).rejects.toThrow(
      `${dir} already has a PROJECT file (the project is initialised); pass --force to scaffold it again`,
    );
    const io = captured();
    await runInit({ dir, skipInstall: true, force: true, projectName: 'renamed' }, io);
    expect(readFileSync(join(dir, 'PROJECT'), 'utf8')).toContain('projectName: renamed');
  });

  it.each([
    [{ domain: 'Bad_Domain' }, "--domain: 'Bad_Domain' is not a DNS-1123 subdomain"],
    [{ projectName: 'Bad Name' }, "--project-name: 'Bad Name' is not a DNS-1123 label"],
    [{ license: 'mit' }, "--license: 'mit' is not a known license; use 'apache2' or 'none'"],
    [{ repo: 'Has Spaces' }, "--repo: 'Has Spaces' is not a valid npm package name"],
    [{ projectVersion: '2' }, "--project-version: '2' is not a PROJECT version tsop writes; use 3"],
    [{ fetchDeps: true }, '--fetch-deps=true and --skip-install=true disagree'],
  ])('rejects %o with one line and writes nothing', async (flags, expected) => {
    const dir = tempProject('rejected');
    const error = await runInit({ dir, skipInstall: true, ...flags }, captured()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain(expected);
    expect((error as Error).message).not.toContain('\n');
    expect(Object.keys(readTree(dir))).toEqual([]);
  });

  it("takes kubebuilder's --fetch-deps=false for --skip-install and --project-version 3", async () => {
    const dir = tempProject('kubebuilder-names');
    const io = captured();
    await runInit({ dir, domain: 'example.com', fetchDeps: false, projectVersion: '3' }, io);
    expect(readFileSync(join(dir, 'PROJECT'), 'utf8')).toContain('version: "3"\n');
    // No npm install ran: the next steps still say to run it.
    expect(io.stderr).toContain('&& npm install && npx tsop create api');
  });

  it('prints the plan with --dry-run and writes nothing', async () => {
    const dir = tempProject('dry');
    const io = captured();
    await runInit({ dir, skipInstall: true, dryRun: true }, io);
    expect(io.stdout).toContain('create    PROJECT\n');
    expect(io.stdout).toContain('create    src/main.ts\n');
    expect(Object.keys(readTree(dir))).toEqual([]);
  });

  it('--license-file: its comment is the header of every scaffolded TypeScript file and hack/boilerplate.ts.txt', async () => {
    const dir = tempProject('licensed');
    const header = join(dir, '..', 'header.txt');
    writeFileSync(header, '/*\r\n Copyright Acme. All rights reserved.\r\n*/\r\n\r\n');
    await runInit({ dir, skipInstall: true, licenseFile: header, plugins: 'go/v4' }, captured());
    const files = readTree(dir);
    expect(files['hack/boilerplate.ts.txt']).toBe('/*\n Copyright Acme. All rights reserved.\n*/\n');
    expect(files['src/main.ts']!.startsWith('/*\n Copyright Acme. All rights reserved.\n*/\n\n')).toBe(true);
    expect(files['test/e2e/cluster.ts']!.startsWith('/*\n Copyright Acme.')).toBe(true);
  });

  it('says how to go on from where the user is: cd into the project, npm install if skipped, npx tsop', () => {
    expect(nextSteps('/w/op', false, '/w/op')).toBe('npx tsop create api --group <group> --version v1 --kind <Kind>');
    expect(nextSteps('/w/op', true, '/w')).toBe(
      'cd op && npm install && npx tsop create api --group <group> --version v1 --kind <Kind>',
    );
    expect(nextSteps('/w/my op', false, '/x')).toBe(
      "cd '../w/my op' && npx tsop create api --group <group> --version v1 --kind <Kind>",
    );
    expect(nextSteps("/w/it's", false, '/w')).toBe(
      "cd 'it'\\''s' && npx tsop create api --group <group> --version v1 --kind <Kind>",
    );
  });
});
