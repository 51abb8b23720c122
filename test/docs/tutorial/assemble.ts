/**
 * A reader's shell, for the pages whose commands the book's tests run: the tutorial, chapter by
 * chapter (each chapter's commands, then its files copied in), and Getting started. Each line runs
 * as a reader would type it; from a checkout, a leading `npx tsop@latest` runs this checkout's CLI
 * (inside a project `npx tsop` is already the project's own tsop). A line marked `# in a second
 * terminal` is started in the background and stopped when `stopBackground` is called.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { BACKGROUND_MARK, TSOP, type Chapter } from './chapters.js';

/**
 * A reader's `npm run run` serves health probes on the manager's default port (:8081), so two
 * readers' shells (the tutorial's and Getting started's, in parallel test workers) take turns
 * with the operators they leave running: a lock directory holding the owner's pid.
 */
const PORT_LOCK = join(tmpdir(), 'tsop-docs-reader-8081.lock');

async function lockReaderPort(): Promise<void> {
  for (const deadline = Date.now() + 20 * 60_000; ; ) {
    try {
      mkdirSync(PORT_LOCK);
      writeFileSync(join(PORT_LOCK, 'pid'), String(process.pid));
      return;
    } catch {
      const owner = Number(existsSync(join(PORT_LOCK, 'pid')) ? readFileSync(join(PORT_LOCK, 'pid'), 'utf8') : NaN);
      if (Number.isInteger(owner) && !alive(owner)) rmSync(PORT_LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited 20 min for ${PORT_LOCK} (another reader's operator on :8081)`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface Workspace {
  /** Where `mkdir project && cd project` starts. */
  root: string;
  /** The current directory of the reader's shell. */
  cwd: string;
  env: Record<string, string>;
  background: Array<{ line: string; process: ResultPromise; output: () => string }>;
  /** A reader's `npx tsop@latest` runs this checkout's CLI (and projects depend on the checkout). */
  fromCheckout: boolean;
}

/**
 * A reader's shell in `root`: the environment is `base` (a clean copy of this process's, without
 * npm's variables, by default) with kubectl's folder (and `paths`) first on PATH.
 */
export function workspace(
  root: string,
  opts: {
    kubectl: string;
    fromCheckout: boolean;
    paths?: string[];
    base?: Record<string, string>;
    env?: Record<string, string>;
  },
): Workspace {
  const base = opts.base ?? withoutNpm(process.env);
  const env: Record<string, string> = {
    ...base,
    NO_COLOR: '1',
    ...(opts.fromCheckout ? { TSOP_DEPENDENCY: `file:${TSOP}` } : {}),
    PATH: [dirname(opts.kubectl), ...(opts.paths ?? []), base['PATH'] ?? ''].join(delimiter),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_prefer_offline: 'true',
    npm_config_update_notifier: 'false',
    ...opts.env,
  };
  return { root, cwd: root, env, background: [], fromCheckout: opts.fromCheckout };
}

/** The environment less npm's own variables (an outer `npm test` sets them) and tsop's dependency pin. */
export function withoutNpm(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env))
    if (v !== undefined && !/^npm_/i.test(k) && k !== 'INIT_CWD' && k !== 'TSOP_DEPENDENCY') out[k] = v;
  return out;
}

/** The line as the shell should run it: from a checkout, a reader's `npx tsop@latest` is this checkout's CLI. */
export function shellLine(line: string, fromCheckout = true): string {
  if (!fromCheckout) return line;
  return line.replace(/(^|&&\s*|;\s*)npx tsop@latest\b/g, `$1node ${JSON.stringify(join(TSOP, 'bin/tsop.js'))}`);
}

export interface CommandResult {
  line: string;
  exitCode: number | undefined;
  output: string;
}

/**
 * Runs one line in the reader's shell; `cd` (alone or after `&&`) moves the shell and `export
 * NAME=value` sets the variable for the lines after it, as in one terminal.
 */
export async function runLine(ws: Workspace, line: string): Promise<CommandResult> {
  const exported = /^export ([A-Za-z_]\w*)=(\S*)$/.exec(line);
  if (exported) {
    ws.env[exported[1]!] = exported[2]!;
    return { line, exitCode: 0, output: '' };
  }
  if (line.includes(BACKGROUND_MARK)) {
    if (ws.background.length === 0) await lockReaderPort();
    const command = line.slice(0, line.indexOf(BACKGROUND_MARK)).trim();
    let output = '';
    // Its own process group, so stopping it reaches npm and the node it starts, as Ctrl-C would.
    const child = execa('bash', ['-c', shellLine(command, ws.fromCheckout)], {
      cwd: ws.cwd,
      env: ws.env,
      extendEnv: false,
      all: true,
      reject: false,
      detached: true,
      forceKillAfterDelay: 10_000,
    });
    child.all?.on('data', (c: Buffer) => void (output += c.toString()));
    ws.background.push({ line, process: child, output: () => output });
    return { line, exitCode: 0, output: '' };
  }
  // The shell reports its final directory on fd 3, so `cd` carries over to the next line.
  const marker = '__tsop_tutorial_cwd__';
  const result = await execa('bash', ['-c', `set -e\n${shellLine(line, ws.fromCheckout)}\necho "${marker}$PWD"`], {
    cwd: ws.cwd,
    env: ws.env,
    extendEnv: false,
    all: true,
    reject: false,
  });
  const lines = result.all.split('\n');
  const last = lines.findLast((l) => l.startsWith(marker));
  if (result.exitCode === 0 && last) ws.cwd = last.slice(marker.length);
  return { line, exitCode: result.exitCode, output: lines.filter((l) => !l.startsWith(marker)).join('\n') };
}

/** The chapter's files, copied over the project (the shell's current directory). */
export function copyFiles(ws: Workspace, chapter: Chapter): void {
  for (const file of chapter.files) {
    mkdirSync(dirname(join(ws.cwd, file)), { recursive: true });
    cpSync(join(chapter.dir, 'files', file), join(ws.cwd, file));
  }
}

/** Stops what the chapter left running (SIGTERM to its process group, as Ctrl-C would) and returns its output. */
export async function stopBackground(ws: Workspace): Promise<string[]> {
  const outputs: string[] = [];
  let stopped = false;
  for (const b of ws.background.splice(0)) {
    if (b.process.pid !== undefined) {
      try {
        process.kill(-b.process.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await b.process;
    outputs.push(b.output());
    stopped = true;
  }
  if (stopped) rmSync(PORT_LOCK, { recursive: true, force: true });
  return outputs;
}

/** A hash of what the project's tests depend on: its sources, tests, config, PROJECT and package files. */
export function projectState(project: string): string {
  const hash = createHash('sha256');
  const walk = (rel: string): void => {
    const full = join(project, rel);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) if (name !== 'node_modules') walk(join(rel, name));
      return;
    }
    hash.update(`${rel}\0`).update(readFileSync(full)).update('\0');
  };
  for (const top of [
    'src',
    'test',
    'config',
    'PROJECT',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'vitest.config.ts',
  ])
    walk(top);
  return hash.digest('hex');
}
