/**
 * An update and the runtime's optional modules: a project of tsop ≤ 0.2 has webhook/ and sharding/
 * whatever PROJECT says; the new scaffold has webhook/ only with webhooks, sharding/ only when
 * PROJECT records it. The update takes one away unless the project uses it (its code imports it;
 * for sharding, also its code or config/ asking for sharding), and then brings it up to date as
 * `create webhook` or `edit --sharding` would add it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import {
  RUNTIME_CHECKSUMS,
  runtimeChecksums,
  runtimeFiles,
  type OptionalModule,
} from '../../src/scaffold/embedded-runtime.js';
import { parseProject } from '../../src/project/config.js';
import { projectForUpdate, usedModules } from '../../src/upgrade/runtime-modules.js';
import { applyUpdate } from '../../src/upgrade/three-way.js';
import { TSOP_VERSION } from '../../src/version.js';

const work = mkdtempSync(join(tmpdir(), 'tsop-runtime-modules-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let count = 0;
function writeTree(dir: string, files: Iterable<readonly [string, string]>): void {
  for (const [path, content] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** A runtime as a tsop writes it: the files, VERSION and CHECKSUMS. */
function runtime(version: string, modules: readonly OptionalModule[]): Array<[string, string]> {
  const files = runtimeFiles(modules);
  return [...files, ['src/runtime/VERSION', `${version}\n`], [RUNTIME_CHECKSUMS, runtimeChecksums(files)]];
}

/** Updates a project whose runtime has webhook/ (as 0.2's did) to a scaffold without it; `own` is the project's code. */
async function update(
  own: Record<string, string>,
  oldModules: readonly OptionalModule[] = ['webhook'],
): Promise<string> {
  const base = join(work, String(++count));
  const [root, ancestor, ours] = ['project', 'ancestor', 'ours'].map((d) => join(base, d)) as [string, string, string];
  const old = runtime('0.2.0', oldModules);
  writeTree(ancestor, [...old, ['src/main.ts', 'main\n']]);
  writeTree(root, [...old, ['src/main.ts', 'main\n'], ...Object.entries(own)]);
  writeTree(ours, [...runtime(TSOP_VERSION, []), ['src/main.ts', 'main\n']]);
  // A project under git, committed, as alpha update requires.
  await execa('git', ['init', '-q'], { cwd: root });
  await execa('git', ['add', '-A'], { cwd: root });
  await execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'project'], {
    cwd: root,
  });
  await applyUpdate(root, ancestor, ours, { from: '0.2.0', to: TSOP_VERSION });
  return root;
}

describe("an update and the runtime's optional modules", { timeout: 60_000 }, () => {
  it('takes webhook/ away from a project whose code does not use it', async () => {
    const root = await update({ 'src/controllers/a.ts': "import { x } from '../runtime/client/index.js';\n" });
    expect(existsSync(join(root, 'src/runtime/webhook'))).toBe(false);
    expect(readFileSync(join(root, RUNTIME_CHECKSUMS), 'utf8')).toBe(runtimeChecksums(runtimeFiles([])));
    expect(readFileSync(join(root, 'src/runtime/index.ts'), 'utf8')).not.toContain('webhook');
  });

  it("keeps it, brought up to date, when the project's code imports it", async () => {
    const root = await update({
      'src/hooks/by-hand.ts': "import { webhookFor } from '../runtime/webhook/index.js';\n",
    });
    const embedded = runtimeFiles(['webhook']);
    for (const [path, content] of embedded) expect(readFileSync(join(root, path), 'utf8'), path).toBe(content);
    expect(readFileSync(join(root, RUNTIME_CHECKSUMS), 'utf8')).toBe(runtimeChecksums(embedded));
    expect(readFileSync(join(root, 'src/runtime/VERSION'), 'utf8')).toBe(`${TSOP_VERSION}\n`);
  });

  it('takes sharding/ away from a project that does not shard', async () => {
    const root = await update({ 'src/controllers/a.ts': "import { x } from '../runtime/client/index.js';\n" }, [
      'webhook',
      'sharding',
    ]);
    expect(existsSync(join(root, 'src/runtime/sharding'))).toBe(false);
    expect(readFileSync(join(root, RUNTIME_CHECKSUMS), 'utf8')).toBe(runtimeChecksums(runtimeFiles([])));
  });

  it.each([
    ['its code imports it', { 'src/ring.ts': "import { shardLabel } from './runtime/sharding/index.js';\n" }],
    ['its code asks for it', { 'src/setup.ts': "export const o = { sharding: { ring: 'shop' } };\n" }],
    ['its manifests pass --sharding', { 'config/manager/manager.yaml': 'args:\n- --sharding=shop\n' }],
  ])('keeps sharding/, brought up to date, when %s', async (_why, own) => {
    const root = await update(own, ['webhook', 'sharding']);
    expect(usedModules(root)).toEqual(['sharding']);
    const embedded = runtimeFiles(['sharding']);
    for (const [path, content] of embedded) expect(readFileSync(join(root, path), 'utf8'), path).toBe(content);
    expect(readFileSync(join(root, RUNTIME_CHECKSUMS), 'utf8')).toBe(runtimeChecksums(embedded));
    expect(existsSync(join(root, 'src/runtime/webhook'))).toBe(false);
  });
});

describe('the PROJECT the new scaffold is made from', () => {
  const project02 = [
    'domain: example.com',
    'layout:',
    '- typescript.tsop.dev/v1',
    'projectName: shop',
    'repo: shop',
    'resources: []',
    'version: "3"',
    '',
  ].join('\n');

  it('records sharding for a project that uses it without PROJECT saying so (tsop ≤ 0.2)', () => {
    const text = projectForUpdate(project02, ['sharding']);
    expect(parseProject(text).sharding).toBe(true);
    expect(parseProject(text).projectName).toBe('shop');
  });

  it('is PROJECT as it is when the project does not use sharding, or PROJECT records it already', () => {
    expect(projectForUpdate(project02, ['webhook'])).toBe(project02);
    const recorded = `${project02}sharding: true\n`;
    expect(projectForUpdate(recorded, ['sharding'])).toBe(recorded);
  });
});
