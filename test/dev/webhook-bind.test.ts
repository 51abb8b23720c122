/**
 * The operator's webhook server under `tsop dev` listens on loopback alone: the session names the
 * host through the environment, and the server, given no host in its options, takes it from there.
 * Without it (production), every interface, as before. Checked against the kernel's socket table.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { selfSignedServingCertificate } from '../../runtime/certs/index.js';
import { rootLogger, silenceLogs } from '../../runtime/log/index.js';
import { WEBHOOK_BIND_HOST_ENV, WebhookServer } from '../../runtime/webhook/server.js';
import { operatorEnv } from '../../src/dev/operator.js';
import { listeningAddresses } from './listening.js';

silenceLogs();

describe.runIf(process.platform === 'linux')('the webhook server under tsop dev', () => {
  let dir = '';
  let server: WebhookServer | undefined;
  const saved = process.env[WEBHOOK_BIND_HOST_ENV];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tsop-webhook-bind-'));
    const pair = selfSignedServingCertificate();
    writeFileSync(join(dir, 'tls.crt'), pair.certPem);
    writeFileSync(join(dir, 'tls.key'), pair.keyPem);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (saved === undefined) delete process.env[WEBHOOK_BIND_HOST_ENV];
    else process.env[WEBHOOK_BIND_HOST_ENV] = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  async function boundWith(env: Record<string, string | undefined>): Promise<string[]> {
    if (env[WEBHOOK_BIND_HOST_ENV] === undefined) delete process.env[WEBHOOK_BIND_HOST_ENV];
    else process.env[WEBHOOK_BIND_HOST_ENV] = env[WEBHOOK_BIND_HOST_ENV];
    server = new WebhookServer({ port: 0, certDir: dir }, { logger: rootLogger(), registry: new Registry() });
    await server.listen();
    return listeningAddresses(server.port!);
  }

  it('listens on 127.0.0.1 alone with the environment the session gives its operator', async () => {
    const env = operatorEnv({ kubeconfigPath: '/k', cacheDir: '/c' });
    expect(env[WEBHOOK_BIND_HOST_ENV]).toBe('127.0.0.1');
    expect(await boundWith(env)).toEqual(['127.0.0.1']);
  });

  it('listens on every interface without it, as in production', async () => {
    const all = await boundWith({});
    expect(all.length).toBe(1);
    expect(['::', '0.0.0.0']).toContain(all[0]);
  });
});
