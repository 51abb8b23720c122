/**
 * The generated e2e tests' guard (templates/base/test/e2e/cluster.ts): they run only against a
 * context named in E2E_CONTEXT, and only one that looks like a test cluster unless E2E_FORCE=1.
 */
import { describe, expect, it } from 'vitest';
import { E2EContextError, e2eContext } from '../../templates/base/test/e2e/cluster.js';

const contexts = ['prod-eu', 'kind-kind', 'minikube', 'k3d-dev', 'docker-desktop', 'admin@staging'];

describe('e2e context guard', () => {
  it('refuses to run without E2E_CONTEXT, naming a test context to use', () => {
    expect(() => e2eContext({}, contexts)).toThrow(
      new E2EContextError(
        'the e2e tests deploy to a real cluster, so they run only against a context named explicitly: E2E_CONTEXT=kind-kind npm run test:e2e',
      ),
    );
    expect(() => e2eContext({ E2E_FORCE: '1' }, ['prod'])).toThrow(/E2E_CONTEXT=kind-kind npm run test:e2e/);
  });

  it.each(['kind-kind', 'minikube', 'k3d-dev', 'docker-desktop'])('runs against the test cluster %s', (c) => {
    expect(e2eContext({ E2E_CONTEXT: c }, contexts)).toBe(c);
  });

  it.each(['prod-eu', 'admin@staging'])('refuses %s, which does not look like a test cluster, unless forced', (c) => {
    expect(() => e2eContext({ E2E_CONTEXT: c }, contexts)).toThrow(
      `E2E_CONTEXT=${c} does not look like a test cluster`,
    );
    expect(() => e2eContext({ E2E_CONTEXT: c, E2E_FORCE: 'true' }, contexts)).toThrow(E2EContextError);
    expect(e2eContext({ E2E_CONTEXT: c, E2E_FORCE: '1' }, contexts)).toBe(c);
  });

  it('refuses a context the kubeconfig does not have', () => {
    expect(() => e2eContext({ E2E_CONTEXT: 'kind-other' }, contexts)).toThrow(
      'E2E_CONTEXT=kind-other is not a context of your kubeconfig (it has: prod-eu, kind-kind, minikube, k3d-dev, docker-desktop, admin@staging)',
    );
    expect(() => e2eContext({ E2E_CONTEXT: 'kind-kind' }, [])).toThrow('(it has: none)');
  });
});
