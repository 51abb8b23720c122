import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, memoryDestination } from '../log/index.js';
import { Registry } from '../metrics/prom.js';
import { createManager, type NoWebhookServerError, webhookServerOptionsFromFlags, readManagerFlags } from './index.js';
import type { ManagedWebhookServer, ManagerFlags } from './index.js';

// This file imports no webhook/ until the last test: the manager must do without it. (The unit
// project's files share their modules, so the test that needs webhook/ unloaded makes its own.)
const kubeConfig = (): KubeConfig => {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
};

interface ManagerModules {
  createManager: typeof createManager;
  createLogger: typeof createLogger;
  memoryDestination: typeof memoryDestination;
  Registry: typeof Registry;
}
const loaded: ManagerModules = { createManager, createLogger, memoryDestination, Registry };

/** The manager's modules as an import now finds them (fresh ones after vi.resetModules()). */
async function current(): Promise<ManagerModules & { NoWebhookServerError: typeof NoWebhookServerError }> {
  return {
    ...(await import('./index.js')),
    ...(await import('../log/index.js')),
    ...(await import('../metrics/prom.js')),
  };
}

function managerWith(webhookServer?: Parameters<typeof createManager>[0]['webhookServer'], modules = loaded) {
  const logs = modules.memoryDestination();
  const mgr = modules.createManager({
    kubeConfig: kubeConfig(),
    metricsBindAddress: '0',
    logger: modules.createLogger({ destination: logs, level: 'warn' }),
    registry: new modules.Registry(),
    ...(webhookServer ? { webhookServer } : {}),
  });
  return { mgr, warnings: () => logs.records().map((r) => String(r['msg'])) };
}

/** A server that does nothing, with `parts` of its own. */
function serverStub(parts: Partial<ManagedWebhookServer>): ManagedWebhookServer {
  return {
    useManager: () => undefined,
    register: () => undefined,
    paths: () => [],
    startedChecker: () => () => undefined,
    listen: async () => undefined,
    close: async () => undefined,
    port: undefined,
    options: {},
    ...parts,
  };
}

describe("the manager's webhook server", () => {
  it('hands out the self-provisioner through getWebhookServer(), as code written for tsop 0.2 reads it', () => {
    const given = serverStub({
      selfProvisioner: {
        hosts: () => ['webhook-service.system.svc'],
        caPem: 'CA',
        current: () => ({ cert: 'cert', key: 'key' }),
        onChange: () => () => undefined,
        rotate: async () => undefined,
      },
    });
    const { mgr } = managerWith(given);
    expect(mgr.getWebhookServer().selfProvisioner?.caPem).toBe('CA');
    expect(mgr.getWebhookServer().selfProvisioner?.hosts()).toEqual(['webhook-service.system.svc']);
  });

  it('is the one main.ts passes, handed the manager’s logger, registry and client', () => {
    const given: ManagedWebhookServer & { deps?: unknown } = serverStub({
      useManager(deps) {
        given.deps = deps;
      },
    });
    const { mgr, warnings } = managerWith(given);
    expect(given.deps).toBeUndefined();
    expect(mgr.getWebhookServer()).toBe(given);
    expect(given.deps).toMatchObject({ client: mgr.client, registry: mgr.metrics.registry });
    expect(warnings()).toEqual([]);
  });

  it('cannot be made when none was passed and webhook/ is not loaded', async () => {
    // A fresh copy of the runtime's modules, in which webhook/ has never been loaded.
    vi.resetModules();
    const fresh = await current();
    const { mgr } = managerWith(undefined, fresh);
    expect(() => mgr.getWebhookServer()).toThrow(fresh.NoWebhookServerError);
    expect(() => mgr.getWebhookServer()).toThrow(/pass one to createManager \(webhookServer: new WebhookServer/);
  });

  it('warns, naming the line, when given only options (the shape of tsop ≤ 0.2)', () => {
    const flags = readManagerFlags(['--webhook-port=9555']) as ManagerFlags;
    const { warnings } = managerWith(webhookServerOptionsFromFlags(flags));
    const [warning] = warnings();
    expect(warning).toMatch(
      /^runtime\/manager\/webhook-server\.test\.ts:\d+: createManager's webhookServer as options is deprecated/,
    );
    expect(warning).toContain('in main.ts, webhookServer: webhookServerFromFlags(flags)');
  });

  it('is made from those options once webhook/ is loaded, as before', async () => {
    const { WebhookServer } = await import('../webhook/index.js');
    const { mgr } = managerWith({ port: 9555, certName: 'a.crt' }, await current());
    const server = mgr.getWebhookServer();
    expect(server).toBeInstanceOf(WebhookServer);
    expect(server.options).toMatchObject({ port: 9555, certName: 'a.crt' });
    expect(mgr.getWebhookServer()).toBe(server);
  });
});
