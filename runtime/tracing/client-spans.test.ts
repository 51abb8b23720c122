import { describe, expect, it } from 'vitest';
import { operationOf } from './client-spans.js';

describe("client spans' names: controller-runtime's tracing proposal's k8s.<Verb>", () => {
  it.each([
    [
      'GET',
      '/api/v1/namespaces/shop/pods/web-0',
      { name: 'k8s.Get', key: 'shop/web-0', resource: 'v1, Resource=pods' },
    ],
    [
      'GET',
      '/apis/apps/v1/namespaces/shop/deployments?labelSelector=app%3Dweb&limit=500',
      { name: 'k8s.List', resource: 'apps/v1, Resource=deployments' },
    ],
    ['GET', '/apis/apps/v1/deployments', { name: 'k8s.List', resource: 'apps/v1, Resource=deployments' }],
    [
      'GET',
      '/api/v1/namespaces/shop/pods?watch=true&resourceVersion=12',
      { name: 'k8s.Watch', resource: 'v1, Resource=pods' },
    ],
    [
      'POST',
      '/apis/cache.example.com/v1alpha1/namespaces/shop/memcacheds',
      { name: 'k8s.Create', resource: 'cache.example.com/v1alpha1, Resource=memcacheds' },
    ],
    ['PUT', '/apis/cache.example.com/v1alpha1/namespaces/shop/memcacheds/m1', { name: 'k8s.Update', key: 'shop/m1' }],
    [
      'PUT',
      '/apis/cache.example.com/v1alpha1/namespaces/shop/memcacheds/m1/status',
      { name: 'k8s.Status.Update', key: 'shop/m1' },
    ],
    [
      'PATCH',
      '/apis/cache.example.com/v1alpha1/namespaces/shop/memcacheds/m1/status',
      { name: 'k8s.Status.Patch', key: 'shop/m1' },
    ],
    [
      'PATCH',
      '/apis/apps/v1/namespaces/shop/deployments/web/scale',
      { name: 'k8s.Patch', key: 'shop/web', subresource: 'scale' },
    ],
    ['DELETE', '/api/v1/namespaces/shop/configmaps/cfg', { name: 'k8s.Delete', key: 'shop/cfg' }],
    ['DELETE', '/api/v1/namespaces/shop/configmaps?labelSelector=a', { name: 'k8s.DeleteAllOf' }],
    ['GET', '/api/v1/namespaces/shop', { name: 'k8s.Get', key: 'shop', resource: 'v1, Resource=namespaces' }],
    ['GET', '/api/v1/nodes/kwok-node-0', { name: 'k8s.Get', key: 'kwok-node-0', resource: 'v1, Resource=nodes' }],
    [
      'GET',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.fixtures.tsop.dev',
      { name: 'k8s.Get', key: 'gizmos.fixtures.tsop.dev' },
    ],
  ] as const)('%s %s', (method, path, expected) => {
    expect(operationOf(method, path)).toMatchObject(expected);
  });

  it('keeps the method as the name of a request that names no resource (discovery), and drops the query from url.path', () => {
    expect(operationOf('GET', '/apis')).toEqual({ name: 'GET', path: '/apis' });
    expect(operationOf('GET', '/api/v1?timeout=32s')).toEqual({ name: 'GET', path: '/api/v1' });
    expect(operationOf('GET', '/api/v1/namespaces/shop/pods?limit=1').path).toBe('/api/v1/namespaces/shop/pods');
  });
});
