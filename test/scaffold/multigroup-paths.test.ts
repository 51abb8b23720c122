/**
 * A kind created before `edit --multigroup` stays where PROJECT's `path` records it: a webhook
 * scaffolded later imports its types from there, and `alpha generate` re-scaffolds it there, its
 * controller and webhook included, so the regenerated project is the same byte for byte.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAlphaGenerate } from '../../src/cli/alpha-generate.js';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runCreateWebhook } from '../../src/cli/create-webhook.js';
import { runEdit } from '../../src/cli/edit.js';
import { runInit } from '../../src/cli/init.js';
import { runManifests } from '../../src/cli/manifests.js';
import { captured, readTree, tempProject } from './harness.js';

/** init; create api shop/v1 Store; edit --multigroup; create api toys/v1 Gizmo; create webhook shop/v1 Store. */
async function switchedLayout(name: string): Promise<string> {
  const dir = tempProject(name);
  await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
  await runCreateApi({ dir, group: 'shop', version: 'v1', kind: 'Store', make: false }, captured());
  await runEdit({ dir, multigroup: true }, captured());
  await runCreateApi({ dir, group: 'toys', version: 'v1', kind: 'Gizmo', make: false }, captured());
  await runCreateWebhook(
    { dir, group: 'shop', version: 'v1', kind: 'Store', defaulting: true, programmaticValidation: true, make: false },
    captured(),
  );
  await runManifests({ dir }, captured());
  return dir;
}

/** The project files a module's relative imports name (`.js` → `.ts`). */
function relativeImports(source: string, from: string): string[] {
  return [...source.matchAll(/from '(\.\.?\/[^']+)'/g)].map((m) =>
    posix.join(posix.dirname(from), m[1]!).replace(/\.js$/, '.ts'),
  );
}

describe('a kind made before edit --multigroup', { timeout: 60_000 }, () => {
  it("keeps PROJECT's path: the webhook made afterwards imports the types where they are", async () => {
    const dir = await switchedLayout('webhook');
    expect(readFileSync(join(dir, 'PROJECT'), 'utf8')).toContain('  kind: Store\n  path: src/api/v1\n');
    const files = readTree(dir);
    const webhook = Object.keys(files).find((p) => p.endsWith('/store-webhook.ts'));
    expect(webhook).toBe('src/webhooks/v1/store-webhook.ts');
    const imports = relativeImports(files[webhook!]!, webhook!);
    expect(imports).toContain('src/api/v1/store.ts');
    for (const target of imports) expect(existsSync(join(dir, target)), `${webhook} imports ${target}`).toBe(true);
    // The kind made after the switch follows the new layout.
    expect(files['src/api/toys/v1/gizmo.ts']).toBeDefined();
    expect(files['src/controllers/toys/gizmo-controller.ts']).toBeDefined();
  });

  it('alpha generate re-scaffolds it where PROJECT records it, byte for byte', async () => {
    const dir = await switchedLayout('regenerate');
    const output = join(tempProject('regenerated'), 'out');
    await runAlphaGenerate({ inputDir: dir, outputDir: output }, captured());
    const want = readTree(dir);
    const got = readTree(output);
    expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
    for (const path of Object.keys(want)) expect(got[path], path).toBe(want[path]);
    expect(got['src/api/v1/store.ts']).toBeDefined();
    expect(got['src/controllers/store-controller.ts']).toBeDefined();
  });
});
