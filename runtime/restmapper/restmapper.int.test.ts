import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { HttpStatusError, requestJSON } from '../rest/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { NoKindMatchError, RESTMapper, resourcePath } from './index.js';

const widgetsCRD = fileURLToPath(new URL('../envtest/testdata/widgets.yaml', import.meta.url));
const widget = { group: 'test.tsop.dev', version: 'v1', kind: 'Widget' };

describeWithControlPlane('RESTMapper against discovery', { shared: true }, (env) => {
  it('maps core, grouped and cluster-scoped kinds', async () => {
    const mapper = new RESTMapper(env.cp.kubeConfig);
    expect(await mapper.mapping({ group: '', version: 'v1', kind: 'ConfigMap' })).toEqual({
      gvk: { group: '', version: 'v1', kind: 'ConfigMap' },
      plural: 'configmaps',
      namespaced: true,
    });
    expect(await mapper.mapping({ group: 'apps', version: 'v1', kind: 'Deployment' })).toMatchObject({
      plural: 'deployments',
      namespaced: true,
    });
    expect(await mapper.mapping({ group: '', version: 'v1', kind: 'Namespace' })).toMatchObject({
      plural: 'namespaces',
      namespaced: false,
    });
    expect(
      await mapper.mapping({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole' }),
    ).toMatchObject({
      plural: 'clusterroles',
      namespaced: false,
    });
  });

  it('reports unknown kinds, then finds a CRD installed after the first miss', async () => {
    const mapper = new RESTMapper(env.cp.kubeConfig);
    await expect(mapper.mapping({ group: '', version: 'v1', kind: 'Nonsense' })).rejects.toBeInstanceOf(
      NoKindMatchError,
    );
    await expect(mapper.mapping(widget)).rejects.toBeInstanceOf(NoKindMatchError);
    await env.cp.installCRDs([widgetsCRD]);
    const m = await mapper.mapping(widget);
    expect(m).toMatchObject({ plural: 'widgets', namespaced: true });
    // the path it builds is one the server serves
    // (a fresh CRD's storage may answer 'storage is (re)initializing' for a moment)
    let kind: string | undefined;
    for (let attempt = 0; attempt < 50 && !kind; attempt++) {
      kind = await requestJSON<{ kind: string }>(env.cp.kubeConfig, {
        path: resourcePath(m, { namespace: env.namespace }),
      }).then(
        (list) => list.kind,
        async () => void (await new Promise((r) => setTimeout(r, 100))),
      );
    }
    expect(kind).toBe('WidgetList');
  });

  it('surfaces API errors as typed HttpStatusError with the server reason', async () => {
    const err = await requestJSON(env.cp.kubeConfig, {
      path: `/api/v1/namespaces/${env.namespace}/configmaps/absent`,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect((err as HttpStatusError).code).toBe(404);
    expect((err as HttpStatusError).reason).toBe('NotFound');
  });
});
