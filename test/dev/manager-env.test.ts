import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { declaredManagerEnv, readManagerEnv } from '../../src/dev/manager-env.js';
import { operatorEnv } from '../../src/dev/operator.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/scaffold/memcached-deploy-image/', import.meta.url));

describe("the manager container's declared environment, for the operator tsop dev runs", () => {
  it("reads deploy-image's <KIND>_IMAGE from a scaffolded config/manager/manager.yaml", () => {
    expect(readManagerEnv(FIXTURE)).toMatchObject({ MEMCACHED_IMAGE: expect.stringContaining('memcached') });
    expect(declaredManagerEnv(readFileSync(`${FIXTURE}config/manager/manager.yaml`, 'utf8'))).toEqual(
      readManagerEnv(FIXTURE),
    );
  });

  it('keeps literal values of the manager container only: no valueFrom, no sidecar, no other kind', () => {
    const manifest = [
      'apiVersion: v1',
      'kind: Namespace',
      'metadata: { name: system }',
      '---',
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: controller-manager }',
      'spec:',
      '  template:',
      '    spec:',
      '      containers:',
      '      - name: proxy',
      '        env: [{ name: SIDECAR, value: "no" }]',
      '      - name: manager',
      '        env:',
      '        - { name: APP_IMAGE, value: "app:1.0" }',
      '        - { name: POD_NAMESPACE, valueFrom: { fieldRef: { fieldPath: metadata.namespace } } }',
      '        - { name: EMPTY, value: "" }',
    ].join('\n');
    expect(declaredManagerEnv(manifest)).toEqual({ APP_IMAGE: 'app:1.0', EMPTY: '' });
  });

  it('gives nothing for a project without the file', () => {
    expect(readManagerEnv('/nonexistent-project')).toEqual({});
  });

  it("lets the session's own environment override what the manifest declares", () => {
    const key = 'TSOP_TEST_DECLARED_IMAGE';
    const env = (declared: Record<string, string>) =>
      operatorEnv({ kubeconfigPath: '/k', cacheDir: '/c', declared })[key];
    expect(env({ [key]: 'from-manifest' })).toBe('from-manifest');
    process.env[key] = 'from-session';
    try {
      expect(env({ [key]: 'from-manifest' })).toBe('from-session');
    } finally {
      delete process.env[key];
    }
  });
});
