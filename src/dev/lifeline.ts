/**
 * The operator's lifeline to `tsop dev`: the session hands its operator one extra pipe (fd 3)
 * that it never writes to, and the operator, through the preload (register.ts), waits for that
 * pipe's end. The kernel closes the session's side when the session ends, however it ends
 * (SIGKILL too), so the operator goes with it; Node has no parent-death signal to ask for.
 * On that end the operator gets SIGTERM (its own graceful shutdown), then SIGKILL from a
 * detached shell after a grace period, and the transpile cache the session would have removed is removed.
 */
import { spawn } from 'node:child_process';
import { fstatSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';

/** Names the lifeline's fd in the operator's environment. */
export const LIFELINE_ENV = 'TSOP_DEV_LIFELINE_FD';
/** The lifeline's fd: the fourth stdio entry of the operator's spawn. */
export const LIFELINE_FD = 3;

const GRACE_MS = 5_000;

/** In the operator: ends this process when the session's side of the lifeline closes. */
export function followLifeline(env: NodeJS.ProcessEnv = process.env): void {
  const fd = Number(env[LIFELINE_ENV]);
  if (!Number.isInteger(fd) || fd < 0) return;
  // The operator's own children must not take the fd number for a lifeline of theirs.
  delete env[LIFELINE_ENV];
  const cache = env['TSOP_DEV_CACHE'];
  let pipe: Socket;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFIFO() && !stat.isSocket()) return;
    pipe = new Socket({ fd, readable: true, writable: false });
  } catch {
    return; // no pipe at that fd: run as a plain process
  }
  let gone = false;
  const sessionGone = (): void => {
    if (gone) return;
    gone = true;
    if (cache) rmSync(cache, { recursive: true, force: true });
    killLater(process.pid, GRACE_MS);
    process.kill(process.pid, 'SIGTERM');
  };
  pipe.on('data', () => undefined); // the session never writes; reading is how the end is seen
  pipe.once('end', sessionGone);
  pipe.once('error', sessionGone);
  pipe.unref(); // the lifeline alone never keeps the operator running
}

/**
 * The hard stop after the grace period, kept outside this process: a shutdown that blocks the main
 * thread (seen under load: `process.exit` waiting on a thread for ever) would also stop a timer
 * here. A detached shell waits while the pid lives and sends SIGKILL when the grace is over; it
 * ends by itself as soon as the operator has gone.
 */
function killLater(pid: number, graceMs: number): void {
  const ticks = Math.ceil(graceMs / 200);
  const script = `i=0; while kill -0 ${pid} 2>/dev/null; do i=$((i+1)); if [ $i -gt ${ticks} ]; then kill -KILL ${pid} 2>/dev/null; exit 0; fi; sleep 0.2; done`;
  try {
    spawn('/bin/sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
  } catch {
    setTimeout(() => process.exit(1), graceMs).unref(); // no shell: the in-process fallback
  }
}
