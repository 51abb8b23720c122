/**
 * The cluster side of the scorecard: the bundle's CRDs installed on a control plane, waited for
 * until served, and the CSV's samples (alm-examples) applied there, in a namespace of their own.
 * What the API server refused, by sample name, is what the tests see.
 */
import { type ApiClient, causesOf } from '../../verify/api.js';
import { isObj, list, obj, str, type Obj } from '../objects.js';

const SAMPLES_NAMESPACE = 'scorecard';

export async function applySamples(
  api: ApiClient,
  crds: readonly Obj[],
  samples: readonly Obj[],
  timeoutMs: number,
  namespace: string = SAMPLES_NAMESPACE,
): Promise<Map<string, string | undefined>> {
  for (const crd of crds) {
    const res = await api.apply(
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${str(obj(crd['metadata'])['name'])}`,
      crd,
      false,
    );
    if (res.status >= 300)
      throw new Error(
        `CRD ${str(obj(crd['metadata'])['name'])}: ${causesOf(res)
          .map((c) => c.message)
          .join('; ')}`,
      );
  }
  await waitServed(api, crds, timeoutMs);
  await api.apply(
    `/api/v1/namespaces/${namespace}`,
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    false,
  );
  const out = new Map<string, string | undefined>();
  for (const sample of samples) {
    const name = str(obj(sample['metadata'])['name']);
    const path = pathOf(crds, sample, namespace);
    if (path === undefined) {
      out.set(name, `no CRD in the bundle serves ${str(sample['apiVersion'])} ${str(sample['kind'])}`);
      continue;
    }
    const body = structuredClone(sample);
    if (path.namespaced) body['metadata'] = { ...obj(body['metadata']), namespace };
    const res = await api.apply(path.path, body, false);
    out.set(
      name,
      res.status < 300
        ? undefined
        : causesOf(res)
            .map((c) => (c.field ? `${c.field}: ${c.message ?? ''}` : (c.message ?? '')))
            .join('; '),
    );
  }
  return out;
}

function pathOf(
  crds: readonly Obj[],
  sample: Obj,
  namespace: string,
): { path: string; namespaced: boolean } | undefined {
  const apiVersion = str(sample['apiVersion']);
  const slash = apiVersion.indexOf('/');
  const [group, version] = [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  const crd = crds.find((c) => {
    const spec = obj(c['spec']);
    return (
      str(spec['group']) === group &&
      str(obj(spec['names'])['kind']) === str(sample['kind']) &&
      list(spec['versions']).some((v) => str(obj(v)['name']) === version)
    );
  });
  if (!crd) return undefined;
  const spec = obj(crd['spec']);
  const plural = str(obj(spec['names'])['plural']);
  const namespaced = spec['scope'] !== 'Cluster';
  const name = str(obj(sample['metadata'])['name']);
  return {
    path: `/apis/${group}/${version}/${namespaced ? `namespaces/${namespace}/` : ''}${plural}/${name}`,
    namespaced,
  };
}

async function waitServed(api: ApiClient, crds: readonly Obj[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    const name = str(obj(crd['metadata'])['name']);
    const spec = obj(crd['spec']);
    const served = list(spec['versions'])
      .map(obj)
      .filter((v) => v['served'] !== false)
      .map((v) => str(v['name']));
    for (;;) {
      const res = await api.get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
      const established = list(obj(obj(res.body)['status'])['conditions']).some(
        (c) => isObj(c) && c['type'] === 'Established' && c['status'] === 'True',
      );
      const discovered =
        established &&
        (
          await Promise.all(
            served.map(async (v) => {
              const d = await api.get(`/apis/${str(spec['group'])}/${v}`);
              return (
                d.status === 200 &&
                list(obj(d.body)['resources']).some((r) => str(obj(r)['name']) === str(obj(spec['names'])['plural']))
              );
            }),
          )
        ).every(Boolean);
      if (discovered) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} was not served within ${Math.round(timeoutMs / 1000)} s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
