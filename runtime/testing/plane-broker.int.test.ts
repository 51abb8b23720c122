/**
 * The plane broker lends a plane to one process at a time: each socket here stands for a test
 * process. A plane given back goes to its borrower's next suite, and to another process only once
 * the borrower has exited; a plane still on loan when its process goes is stopped, not lent again.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import setupBroker, { BROKER_KEY, type LoanReply, type PlaneBrokerAddress } from './plane-broker.js';
import { onLines } from './socket-lines.js';

interface FakeProcess {
  socket: Socket;
  borrow(id: number): Promise<LoanReply>;
  giveBack(id: number): void;
  exit(): Promise<void>;
}

let address: PlaneBrokerAddress | undefined;
let teardown: (() => Promise<void>) | undefined;

async function fakeProcess(): Promise<FakeProcess> {
  const { port, token } = address!;
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const replies = new Map<number, (r: LoanReply) => void>();
  onLines(socket, (line) => {
    const reply = JSON.parse(line) as LoanReply;
    replies.get(reply.id)?.(reply);
  });
  return {
    socket,
    borrow: (id) =>
      new Promise((resolve) => {
        replies.set(id, resolve);
        socket.write(`${JSON.stringify({ token, op: 'borrow', id, controllers: false })}\n`);
      }),
    giveBack: (id) => void socket.write(`${JSON.stringify({ token, op: 'return', id })}\n`),
    exit: () => new Promise((resolve) => socket.once('close', () => resolve()).end()),
  };
}

const serverOf = (reply: LoanReply): string => {
  if ('error' in reply) throw new Error(reply.error);
  return reply.connection.server;
};
/** Whether anything accepts connections at a plane's address. */
const listening = (server: string): Promise<boolean> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(server);
    const probe = connect(Number(port), hostname);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
const tick = () => new Promise((r) => setTimeout(r, 200));

describe('the shared plane broker', () => {
  beforeAll(async () => {
    teardown = await setupBroker({ provide: (key, value) => void (key === BROKER_KEY && (address = value)) });
  });
  afterAll(async () => {
    await teardown?.();
  }, 60_000);

  it('lends a plane to one process at a time, back to the same process first, to others after it exits; stops one never given back', async () => {
    const a = await fakeProcess();
    const b = await fakeProcess();
    const [planeA, planeB] = await Promise.all([a.borrow(1), b.borrow(1)]).then((r) => r.map(serverOf));
    expect(planeA).not.toBe(planeB);

    // Given back: A's next suite gets it again; B, still holding its own, cannot get A's.
    a.giveBack(1);
    await tick();
    expect(serverOf(await a.borrow(2))).toBe(planeA);
    a.giveBack(2);
    b.giveBack(1);
    await tick();
    // A and B have given theirs back but not exited: a third process gets a new plane.
    const c = await fakeProcess();
    const planeC = serverOf(await c.borrow(1));
    expect([planeA, planeB]).not.toContain(planeC);
    expect(await listening(planeC)).toBe(true);

    // A exits: its plane is free for anyone.
    await a.exit();
    await tick();
    const d = await fakeProcess();
    expect(serverOf(await d.borrow(1))).toBe(planeA);

    // C exits without giving its plane back: that plane is stopped, never lent again.
    await c.exit();
    await tick();
    // (Stopping takes the broker a moment; a plane lent again would keep answering.)
    let stopped = false;
    for (let i = 0; i < 100 && !stopped; i++) stopped = !(await listening(planeC)) || (await tick(), false);
    await b.exit();
    await tick();
    const e = await fakeProcess();
    expect(serverOf(await e.borrow(1))).toBe(planeB);
    expect(stopped).toBe(true);
    await Promise.all([d.exit(), e.exit()]);
  }, 120_000);

  it('refuses a request without the run token', async () => {
    const socket = connect(address!.port, '127.0.0.1');
    socket.write(`${JSON.stringify({ token: 'wrong', op: 'borrow', id: 1, controllers: false })}\n`);
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    expect(socket.destroyed).toBe(true);
  });
});
