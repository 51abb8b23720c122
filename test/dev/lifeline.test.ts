/**
 * The operator's lifeline (src/dev/lifeline.ts) on a real child process: while the parent's end
 * of the pipe is open the child runs on; when it closes (what the kernel does when the parent
 * dies) the child gets SIGTERM, removes the transpile cache and ends; a child with no lifeline
 * is left alone, and the lifeline alone never keeps a finished child running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LIFELINE_ENV, LIFELINE_FD } from '../../src/dev/lifeline.js';

const REGISTER = fileURLToPath(new URL('../../runtime/testing/register.mjs', import.meta.url));
const LIFELINE = new URL('../../src/dev/lifeline.ts', import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), 'tsop-lifeline-'));
const children: ChildProcess[] = [];

/** A child that follows its lifeline, then says it is running; `stay` keeps it busy forever. */
interface Child {
  proc: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  running: Promise<void>;
  output: () => string;
}

function child(stay: boolean, env: NodeJS.ProcessEnv): Child {
  const script = join(dir, `child-${children.length}.ts`);
  writeFileSync(
    script,
    [
      `import { followLifeline } from ${JSON.stringify(LIFELINE)};`,
      'followLifeline();',
      "process.on('SIGTERM', () => { console.log('SIGTERM'); process.exit(0); });",
      "console.log('running');",
      stay ? 'setInterval(() => undefined, 1000);\n' : '',
    ].join('\n'),
  );
  const proc = spawn(process.execPath, ['--import', REGISTER, script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
  });
  children.push(proc);
  let out = '';
  const running = new Promise<void>((ok) =>
    proc.stdout?.on('data', (c: Buffer) => ((out += c.toString()), out.includes('running') && ok())),
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) =>
    proc.on('exit', (code, signal) => ok({ code, signal })),
  );
  return { proc, exited, running, output: () => out };
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('lifeline', { timeout: 30_000 }, () => {
  it('ends the child, by SIGTERM, once the parent end closes, and removes the cache', async () => {
    const cache = join(dir, 'cache');
    mkdirSync(cache);
    writeFileSync(join(cache, 'x.js'), '');
    const c = child(true, { [LIFELINE_ENV]: String(LIFELINE_FD), TSOP_DEV_CACHE: cache });
    await c.running;
    // Still running while the pipe is open.
    await new Promise((r) => setTimeout(r, 300));
    expect(c.proc.exitCode).toBeNull();
    c.proc.stdio[LIFELINE_FD]?.destroy();
    expect(await c.exited).toEqual({ code: 0, signal: null });
    expect(c.output()).toBe('running\nSIGTERM\n');
    expect(existsSync(cache)).toBe(false);
  });

  it('does nothing without the environment variable', async () => {
    const c = child(true, { [LIFELINE_ENV]: '' });
    await c.running;
    c.proc.stdio[LIFELINE_FD]?.destroy();
    await new Promise((r) => setTimeout(r, 500));
    expect(c.proc.exitCode).toBeNull();
    c.proc.kill('SIGKILL');
    await c.exited;
  });

  it('never keeps a child running that has nothing else to do', async () => {
    const c = child(false, { [LIFELINE_ENV]: String(LIFELINE_FD) });
    expect(await c.exited).toEqual({ code: 0, signal: null });
    expect(c.output()).toBe('running\n');
  });
});
