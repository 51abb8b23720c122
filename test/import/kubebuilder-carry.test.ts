/**
 * Which tsop steps a kubebuilder PROJECT's records become (src/import/kubebuilder-carry.ts), with
 * no disk: controllers (deploy-image's with their recorded image options), webhooks after every
 * controller (conversion with its spokes, built-in kinds' too), Helm v1-alpha and v2-alpha as
 * tsop's helm/v2-alpha; an external kind's controller and webhooks, and plugins tsop does not
 * have, are one line each.
 */
import { describe, expect, it } from 'vitest';
import { carriedSteps, commandLine } from '../../src/import/kubebuilder-carry.js';
import type { KubebuilderProject, KubebuilderResource } from '../../src/import/kubebuilder.js';

const resource = (
  r: Partial<KubebuilderResource> & Pick<KubebuilderResource, 'group' | 'kind'>,
): KubebuilderResource => ({
  version: 'v1',
  domain: 'testproject.org',
  owned: true,
  namespaced: true,
  controller: false,
  external: false,
  core: false,
  ...r,
});

const project = (
  resources: KubebuilderResource[],
  plugins: KubebuilderProject['plugins'] = {},
): KubebuilderProject => ({
  domain: 'testproject.org',
  repo: 'example.org/p',
  projectName: 'p',
  multigroup: false,
  namespaced: false,
  resources,
  plugins,
});

describe('carriedSteps', () => {
  it('controllers, then webhooks, then the Helm chart', () => {
    const { steps, notCarried } = carriedSteps(
      project(
        [
          resource({
            group: 'example.com',
            kind: 'Wordpress',
            controller: true,
            webhooks: { conversion: true, spoke: ['v2'] },
          }),
          resource({ group: 'example.com', kind: 'Wordpress', version: 'v2' }),
          resource({ group: 'apps', kind: 'Deployment', owned: false, core: true, controller: true }),
          resource({
            group: 'core',
            kind: 'Pod',
            owned: false,
            core: true,
            webhooks: { defaulting: true, validation: true },
          }),
        ],
        { 'helm.kubebuilder.io/v1-alpha': {}, 'go.kubebuilder.io/v4': {} },
      ),
    );
    expect(notCarried).toEqual([]);
    expect(steps.map(commandLine)).toEqual([
      'tsop create api --group example.com --version v1 --kind Wordpress --resource=false --controller',
      'tsop create api --group apps --version v1 --kind Deployment --resource=false --controller',
      'tsop create webhook --group example.com --version v1 --kind Wordpress --conversion --spoke v2',
      'tsop create webhook --group core --version v1 --kind Pod --defaulting --programmatic-validation',
      'tsop edit --plugins helm/v2-alpha',
    ]);
  });

  it("deploy-image's kinds get its controller with the recorded options, the types kept", () => {
    const { steps } = carriedSteps(
      project([resource({ group: 'example.com', kind: 'Memcached', version: 'v1alpha1', controller: true })], {
        'deploy-image.go.kubebuilder.io/v1-alpha': {
          resources: [
            {
              domain: 'testproject.org',
              group: 'example.com',
              kind: 'Memcached',
              version: 'v1alpha1',
              options: {
                containerCommand: 'memcached,--memory-limit=64,-o,modern,-v',
                containerPort: '11211',
                image: 'memcached:1.6.26-alpine3.19',
                runAsUser: '1001',
              },
            },
          ],
        },
        'helm.kubebuilder.io/v2-alpha': { manifests: 'dist/install.yaml', output: 'deploy' },
      }),
    );
    expect(steps).toEqual([
      {
        command: 'create api',
        flags: {
          group: 'example.com',
          version: 'v1alpha1',
          kind: 'Memcached',
          plugins: 'deploy-image/v1-alpha',
          image: 'memcached:1.6.26-alpine3.19',
          imageContainerCommand: 'memcached,--memory-limit=64,-o,modern,-v',
          imageContainerPort: '11211',
          runAsUser: '1001',
          force: true,
        },
        rewritesTypes: true,
      },
      { command: 'edit', flags: { plugins: 'helm/v2-alpha', outputDir: 'deploy' } },
    ]);
  });

  it("scaffolds each controller of a kind's `controllers` list, by the name kubebuilder runs it under", () => {
    const captain = resource({
      group: 'crew',
      kind: 'Captain',
      controller: true,
      controllerNames: ['captain', 'captain-backup'],
    });
    const lone = resource({ group: 'ship', kind: 'Frigate', controller: true, controllerNames: ['frigate-watch'] });
    expect(carriedSteps(project([captain, lone])).steps.map(commandLine)).toEqual([
      'tsop create api --group crew --version v1 --kind Captain --resource=false --controller',
      'tsop create api --group crew --version v1 --kind Captain --resource=false --controller --controller-name captain-backup',
      'tsop create api --group ship --version v1 --kind Frigate --resource=false --controller --controller-name frigate-watch',
    ]);
    // In a multigroup project kubebuilder runs it as <group>-<name>, as tsop names it.
    expect(carriedSteps({ ...project([captain]), multigroup: true }).steps.map(commandLine)).toEqual([
      'tsop create api --group crew --version v1 --kind Captain --resource=false --controller',
      'tsop create api --group crew --version v1 --kind Captain --resource=false --controller --controller-name crew-captain-backup',
    ]);
  });

  it('names a controller on a dotted group of a multigroup project as kubebuilder runs it', () => {
    const policy = resource({
      group: 'foo.policy',
      kind: 'HealthCheckPolicy',
      controller: true,
      controllerNames: ['healthcheckpolicy', 'audit'],
    });
    expect(carriedSteps({ ...project([policy]), multigroup: true }).steps.map(commandLine)).toEqual([
      'tsop create api --group foo.policy --version v1 --kind HealthCheckPolicy --resource=false --controller',
      'tsop create api --group foo.policy --version v1 --kind HealthCheckPolicy --resource=false --controller --controller-name foo.policy-audit',
    ]);
  });

  it('names what it cannot carry, one line each', () => {
    const { steps, notCarried } = carriedSteps(
      project(
        [
          resource({
            group: 'cert-manager',
            kind: 'Certificate',
            domain: 'io',
            owned: false,
            external: true,
            controller: true,
            path: 'github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1',
            webhooks: { defaulting: true },
          }),
        ],
        {
          'grafana.kubebuilder.io/v1-alpha': {},
          'autoupdate.kubebuilder.io/v1-alpha': {},
          'helm.kubebuilder.io/v2-alpha': { manifests: 'deploy/all.yaml' },
        },
      ),
    );
    expect(steps.map(commandLine)).toEqual(['tsop edit --plugins helm/v2-alpha']);
    expect(notCarried).toEqual([
      'PROJECT: the controller of Certificate (cert-manager/v1, external: ' +
        'github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1) is not scaffolded: its ' +
        "types are a Go package; import its CRD with 'tsop import crd <file> --external', then run " +
        "the 'tsop create api … --external-api-path' that prints",
      'PROJECT: the webhooks of Certificate (cert-manager/v1, external: ' +
        'github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1) are not scaffolded: its ' +
        "types are a Go package; import its CRD with 'tsop import crd <file> --external', then run " +
        "'tsop create webhook … --external-api-path <its file>'",
      'PROJECT: plugins.grafana.kubebuilder.io/v1-alpha is not carried: tsop has no such plugin',
      'PROJECT: plugins.autoupdate.kubebuilder.io/v1-alpha is not carried: tsop has no such plugin',
      'PROJECT: plugins.helm.kubebuilder.io/v2-alpha.manifests deploy/all.yaml is not carried: ' +
        "tsop builds the chart from config/ (kept in dist/install.yaml); pass --manifests to 'tsop " +
        "edit --plugins helm/v2-alpha' to build it from that file",
    ]);
  });
});
