/**
 * A test process's side of plane-broker.ts: borrows a shared control plane over one loopback
 * socket the process keeps for its lifetime (the broker treats the socket's end as the process's
 * end), and gives it back once the suite has swept what it made.
 */
import { connect, type Socket } from 'node:net';
import type { ControlPlaneConnection } from '../envtest/attach.js';
import type { LoanReply, LoanRequest, PlaneBrokerAddress } from './plane-broker.js';
import { onLines } from './socket-lines.js';

/** A borrowed plane: its connection, and how to give it back once the suite is swept. */
export interface PlaneLoan {
  connection: ControlPlaneConnection;
  giveBack(): void;
}

interface Channel {
  socket: Socket;
  waiting: Map<number, { resolve(reply: LoanReply): void; reject(error: Error): void }>;
}

let channel: Channel | undefined;
let nextId = 0;

function open(broker: PlaneBrokerAddress): Channel {
  if (channel && !channel.socket.destroyed) return channel;
  const socket = connect(broker.port, '127.0.0.1');
  const opened: Channel = { socket, waiting: new Map() };
  onLines(socket, (line) => {
    const reply = JSON.parse(line) as LoanReply;
    opened.waiting.get(reply.id)?.resolve(reply);
    opened.waiting.delete(reply.id);
    // Held open for the process's life, but never what keeps it alive.
    if (opened.waiting.size === 0) socket.unref();
  });
  const fail = (error: Error): void => {
    for (const w of opened.waiting.values()) w.reject(error);
    opened.waiting.clear();
  };
  socket.on('error', (error) => fail(new Error(`the shared control plane broker is unreachable: ${error.message}`)));
  socket.on('close', () => fail(new Error('the shared control plane broker closed the connection')));
  channel = opened;
  return opened;
}

function post(c: Channel, request: LoanRequest): void {
  c.socket.write(`${JSON.stringify(request)}\n`);
}

/** Borrows a plane (the fuller one with `controllers`); rejects with the broker's one-line reason when none can start. */
export async function borrowSharedPlane(broker: PlaneBrokerAddress, controllers: boolean): Promise<PlaneLoan> {
  const c = open(broker);
  const id = ++nextId;
  const reply = await new Promise<LoanReply>((resolve, reject) => {
    c.waiting.set(id, { resolve, reject });
    c.socket.ref();
    post(c, { token: broker.token, op: 'borrow', id, controllers });
  });
  if ('error' in reply) throw new Error(`the shared control plane did not start: ${reply.error}`);
  return { connection: reply.connection, giveBack: () => post(c, { token: broker.token, op: 'return', id }) };
}
