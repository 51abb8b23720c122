/**
 * vitest globalSetup: control planes shared by the test files of a run. Starting etcd and
 * kube-apiserver costs seconds of CPU; files that ask for `shared: true` borrow a plane from this
 * broker instead (a basic one, or a fuller one with controllers), each file in its own namespaces
 * with what it made cluster-wide removed when it ends (sweep.ts).
 *
 * A plane is lent to one test process at a time. The loan is held on a socket the borrowing
 * process keeps open: a suite gives its plane back after its sweep, and only to that same process
 * until the process has exited, so nothing it left running (a manager, a timer of a timed-out
 * test) ever acts on a plane another file is using. A plane still on loan when its process goes
 * (a crash, a sweep cut short) is stopped, not lent again. Planes are started on demand, so there
 * are as many of each kind as files have ever needed at once (usually one per worker).
 *
 * The planes belong to this (the main) process, which stops them at the end of the run; test
 * files reach the broker over a loopback socket with a per-run token (client: shared-plane-loan.ts).
 *
 *   globalSetup: ['runtime/testing/plane-broker.ts']   (in a project's vitest config)
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { connectionOf, adminIdentity, type ControlPlaneConnection } from '../envtest/attach.js';
import { startControlPlane, type ControlPlane } from '../envtest/index.js';
import { send } from '../envtest/http.js';
import { onLines } from './socket-lines.js';

/** The broker's address as test files receive it (vitest `inject`). */
export interface PlaneBrokerAddress {
  port: number;
  token: string;
}

/** A message from a borrowing process: one JSON object per line. */
export type LoanRequest =
  | { token: string; op: 'borrow'; id: number; controllers: boolean }
  | { token: string; op: 'return'; id: number };

/** The broker's answer to a `borrow`, one JSON object per line. */
export type LoanReply = { id: number; connection: ControlPlaneConnection } | { id: number; error: string };

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

/** One plane and who may use it: the socket that borrowed it, or, once given back, that socket alone until it closes. */
interface Slot {
  controllers: boolean;
  plane: Promise<ControlPlane>;
  borrower?: Socket;
  lingering?: Socket;
}

export default async function setup(project: GlobalSetupProject): Promise<() => Promise<void>> {
  const token = randomBytes(16).toString('hex');
  const slots: Slot[] = [];
  const loans = new Map<Socket, Map<number, Slot>>();
  const stopping: Promise<void>[] = [];

  const retire = (slot: Slot): void => {
    slots.splice(slots.indexOf(slot), 1);
    stopping.push(slot.plane.then((p) => p.stop()).catch(() => undefined));
  };

  const borrow = async (socket: Socket, controllers: boolean): Promise<Slot> => {
    const free = (s: Slot, owner?: Socket) =>
      s.controllers === controllers && s.borrower === undefined && s.lingering === owner;
    // The process's own plane first (its next suite), then one nobody holds, else a new one.
    const slot = slots.find((s) => free(s, socket)) ?? slots.find((s) => free(s)) ?? newSlot(controllers);
    slot.borrower = socket;
    slot.lingering = undefined;
    const plane = await slot.plane.catch(() => undefined);
    if (plane && (await answers(plane))) return slot;
    // Failed to start or died since: another, started for this borrower.
    retire(slot);
    const fresh = newSlot(controllers);
    fresh.borrower = socket;
    await fresh.plane;
    return fresh;
  };

  const newSlot = (controllers: boolean): Slot => {
    const slot: Slot = {
      controllers,
      plane: startControlPlane(controllers ? { controllers: true, nodes: SHARED_FULLER_NODES } : {}),
    };
    slot.plane.catch(() => undefined);
    slots.push(slot);
    return slot;
  };

  const server = createServer((socket) => {
    const mine = new Map<number, Slot>();
    loans.set(socket, mine);
    onLines(socket, (line) => void handle(line));
    const reply = (message: LoanReply): void => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
    };
    const handle = async (line: string): Promise<void> => {
      let request: LoanRequest;
      try {
        request = JSON.parse(line) as LoanRequest;
      } catch {
        socket.destroy();
        return;
      }
      if (request.token !== token) {
        socket.destroy();
        return;
      }
      if (request.op === 'return') {
        const slot = mine.get(request.id);
        mine.delete(request.id);
        if (slot && slots.includes(slot)) {
          slot.borrower = undefined;
          slot.lingering = socket;
        }
        return;
      }
      try {
        const slot = await borrow(socket, request.controllers);
        mine.set(request.id, slot);
        reply({ id: request.id, connection: connectionOf(await slot.plane) });
      } catch (error) {
        reply({ id: request.id, error: error instanceof Error ? error.message : String(error) });
      }
    };
    socket.on('error', () => undefined);
    socket.on('close', () => {
      loans.delete(socket);
      // Still on loan: what the suite left on it is unknown, so it goes.
      for (const slot of mine.values()) if (slots.includes(slot)) retire(slot);
      for (const slot of slots) if (slot.lingering === socket) slot.lingering = undefined;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide(BROKER_KEY, { port: (server.address() as AddressInfo).port, token });

  return async () => {
    for (const socket of loans.keys()) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const all = await Promise.allSettled(slots.map((s) => s.plane));
    await Promise.all([...stopping, ...all.map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined))]);
  };
}

/** Whether a plane's API server still answers (a crashed one is replaced, not handed out). */
async function answers(plane: ControlPlane): Promise<boolean> {
  const res = await send(`${plane.server}/readyz`, { tls: adminIdentity(plane.kubeConfig), timeoutMs: 10_000 }).catch(
    () => undefined,
  );
  return res?.status === 200;
}
