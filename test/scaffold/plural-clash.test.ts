/**
 * A plural another kind of the same group already uses (issue 12 item 1) is refused while
 * `create api` plans: one line, nothing written, and `--dry-run` refuses the same — not later by
 * the manifests step, after the scaffold was written.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCreateApi, type CreateApiFlags } from '../../src/cli/create-api.js';
import { runInit } from '../../src/cli/init.js';
import { captured, readTree, tempProject } from './harness.js';

async function project(multigroup = false): Promise<string> {
  const dir = tempProject('plurals');
  await runInit({ dir, domain: 'example.com', skipInstall: true, multigroup }, captured());
  return dir;
}
const api = (dir: string, flags: Partial<CreateApiFlags>) =>
  runCreateApi({ dir, group: 'g', version: 'v1', resource: true, controller: true, make: false, ...flags }, captured());
const failure = (p: Promise<unknown>): Promise<string> => p.then(() => 'no error', (e: unknown) => (e as Error).message);

/** The refusal, for a real run and for --dry-run, with the tree unchanged. */
async function refused(dir: string, flags: Partial<CreateApiFlags>): Promise<string> {
  const before = readTree(dir);
  const real = await failure(api(dir, flags));
  expect(await failure(api(dir, { ...flags, dryRun: true }))).toBe(real);
  expect(real).not.toContain('\n');
  expect(readTree(dir)).toEqual(before);
  return real;
}

describe('create api: a plural another kind uses', { timeout: 60_000 }, () => {
  it("refuses a kind whose derived plural is another kind's (Condition, then Conditions)", async () => {
    const dir = await project();
    await api(dir, { kind: 'Condition' });
    expect(await refused(dir, { kind: 'Conditions' })).toBe(
      "--kind: 'Conditions' derives the CRD plural 'conditions', which is already Condition's plural in g.example.com (a plural names one resource of a group); pass --plural with another plural",
    );
    // With a plural of its own it is fine.
    await api(dir, { kind: 'Conditions', plural: 'conditionsets' });
  });

  it("refuses --plural equal to another kind's plural, derived or given", async () => {
    const dir = await project();
    await api(dir, { kind: 'Widget' });
    await api(dir, { kind: 'Gadget', plural: 'boxes' });
    expect(await refused(dir, { kind: 'Thing', plural: 'widgets' })).toBe(
      "--plural: 'widgets' is already Widget's plural in g.example.com (a plural names one resource of a group); pass another --plural",
    );
    expect(await refused(dir, { kind: 'Box' })).toBe(
      "--kind: 'Box' derives the CRD plural 'boxes', which is already Gadget's plural in g.example.com (a plural names one resource of a group); pass --plural with another plural",
    );
  });

  it('refuses a plural a CRD on disk gives another kind (its plural changed in source, then manifests ran)', async () => {
    const dir = await project();
    mkdirSync(join(dir, 'config/crd/bases'), { recursive: true });
    const crd = ['apiVersion: apiextensions.k8s.io/v1', 'kind: CustomResourceDefinition', 'metadata:', '  name: tools.g.example.com', 'spec:', '  group: g.example.com', '  names:', '    kind: Hammer', '    plural: tools', ''];
    writeFileSync(join(dir, 'config/crd/bases/g.example.com_tools.yaml'), crd.join('\n'));
    expect(await refused(dir, { kind: 'Tool' })).toContain("which is already Hammer's plural in g.example.com");
  });

  it('allows the same plural in another group, and another version of the same kind', async () => {
    const dir = await project(true);
    await api(dir, { kind: 'Widget' });
    await api(dir, { group: 'h', kind: 'Widget' });
    await api(dir, { group: 'h', kind: 'Thing', plural: 'things' });
    await api(dir, { kind: 'Widget', version: 'v2', controller: false });
    expect(readTree(dir)).toHaveProperty(['src/api/g/v2/widget.ts']);
  });
});
