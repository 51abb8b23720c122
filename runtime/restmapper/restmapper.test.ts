import { describe, expect, it } from 'vitest';
import { resourcePath, type ResourceMapping } from './index.js';

const pods: ResourceMapping = { gvk: { group: '', version: 'v1', kind: 'Pod' }, plural: 'pods', namespaced: true };
const deployments: ResourceMapping = {
  gvk: { group: 'apps', version: 'v1', kind: 'Deployment' },
  plural: 'deployments',
  namespaced: true,
};
const nodes: ResourceMapping = { gvk: { group: '', version: 'v1', kind: 'Node' }, plural: 'nodes', namespaced: false };

describe('resourcePath', () => {
  it('builds core paths', () => {
    expect(resourcePath(pods)).toBe('/api/v1/pods');
    expect(resourcePath(pods, { namespace: 'ns' })).toBe('/api/v1/namespaces/ns/pods');
    expect(resourcePath(pods, { namespace: 'ns', name: 'p', subresource: 'status' })).toBe(
      '/api/v1/namespaces/ns/pods/p/status',
    );
  });

  it('builds grouped paths', () => {
    expect(resourcePath(deployments, { namespace: 'ns', name: 'd', subresource: 'scale' })).toBe(
      '/apis/apps/v1/namespaces/ns/deployments/d/scale',
    );
  });

  it('ignores a namespace for cluster-scoped kinds', () => {
    expect(resourcePath(nodes, { namespace: 'ns', name: 'n1' })).toBe('/api/v1/nodes/n1');
  });

  it('escapes names and refuses a subresource without a name', () => {
    expect(resourcePath(pods, { namespace: 'a b', name: 'x:y' })).toBe('/api/v1/namespaces/a%20b/pods/x%3Ay');
    expect(() => resourcePath(pods, { subresource: 'status' })).toThrow();
  });
});
