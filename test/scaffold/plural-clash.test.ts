/**
 * Names another kind of the same group already uses (issue 12 item 1) are refused while `create
 * api` plans: one line, nothing written, and `--dry-run` refuses the same — not later by the
 * manifests step or the API server. What counts is what kube-apiserver 1.36 refuses as
 * NamesAccepted=False (tried on the real server): a plural or singular equal to another kind's
 * plural or singular ('"conditions" is already in use'), a kind or list kind equal to another's
 * kind or list kind ('"WidgetList" is already in use').
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
const failure = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'no error',
    (e: unknown) => (e as Error).message,
  );

/** The refusal, for a real run and for --dry-run, with the tree unchanged. */
async function refused(dir: string, flags: Partial<CreateApiFlags>): Promise<string> {
  const before = readTree(dir);
  const real = await failure(api(dir, flags));
  expect(await failure(api(dir, { ...flags, dryRun: true }))).toBe(real);
  expect(real).not.toContain('\n');
  expect(readTree(dir)).toEqual(before);
  return real;
}

describe('create api: names another kind of the group uses', { timeout: 60_000 }, () => {
  it("refuses a kind whose derived plural is another kind's (Condition, then Conditions)", async () => {
    const dir = await project();
    await api(dir, { kind: 'Condition' });
    expect(await refused(dir, { kind: 'Conditions' })).toBe(
      "--kind: 'Conditions' derives the CRD plural 'conditions', which is already Condition's " +
        'plural in g.example.com (names in a group must differ, or the API server does not serve ' +
        'the CRD); pass --plural with another plural',
    );
    // A plural of its own is not enough: its singular 'conditions' is Condition's plural.
    expect(await refused(dir, { kind: 'Conditions', plural: 'conditionsets' })).toBe(
      "--kind: 'Conditions' has the singular 'conditions', which is already Condition's plural " +
        'in g.example.com (names in a group must differ, or the API server does not serve the ' +
        'CRD); choose another kind',
    );
  });

  it("refuses --plural equal to another kind's plural, derived or given", async () => {
    const dir = await project();
    await api(dir, { kind: 'Widget' });
    await api(dir, { kind: 'Gadget', plural: 'boxes' });
    expect(await refused(dir, { kind: 'Thing', plural: 'widgets' })).toBe(
      "--plural: 'widgets' is already Widget's plural in g.example.com (names in a group must differ, or the API server does not serve the CRD); pass another --plural",
    );
    expect(await refused(dir, { kind: 'Box' })).toBe(
      "--kind: 'Box' derives the CRD plural 'boxes', which is already Gadget's plural in " +
        'g.example.com (names in a group must differ, or the API server does not serve the CRD); ' +
        'pass --plural with another plural',
    );
    expect(await refused(dir, { kind: 'Thing', plural: 'widget' })).toBe(
      "--plural: 'widget' is already Widget's singular in g.example.com (names in a group must differ, or the API server does not serve the CRD); pass another --plural",
    );
  });

  it("refuses a kind that is another kind's list kind, or whose list kind is another kind", async () => {
    const dir = await project();
    await api(dir, { kind: 'Widget' });
    expect(await refused(dir, { kind: 'WidgetList', plural: 'widgetlists' })).toBe(
      "--kind: 'WidgetList' is already Widget's list kind in g.example.com (names in a group must differ, or the API server does not serve the CRD); choose another kind",
    );
    await api(dir, { kind: 'GadgetList' });
    expect(await refused(dir, { kind: 'Gadget' })).toBe(
      "--kind: 'Gadget' has the list kind 'GadgetList', which is already the kind GadgetList in " +
        'g.example.com (names in a group must differ, or the API server does not serve the CRD); ' +
        'choose another kind',
    );
  });

  it('refuses a plural a CRD on disk gives another kind (its plural changed in source, then manifests ran)', async () => {
    const dir = await project();
    mkdirSync(join(dir, 'config/crd/bases'), { recursive: true });
    const crd = [
      'apiVersion: apiextensions.k8s.io/v1',
      'kind: CustomResourceDefinition',
      'metadata:',
      '  name: tools.g.example.com',
      'spec:',
      '  group: g.example.com',
      '  names:',
      '    kind: Hammer',
      '    plural: tools',
      '',
    ];
    writeFileSync(join(dir, 'config/crd/bases/g.example.com_tools.yaml'), crd.join('\n'));
    expect(await refused(dir, { kind: 'Tool' })).toContain("which is already Hammer's plural in g.example.com");
  });

  it("refuses --plural on a new version that differs from the kind's plural (one CRD, one plural); the same or none is fine", async () => {
    const dir = await project();
    await api(dir, { kind: 'Widget', plural: 'wgts' });
    expect(await refused(dir, { kind: 'Widget', version: 'v2', controller: false, plural: 'gizmos' })).toBe(
      "--plural: 'gizmos' differs from 'wgts', the plural of Widget v1 (the versions of a kind are one CRD with one plural); leave --plural out or pass 'wgts'",
    );
    await api(dir, { kind: 'Widget', version: 'v2', controller: false, plural: 'wgts' });
    await api(dir, { kind: 'Widget', version: 'v3', controller: false });
    expect(readTree(dir)).toHaveProperty(['src/api/v3/widget.ts']);
  });

  it('refuses a kind in a group without a dot (PROJECT has no domain): the API server refuses such a CRD', async () => {
    const dir = await project();
    writeFileSync(join(dir, 'PROJECT'), readFileSync(join(dir, 'PROJECT'), 'utf8').replace(/^domain: .*\n/m, ''));
    expect(await refused(dir, { kind: 'Widget' })).toBe(
      "--group: 'g' makes the API group 'g' (PROJECT has no domain), and a CRD's group needs at least one dot; add a domain to PROJECT (e.g. 'domain: example.com')",
    );
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
