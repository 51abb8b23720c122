/**
 * Dotted groups, as kubebuilder's sample projects have them (`create api --group foo.policy` in
 * project-v4-multigroup, `--group example.com` with deploy-image in project-v4-with-plugins): the
 * group is kept whole wherever kubebuilder keeps it (directories, RBAC and sample file names, role
 * and controller names, PROJECT), and its full group is `<group>.<domain>`. A single-group and a
 * multigroup project each get a kind with webhooks; `tsop manifests` generates them, and each
 * project, tests included, type-checks with tsc.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runCreateWebhook } from '../../src/cli/create-webhook.js';
import { runInit } from '../../src/cli/init.js';
import { runManifests } from '../../src/cli/manifests.js';
import { captured, tempProject } from './harness.js';
import { linkNodeModules } from './node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(TSOP, 'node_modules/typescript/bin/tsc');
const read = (dir: string, path: string): string => readFileSync(join(dir, path), 'utf8');

async function healthCheckPolicy(dir: string): Promise<void> {
  const kind = { dir, group: 'foo.policy', version: 'v1', kind: 'HealthCheckPolicy', make: false };
  await runCreateApi({ ...kind, resource: true, controller: true }, captured());
  await runCreateWebhook({ ...kind, defaulting: true, programmaticValidation: true }, captured());
}

async function typeChecks(dir: string): Promise<void> {
  linkNodeModules(dir);
  const tsc = await execa(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, all: true, reject: false });
  expect(tsc.exitCode, tsc.all).toBe(0);
}

describe('a dotted group', () => {
  it('in a multigroup project, with deploy-image too, is kept whole as kubebuilder keeps it', {
    timeout: 240_000,
  }, async () => {
    const dir = tempProject('dotted-multigroup');
    await runInit({ dir, domain: 'testproject.org', skipInstall: true, multigroup: true }, captured());
    await healthCheckPolicy(dir);
    await runCreateApi(
      {
        dir,
        group: 'example.com',
        version: 'v1alpha1',
        kind: 'Busybox',
        plugins: 'deploy-image/v1-alpha',
        image: 'busybox:1.36.1',
        runAsUser: '1001',
        make: false,
      },
      captured(),
    );
    await runManifests({ dir }, captured());
    for (const path of [
      'src/api/foo.policy/v1/healthcheckpolicy.ts',
      'src/controllers/foo.policy/healthcheckpolicy-controller.ts',
      'src/webhooks/foo.policy/v1/healthcheckpolicy-webhook.ts',
      'config/rbac/foo.policy_healthcheckpolicy_editor_role.yaml',
      'config/samples/foo.policy_v1_healthcheckpolicy.yaml',
      'config/crd/bases/foo.policy.testproject.org_healthcheckpolicies.yaml',
      'src/api/example.com/v1alpha1/busybox.ts',
      'src/controllers/example.com/busybox-controller.ts',
      'config/crd/bases/example.com.testproject.org_busyboxes.yaml',
    ])
      expect(existsSync(join(dir, path)), path).toBe(true);
    const editor = parse(read(dir, 'config/rbac/foo.policy_healthcheckpolicy_editor_role.yaml'));
    expect(editor.metadata.name).toBe('foo.policy-healthcheckpolicy-editor-role');
    expect(editor.rules[0].apiGroups).toEqual(['foo.policy.testproject.org']);
    expect(read(dir, 'src/controllers/foo.policy/healthcheckpolicy-controller.ts')).toContain(
      ".named('foo.policy-healthcheckpolicy')",
    );
    const project = parse(read(dir, 'PROJECT'));
    expect(project.resources.map((r: { group: string }) => r.group)).toEqual(['foo.policy', 'example.com']);
    await typeChecks(dir);
  });

  it('in a single-group project', { timeout: 240_000 }, async () => {
    const dir = tempProject('dotted-single');
    await runInit({ dir, domain: 'testproject.org', skipInstall: true }, captured());
    await healthCheckPolicy(dir);
    await runManifests({ dir }, captured());
    expect(existsSync(join(dir, 'config/crd/bases/foo.policy.testproject.org_healthcheckpolicies.yaml'))).toBe(true);
    expect(existsSync(join(dir, 'src/api/v1/healthcheckpolicy.ts'))).toBe(true);
    const hooks = read(dir, 'config/webhook/manifests.yaml');
    expect(hooks).toContain('foo.policy.testproject.org');
    // kubebuilder's path: the full group with its dots as dashes.
    expect(hooks).toContain('path: /mutate-foo-policy-testproject-org-v1-healthcheckpolicy');
    await typeChecks(dir);
  });
});
