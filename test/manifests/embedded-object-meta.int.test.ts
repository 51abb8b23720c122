/**
 * generateEmbeddedObjectMeta on the real API server: without it, the labels of a pod template in
 * a spec are pruned on write; with it they are kept (controller-gen's option, issue 11 item 3).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { requestJSON } from '../../runtime/rest/index.js';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { run, specFiles } from '../codegen/harness.js';

type Obj = Record<string, any>;

/** tsop's CRD for a spec holding a pod template, under `group`. */
function crd(group: string, generateEmbeddedObjectMeta: boolean): Obj {
  const result = run(specFiles('template?: V1PodTemplateSpec;'), { generateEmbeddedObjectMeta });
  expect(result.errors).toEqual([]);
  const out = parse(result.files['crd/bases/test.example.com_ts.yaml'] ?? '') as Obj;
  out['metadata'].name = `ts.${group}`;
  out['spec'].group = group;
  return out;
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsop-embedded-meta-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describeWithControlPlane('generateEmbeddedObjectMeta', { shared: true }, (env) => {
  beforeAll(async () => {
    await writeFile(join(dir, 'off.yaml'), stringify(crd('off.example.com', false)));
    await writeFile(join(dir, 'on.yaml'), stringify(crd('on.example.com', true)));
    await env.cp.installCRDs([dir]);
  });

  const template = {
    metadata: { labels: { app: 'web' }, annotations: { note: 'x' } },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  };
  const create = (group: string): Promise<Obj> =>
    requestJSON<Obj>(env.cp.kubeConfig, {
      method: 'POST',
      path: `/apis/${group}/v1/namespaces/default/ts`,
      body: { apiVersion: `${group}/v1`, kind: 'T', metadata: { name: 't' }, spec: { template } },
    });

  it('off: the pod template labels and annotations are pruned', async () => {
    expect((await create('off.example.com'))['spec'].template.metadata).toEqual({});
  });
  it('on: they are kept', async () => {
    expect((await create('on.example.com'))['spec'].template.metadata).toEqual(template.metadata);
  });
});
