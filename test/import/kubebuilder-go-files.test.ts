/**
 * Which PROJECT resource a kubebuilder Go file belongs to (goFileResource), with no disk: kinds of
 * one name in several groups (multigroup's foo/Bar and fiz/Bar) or versions (a webhook per version)
 * are told apart by the directory the file is in; a conversion file in a spoke's package belongs
 * to the hub's conversion webhook.
 */
import { describe, expect, it } from 'vitest';
import { goFileResource, type KubebuilderProject, type KubebuilderResource } from '../../src/import/kubebuilder.js';

const resource = (
  r: Partial<KubebuilderResource> & Pick<KubebuilderResource, 'group' | 'kind'>,
): KubebuilderResource => ({
  version: 'v1',
  domain: 'testproject.org',
  owned: true,
  namespaced: true,
  controller: true,
  external: false,
  core: false,
  ...r,
});

const project = (resources: KubebuilderResource[]): KubebuilderProject => ({
  domain: 'testproject.org',
  repo: 'example.org/p',
  projectName: 'p',
  multigroup: true,
  namespaced: false,
  resources,
  plugins: {},
});

const where = (r: KubebuilderResource | undefined): string | undefined => r && `${r.group}/${r.version} ${r.kind}`;

describe('goFileResource', () => {
  const foo = resource({ group: 'foo', kind: 'Bar' });
  const fiz = resource({ group: 'fiz', kind: 'Bar' });

  it("takes the group from a multigroup controller's directory", () => {
    const p = project([foo, fiz]);
    expect(where(goFileResource('internal/controller/fiz/bar_controller.go', p))).toBe('fiz/v1 Bar');
    expect(where(goFileResource('internal/controller/foo/bar_controller.go', p))).toBe('foo/v1 Bar');
  });

  it("takes the version from a webhook's directory, and gives a spoke's conversion file to the hub", () => {
    const hub = resource({
      group: 'batch',
      kind: 'CronJob',
      webhooks: { defaulting: true, validation: true, conversion: true, spoke: ['v2'] },
    });
    const v2 = resource({
      group: 'batch',
      version: 'v2',
      kind: 'CronJob',
      controller: false,
      webhooks: { defaulting: true, validation: true },
    });
    const p = { ...project([hub, v2]), multigroup: false };
    expect(where(goFileResource('internal/webhook/v2/cronjob_webhook.go', p))).toBe('batch/v2 CronJob');
    expect(where(goFileResource('internal/webhook/v1/cronjob_webhook.go', p))).toBe('batch/v1 CronJob');
    expect(where(goFileResource('api/v2/cronjob_conversion.go', p))).toBe('batch/v1 CronJob');
    expect(where(goFileResource('internal/controller/cronjob_controller.go', p))).toBe('batch/v1 CronJob');
  });

  it("finds a built-in kind's webhook under core/", () => {
    const pod = resource({
      group: '',
      kind: 'Pod',
      owned: false,
      core: true,
      controller: false,
      webhooks: { defaulting: true },
    });
    expect(where(goFileResource('internal/webhook/core/v1/pod_webhook.go', project([pod])))).toBe('/v1 Pod');
  });

  it("takes a named controller's file for the kind whose `controllers` list names it", () => {
    const captain = resource({ group: 'crew', kind: 'Captain', controllerNames: ['captain', 'captain-backup'] });
    expect(
      where(goFileResource('internal/controller/crew/captain_backup_controller.go', project([foo, captain]))),
    ).toBe('crew/v1 Captain');
  });

  it('knows no resource for a file of another kind or name', () => {
    expect(goFileResource('internal/controller/ship_controller.go', project([foo]))).toBeUndefined();
    expect(goFileResource('internal/controller/helpers.go', project([foo]))).toBeUndefined();
  });
});
