/**
 * Core types beyond the pod template (issue 11 item 4) on the real API server: a CRD embedding a
 * whole Pod (status included), a Secret, a Service, owner references, RBAC policy rules and a
 * Deployment status is accepted, and objects using them are stored, validated, defaulted and
 * pruned by the upstream schemas; a class extending V1PodSpec works the same.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { HttpStatusError, requestJSON } from '../../runtime/rest/index.js';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { run, specFiles } from '../codegen/harness.js';

type Obj = Record<string, any>;

const BODY = `pod?: k8s.V1Pod;
secret?: k8s.V1Secret;
service?: k8s.V1Service;
owners?: k8s.V1OwnerReference[];
rules?: k8s.V1PolicyRule[];
deployment?: k8s.V1DeploymentStatus;
runner?: Runner;`;
const EXTRA = 'export class Runner extends k8s.V1PodSpec {\n  runnerName!: string;\n}';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsop-core-types-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describeWithControlPlane('core types of k8s.io/api in a CRD', { shared: true }, (env) => {
  beforeAll(async () => {
    const result = run(specFiles(BODY, EXTRA));
    expect(result.errors.map((e) => e.message)).toEqual([]);
    await writeFile(join(dir, 'crd.yaml'), stringify(parse(result.files['crd/bases/test.example.com_ts.yaml'] ?? '')));
    await env.cp.installCRDs([dir]);
  });

  let n = 0;
  const create = (spec: Obj): Promise<Obj> =>
    requestJSON<Obj>(env.cp.kubeConfig, {
      method: 'POST',
      path: '/apis/test.example.com/v1/namespaces/default/ts',
      body: { apiVersion: 'test.example.com/v1', kind: 'T', metadata: { name: `t${++n}` }, spec },
    });

  it('objects using them are stored; unknown fields inside them are pruned', async () => {
    const spec = {
      pod: {
        metadata: { name: 'p' },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
        status: { phase: 'Running', podIP: '10.0.0.1' },
      },
      secret: { type: 'Opaque', data: { password: 'c2VjcmV0' } },
      service: { spec: { ports: [{ port: 80, targetPort: 'http' }], selector: { app: 'web' } } },
      owners: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'web',
          uid: '0d9c4bb2-8c0e-4a7b-9d55-2b5c1b0c3f00',
          controller: true,
        },
      ],
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
      deployment: { replicas: 3, readyReplicas: 2, conditions: [{ type: 'Available', status: 'True' }] },
      runner: { runnerName: 'r', containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' },
    };
    const stored = (await create({ ...spec, secret: { ...spec.secret, bogus: 1 } }))['spec'];
    // As with controller-gen: a nested ObjectMeta keeps nothing without generateEmbeddedObjectMeta,
    // and upstream defaults (+default=TCP on a service port's protocol) are applied.
    expect(stored).toEqual({
      ...spec,
      pod: { ...spec.pod, metadata: {} },
      service: { spec: { ...spec.service.spec, ports: [{ port: 80, protocol: 'TCP', targetPort: 'http' }] } },
    });
  });

  it('their validation applies: a Secret data value that is not base64, an owner reference without uid, a Runner without containers', async () => {
    const refusal = async (spec: Obj): Promise<string> => {
      try {
        await create(spec);
      } catch (error) {
        if (error instanceof HttpStatusError) return `${error.code} ${error.message}`;
        throw error;
      }
      throw new Error(`accepted ${JSON.stringify(spec)}`);
    };
    expect(await refusal({ secret: { data: { password: 'not base64!' } } })).toMatch(
      /^422 .*spec\.secret\.data\.password/,
    );
    expect(await refusal({ owners: [{ apiVersion: 'v1', kind: 'Pod', name: 'p' }] })).toMatch(
      /^422 .*spec\.owners\[0\]\.uid: Required value/,
    );
    expect(await refusal({ runner: { runnerName: 'r' } })).toMatch(/^422 .*spec\.runner\.containers: Required value/);
  });
});
