/**
 * The built CLI runs from its one-file bundle (dist/bundle/, scripts/bundle.mjs) alone: a copy of
 * tsop holding only what the package ships — bin/, dist/bundle/, templates are precompiled in it,
 * runtime/, the control-plane script, the core schemas — scaffolds a project, generates its CRD
 * (also with an embedded pod template: the core schemas), and loads TypeScript through the
 * bundled `tsop dev` hooks. Anything that still reached for dist/'s unbundled modules
 * or found a data file next to its own source would fail here. Needs `npm run build` (npm test runs it).
 */
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const work = mkdtempSync(join(tmpdir(), 'tsop-bundle-'));
const tsop = join(work, 'tsop');
const project = join(work, 'shop');

/** Runs `node <args>` in `cwd`; fails the test with its output when it exits non-zero. */
async function node(cwd: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, args, { cwd, env: { ...process.env, NO_COLOR: '1' } });
}
const cli = (...args: string[]) => node(project, join(tsop, 'bin/tsop.js'), ...args);

beforeAll(() => {
  for (const path of [
    'bin',
    'dist/bundle',
    'runtime',
    'scripts/control-plane.sh',
    'src/codegen/core/core-schemas.json',
    'package.json',
  ]) {
    cpSync(join(ROOT, path), join(tsop, path), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(tsop, 'node_modules'));
  mkdirSync(project);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the CLI bundle on its own', () => {
  it('holds the CLI, the entries started by file name, and the precompiled templates', () => {
    const files = readdirSync(join(tsop, 'dist/bundle'));
    for (const entry of [
      'launch.js',
      'cli.cjs',
      'worker.js',
      'register.js',
      'hooks.js',
      'ts-hooks.js',
      'templates.precompiled.cjs',
    ])
      expect(files).toContain(entry);
    expect(existsSync(join(tsop, 'dist/src'))).toBe(false);
  });

  it('prints its version from the package root it finds', async () => {
    expect((await cli('--version')).stdout).toBe(`${pkg.version}\n`);
  });

  it("scaffolds, generates (create api's manifests step, then tsop manifests), and inlines a core type", async () => {
    await cli('init', '--domain', 'example.com', '--skip-install');
    expect(readFileSync(join(project, 'src/runtime/VERSION'), 'utf8').trim()).toBe(pkg.version);
    const created = await cli(
      'create',
      'api',
      '--group',
      'cache',
      '--version',
      'v1alpha1',
      '--kind',
      'Memcached',
      '--resource',
      '--controller',
    );
    const crd = join(project, 'config/crd/bases/cache.example.com_memcacheds.yaml');
    expect(created.stderr).toContain('config/crd/bases/cache.example.com_memcacheds.yaml');
    expect(readFileSync(crd, 'utf8')).toContain('name: memcacheds.cache.example.com');

    const types = join(project, 'src/api/v1alpha1/memcached.ts');
    const source = readFileSync(types, 'utf8');
    expect(source).toMatch(/export class MemcachedSpec \{/);
    writeFileSync(
      types,
      `import type { V1PodTemplateSpec } from '@kubernetes/client-node';\n${source.replace(/export class MemcachedSpec \{/, '$&\n  template?: V1PodTemplateSpec;')}`,
    );
    await cli('manifests');
    const schema = readFileSync(crd, 'utf8');
    expect(schema).toMatch(/^ {14}template:\n/m);
    expect(schema).toContain('terminationGracePeriodSeconds:');
  }, 120_000);

  it('loads no package from node_modules but the TypeScript compiler, and that only to parse', async () => {
    // NODE_DEBUG=module names every CommonJS file Node loads; the bundle holds everything else.
    const loads = async (...args: string[]) => {
      const { stderr } = await promisify(execFile)(process.execPath, [join(tsop, 'bin/tsop.js'), ...args], {
        cwd: project,
        env: { ...process.env, NODE_DEBUG: 'module' },
      });
      return [
        ...new Set(
          [...stderr.matchAll(/ load "([^"]+)"/g)]
            .map((m) => m[1] ?? '')
            .filter((f) => f.includes('node_modules') || f.endsWith('/yaml.cjs')),
        ),
      ];
    };
    // The yaml library is a file of the bundle, loaded by what parses or writes YAML through it.
    expect(
      await loads(
        'create',
        'api',
        '--group',
        'cache',
        '--version',
        'v1',
        '--kind',
        'Shelf',
        '--resource',
        '--controller',
        '--make=false',
      ),
    ).toEqual([join(tsop, 'dist/bundle/yaml.cjs')]);
    // A plain manifests run writes its YAML itself: no yaml library to load and compile.
    expect(await loads('manifests')).toEqual([expect.stringMatching(/\/typescript\.js$/)]);
  }, 60_000);

  it('manifests loads none of the Node modules only other commands need (child processes, crypto)', async () => {
    // A preload records the built-in modules the run loaded, in a file (printing would load stream code).
    const list = join(work, 'builtins.txt');
    const preload = join(work, 'builtins.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`,
    );
    await node(project, '--require', preload, join(tsop, 'bin/tsop.js'), 'manifests');
    const loaded = readFileSync(list, 'utf8').split('\n');
    expect(loaded).toContain('NativeModule vm'); // the recording works: the compile cache uses vm
    for (const name of ['child_process', 'crypto']) expect(loaded).not.toContain(`NativeModule ${name}`);
  }, 60_000);

  it("loads a project's TypeScript through the bundled tsop dev hooks", async () => {
    writeFileSync(
      join(project, 'hello.ts'),
      "const greeting: string = 'hello from TypeScript';\nconsole.log(greeting);\n",
    );
    const out = await node(project, '--import', join(tsop, 'dist/bundle/register.js'), join(project, 'hello.ts'));
    expect(out.stdout).toBe('hello from TypeScript\n');
  }, 60_000);
});
