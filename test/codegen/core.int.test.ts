// Core type schemas against the real kube-apiserver: a CRD embedding a pod template and a job
// template is accepted as structural, valid objects are stored (with upstream defaults applied),
// and a container without a name is rejected at its field path. Also checks that the committed
// data file is exactly what the generator script produces from the Go module.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiException, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { coreTypeSchema } from '../../src/codegen/core/index.js';
import type { JSONSchemaProps } from '../../src/codegen/jsonschema.js';

const GROUP = 'core.tsop.test';

function schemaOf(name: string): JSONSchemaProps {
  const s = coreTypeSchema(name);
  if (!s) throw new Error(`no schema for ${name}`);
  return s;
}

/** A CRD written by hand, as the emitter would write it, with core types embedded in its spec. */
function runnerCrd(): Record<string, unknown> {
  const template = schemaOf('V1PodTemplateSpec');
  template.description = 'Pod to run.';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `runners.${GROUP}` },
    spec: {
      group: GROUP,
      names: { kind: 'Runner', listKind: 'RunnerList', plural: 'runners', singular: 'runner' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: {
                  type: 'object',
                  required: ['template'],
                  properties: {
                    template: template,
                    jobTemplate: schemaOf('V1JobTemplateSpec'),
                    selector: schemaOf('V1LabelSelector'),
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

const tmp = mkdtempSync(join(tmpdir(), 'tsop-core-int-'));
const crdPath = join(tmp, `${GROUP}_runners.yaml`);
writeFileSync(crdPath, stringify(runnerCrd()));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const container = (name: string | undefined) => ({
  ...(name === undefined ? {} : { name }),
  image: 'busybox:1.36',
  ports: [{ containerPort: 8080 }],
  resources: { limits: { cpu: '500m', memory: '128Mi' } },
  readinessProbe: { httpGet: { port: 'http', path: '/ready' } },
  env: [{ name: 'MODE', valueFrom: { configMapKeyRef: { key: 'mode' } } }],
});

function runner(name: string, containers: unknown[]): Record<string, unknown> {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'Runner',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers } },
      jobTemplate: {
        spec: {
          backoffLimit: 2,
          template: { spec: { restartPolicy: 'Never', containers } },
        },
      },
    },
  };
}

/** The API server's causes of a rejection, as 'field: reason'. */
function causes(error: unknown): string[] {
  expect(error).toBeInstanceOf(ApiException);
  const e = error as ApiException<unknown>;
  expect(e.code).toBe(422);
  const status = JSON.parse(String(e.body)) as { details?: { causes?: Array<{ field?: string; reason?: string }> } };
  return (status.details?.causes ?? []).map((c) => `${c.field}: ${c.reason}`).sort();
}

const rejection = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describeWithControlPlane('core type schemas in a CRD', { shared: true, crdDirectoryPaths: [crdPath] }, (env) => {
  const api = () => env.cp.kubeConfig.makeApiClient(CustomObjectsApi);
  const create = (body: Record<string, unknown>) =>
    api().createNamespacedCustomObject({ group: GROUP, version: 'v1', namespace: 'default', plural: 'runners', body });

  it('accepts a valid object and applies upstream defaults (protocol TCP, configMapKeyRef name "")', async () => {
    const stored = (await create(runner('valid', [container('main')]))) as {
      spec: {
        template: {
          spec: {
            containers: Array<{
              ports: Array<{ protocol?: string }>;
              env: Array<{ valueFrom: { configMapKeyRef: { name?: string } } }>;
            }>;
          };
        };
      };
    };
    const c = stored.spec.template.spec.containers[0];
    expect(c?.ports[0]?.protocol).toBe('TCP');
    expect(c?.env[0]?.valueFrom.configMapKeyRef.name).toBe('');
  });

  it('rejects a container without a name, at its field path, in the pod and in the job template', async () => {
    const error = await rejection(create(runner('nameless', [container(undefined)])));
    expect(causes(error)).toEqual([
      'spec.jobTemplate.spec.template.spec.containers[0].name: FieldValueRequired',
      'spec.template.spec.containers[0].name: FieldValueRequired',
    ]);
  });

  it('rejects a malformed quantity and duplicate list-map keys', async () => {
    const bad = container('main');
    bad.resources.limits.memory = 'lots';
    expect(causes(await rejection(create(runner('badqty', [bad]))))).toEqual([
      'spec.jobTemplate.spec.template.spec.containers[0].resources.limits.memory: FieldValueInvalid',
      'spec.template.spec.containers[0].resources.limits.memory: FieldValueInvalid',
    ]);

    const dup = await rejection(create(runner('dup', [container('same'), container('same')])));
    expect(causes(dup)).toEqual([
      'spec.jobTemplate.spec.template.spec.containers[1]: FieldValueDuplicate',
      'spec.template.spec.containers[1]: FieldValueDuplicate',
    ]);
  });
});

describe('core-schemas.json', () => {
  it('is exactly what scripts/gen-core-schemas.mjs writes (deterministic and current)', () => {
    const out = join(tmp, 'regenerated.json');
    const script = fileURLToPath(new URL('../../scripts/gen-core-schemas.mjs', import.meta.url));
    execFileSync(process.execPath, [script, '--out', out], { stdio: 'pipe' });
    const committed = fileURLToPath(new URL('../../src/codegen/core/core-schemas.json', import.meta.url));
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(committed, 'utf8'));
  });
});
