/**
 * Shared control planes (plane-broker.ts as globalSetup): suites of one worker that ask for
 * `shared: true` get the same plane, each test its own namespace, and what a suite made
 * cluster-wide (its CRDs with their objects, a ClusterRole) is gone once it ends; what needs the
 * plane's processes is refused on a shared plane.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import { AttachedControlPlaneError, ControlPlaneOptionsError } from '../envtest/index.js';
import { describeWithControlPlane } from './control-plane.js';

const crds = fileURLToPath(new URL('../client/testdata/', import.meta.url));
const GADGETS = 'gadgets.clienttest.tsop.dev';
const seen: { server?: string; namespaces: string[] } = { namespaces: [] };

describeWithControlPlane('a first suite on the shared plane', { shared: true, crdDirectoryPaths: [crds] }, (env) => {
  it('has its CRDs installed and a namespace of its own', async () => {
    seen.server = env.cp.server;
    seen.namespaces.push(env.namespace);
    const client = createClient(env.cp.kubeConfig);
    await client.create({
      apiVersion: 'clienttest.tsop.dev/v1',
      kind: 'Gadget',
      metadata: { name: 'g', namespace: env.namespace },
      spec: { size: 1 },
    });
    expect(
      (await client.list({ apiVersion: 'clienttest.tsop.dev/v1', kind: 'Gadget' }, { namespace: env.namespace })).items,
    ).toHaveLength(1);
    await client.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'left-by-the-first-suite' },
      rules: [],
    });
  });

  it('gives the next test another namespace', () => {
    seen.namespaces.push(env.namespace);
    expect(new Set(seen.namespaces).size).toBe(2);
  });

  it("refuses what needs the plane's own processes, in one line", () => {
    expect(() => env.cp.stopApiServer()).toThrow(AttachedControlPlaneError);
    expect(() => env.cp.freezeApiServer()).toThrow(
      "freezeApiServer needs the control plane's own processes, and this one is shared; start a plane of your own for this test (no shared: true)",
    );
  });
});

describeWithControlPlane('a second suite on the shared plane', { shared: true }, (env) => {
  it("runs on the same plane, where the first suite's CRD and ClusterRole are gone", async () => {
    expect(env.cp.server).toBe(seen.server);
    expect(seen.namespaces).not.toContain(env.namespace);
    const client = createClient(env.cp.kubeConfig);
    const crdList = await client.list({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' });
    expect(crdList.items.map((c) => c.metadata?.name)).not.toContain(GADGETS);
    const roles = await client.list({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' });
    expect(roles.items.map((c) => c.metadata?.name)).not.toContain('left-by-the-first-suite');
    expect(roles.items.map((c) => c.metadata?.name)).toContain('cluster-admin');
  });
});

describe('shared: true with options a shared plane cannot honour', () => {
  it('is refused when the suite is declared, naming the options', () => {
    expect(() =>
      describeWithControlPlane('x', { shared: true, apiServerFlags: ['--watch-cache=false'] }, () => {}),
    ).toThrow(ControlPlaneOptionsError);
    expect(() =>
      describeWithControlPlane('x', { shared: true, controllers: true, nodes: 2, dataDir: '/tmp/x' }, () => {}),
    ).toThrow('"x": shared: true cannot honour nodes, dataDir');
  });
});
