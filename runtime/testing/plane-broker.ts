/**
 * vitest globalSetup: control planes shared by the test files of a run. Starting etcd and
 * kube-apiserver costs seconds of CPU; files that ask for `shared: true` reuse one plane per
 * worker slot instead (one basic and, if asked for, one fuller plane per slot), each file in its
 * own namespaces with its CRDs removed when it ends. A slot runs one file at a time, so a file
 * never meets another file's objects while it runs.
 *
 * The planes are started on first demand, by this (the main) process, which also stops them at
 * the end of the run; test files reach this broker over loopback HTTP with a per-run token.
 *
 *   globalSetup: ['src/runtime/testing/plane-broker.ts']   (in a project's vitest config)
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminIdentity, connectionOf, type ControlPlaneConnection } from '../envtest/attach.js';
import { startControlPlane, type ControlPlane } from '../envtest/index.js';
import { send } from '../envtest/http.js';

/** The broker's address as test files receive it (vitest `inject`). */
export interface PlaneBrokerAddress {
  url: string;
  token: string;
}

/** What a test file asks for: its worker slot and whether it needs the fuller plane. */
export interface SharedPlaneRequest {
  slot: number;
  controllers: boolean;
}

export const BROKER_KEY = 'tsopPlaneBroker';

declare module 'vitest' {
  interface ProvidedContext {
    tsopPlaneBroker: PlaneBrokerAddress;
  }
}

/** A shared fuller plane has one fake node, as `controllers: true` alone gives. */
export const SHARED_FULLER_NODES = 1;

interface GlobalSetupProject {
  provide(key: typeof BROKER_KEY, value: PlaneBrokerAddress): void;
}

export default async function setup(project: GlobalSetupProject): Promise<() => Promise<void>> {
  const token = randomBytes(16).toString('hex');
  const planes = new Map<string, Promise<ControlPlane>>();

  const planeFor = async (request: SharedPlaneRequest): Promise<ControlPlane> => {
    const key = `${request.slot}/${request.controllers ? 'fuller' : 'basic'}`;
    const existing = planes.get(key);
    if (existing) {
      const plane = await existing.catch(() => undefined);
      if (plane && (await answers(plane))) return plane;
      // Failed to start or died since: a fresh one for the next file.
      await plane?.stop();
    }
    const started = startControlPlane(request.controllers ? { controllers: true, nodes: SHARED_FULLER_NODES } : {});
    planes.set(key, started);
    return started;
  };

  const server = createServer((req, res) => {
    void handle(req, res, token, planeFor);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  project.provide(BROKER_KEY, { url: `http://127.0.0.1:${port}`, token });

  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const all = await Promise.allSettled(planes.values());
    await Promise.all(all.map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined)));
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, token: string, planeFor: (r: SharedPlaneRequest) => Promise<ControlPlane>): Promise<void> {
  const reply = (status: number, body: ControlPlaneConnection | { error: string }): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  if (req.method !== 'POST' || req.url !== '/planes' || req.headers.authorization !== `Bearer ${token}`) {
    reply(404, { error: 'not found' });
    return;
  }
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SharedPlaneRequest;
    reply(200, connectionOf(await planeFor(request)));
  } catch (error) {
    reply(500, { error: error instanceof Error ? error.message : String(error) });
  }
}

/** Whether a plane's API server still answers (a crashed one is replaced, not handed out). */
async function answers(plane: ControlPlane): Promise<boolean> {
  const res = await send(`${plane.server}/readyz`, { tls: adminIdentity(plane.kubeConfig), timeoutMs: 10_000 }).catch(() => undefined);
  return res?.status === 200;
}
