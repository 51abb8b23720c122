/**
 * An update and the runtime's optional modules: a project of tsop ≤ 0.2 has webhook/ whatever
 * PROJECT says; the new scaffold has it only with webhooks. The update takes it away unless the
 * project's code imports it, and then brings it up to date as `create webhook` would add it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { RUNTIME_CHECKSUMS, runtimeChecksums, runtimeFiles } from '../../src/scaffold/embedded-runtime.js';
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
function runtime(version: string, modules: ReadonlyArray<'webhook'>): Array<[string, string]> {
  const files = runtimeFiles(modules);
  return [...files, ['src/runtime/VERSION', `${version}\n`], [RUNTIME_CHECKSUMS, runtimeChecksums(files)]];
}

/** Updates a project whose runtime has webhook/ (as 0.2's did) to a scaffold without it; `own` is the project's code. */
async function update(own: Record<string, string>): Promise<string> {
  const base = join(work, String(++count));
  const [root, ancestor, ours] = ['project', 'ancestor', 'ours'].map((d) => join(base, d)) as [string, string, string];
  const old = runtime('0.2.0', ['webhook']);
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
});
