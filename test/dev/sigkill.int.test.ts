/**
 * `tsop dev` killed with SIGKILL leaves nothing running: the operator it started follows its
 * lifeline (src/dev/lifeline.ts) and ends, the control plane's etcd and kube-apiserver are
 * stopped by the harness's watchdog, and the session's temp files go with them. The project is
 * scaffolded by the built CLI; whatever the test started is killed by pid even when it fails.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkNodeModules } from '../scaffold/node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'tsop-dev-sigkill-'));
const dir = join(root, 'shop-operator');
// The session's TMPDIR: the control plane and the transpile cache live here, so "nothing left" is checkable.
const sessionTmp = join(root, 'tmp');

/** Alive and not a zombie waiting for a reaper. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Processes whose command line names `text` (the session's own temp dir). */
function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter(alive);
}

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('tsop dev killed with SIGKILL', () => {
  let tsop: ChildProcess | undefined;
  let output = '';
  const started: number[] = [];

  beforeAll(() => {
    mkdirSync(dir);
    mkdirSync(sessionTmp);
    const cli = (...args: string[]): void =>
      void execFileSync(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], { cwd: dir, stdio: 'pipe' });
    cli('init', '--domain', 'example.com', '--skip-install');
    linkNodeModules(dir);
    cli('create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Order', '--resource', '--controller');
  }, 120_000);

  afterAll(async () => {
    // Whatever is still running of what this test started, by pid: tsop, its operator, the plane.
    if (tsop?.pid !== undefined && alive(tsop.pid)) tsop.kill('SIGKILL');
    for (const pid of [...started, ...processesNaming(sessionTmp)]) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await until(
      'the processes this test started to end',
      () => ![...started, ...processesNaming(sessionTmp)].some(alive),
      10_000,
    ).catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  });

  it('leaves no operator, no etcd or kube-apiserver of the session and no temp file', async () => {
    tsop = spawn(process.execPath, [join(TSOP, 'bin/tsop.js'), 'dev', '--samples=false'], {
      cwd: dir,
      env: { ...process.env, TMPDIR: sessionTmp, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [tsop.stdout, tsop.stderr]) stream?.on('data', (c: Buffer) => (output += c.toString('utf8')));
    const exited = new Promise<NodeJS.Signals | null>((done) => tsop!.on('exit', (_code, signal) => done(signal)));
    await until(
      'tsop dev to start its operator',
      () => /operator ready \d+ ms after its start/.test(output) || tsop!.exitCode !== null,
      150_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; output:\n${output}`);
    });
    const operator = Number(/operator running \(pid (\d+)\)/.exec(output)?.[1]);
    expect(alive(operator), output).toBe(true);
    started.push(operator);
    const plane = processesNaming(sessionTmp).filter((pid) => pid !== operator && pid !== tsop!.pid);
    const names = plane.map((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
    expect(names).toEqual(expect.arrayContaining(['etcd', 'kube-apiserver']));
    started.push(...plane);

    tsop.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    // The operator goes at once (a closed pipe); the watchdog polls once a second, then stops the plane.
    await until('the operator to end', () => !alive(operator), 15_000);
    await until(
      `no process of the session (left: ${processesNaming(sessionTmp).join(', ')})`,
      () => processesNaming(sessionTmp).length === 0,
      30_000,
    );
    // Node's compile cache for the CLI is kept on purpose (as dev.int.test.ts allows).
    await until(
      'the session temp files to go',
      () => readdirSync(sessionTmp).filter((f) => !/^(tsop|node)-compile-cache$/.test(f)).length === 0,
      15_000,
    ).catch(() => undefined);
    expect(readdirSync(sessionTmp).filter((f) => !/^(tsop|node)-compile-cache$/.test(f))).toEqual([]);
  }, 240_000);
});
