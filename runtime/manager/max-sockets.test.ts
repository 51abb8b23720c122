import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ApiConnection, connectionFor } from '../rest/index.js';
import { InvalidManagerOptionsError, resolveOptions } from './options.js';

function kubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: false }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
}

describe('maxSockets', () => {
  it('is refused by the manager unless a whole number of at least 1', () => {
    for (const bad of [0, -1, 2.5, Number.NaN]) {
      expect(() => resolveOptions({ kubeConfig: kubeConfig(), maxSockets: bad })).toThrow(InvalidManagerOptionsError);
    }
    expect(() => resolveOptions({ kubeConfig: kubeConfig(), maxSockets: 0 })).toThrow(
      /maxSockets must be a whole number of at least 1, got 0/,
    );
    expect(() => resolveOptions({ kubeConfig: kubeConfig(), maxSockets: 4 })).not.toThrow();
  });

  it('is refused by a connection the same way, and one KubeConfig has one connection', () => {
    const kc = kubeConfig();
    expect(connectionFor(kc)).toBe(connectionFor(kc));
    expect(connectionFor(kc)).not.toBe(connectionFor(kubeConfig()));
    expect(() => new ApiConnection(kc, { maxSockets: 0 })).toThrow(RangeError);
    expect(() => connectionFor(kc).setMaxSockets(1.5)).toThrow(
      'maxSockets must be a whole number of at least 1 (or Infinity), got 1.5',
    );
  });
});
