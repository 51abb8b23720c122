/**
 * A running `tsop dev`, read as a user reads it: its output lines as they come, and a wait for
 * the first line matching a pattern after a given point (failing with the whole output).
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export class Session {
  readonly lines: string[] = [];
  private waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcess) {
    let buffered = '';
    const take = (chunk: Buffer): void => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      this.lines.push(...parts);
      for (const w of this.waiters.splice(0)) w();
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    this.exited = new Promise((done) => child.on('exit', (code) => done(code)));
  }

  /** The first line at or after `from` matching `re`; fails with the whole output after `ms`. */
  async waitFor(re: RegExp, from = 0, ms = 90_000): Promise<{ line: string; index: number }> {
    const deadline = Date.now() + ms;
    for (;;) {
      const index = this.lines.findIndex((l, i) => i >= from && re.test(l));
      if (index >= 0) return { line: this.lines[index]!, index };
      if (Date.now() > deadline)
        throw new Error(`no line matching ${re} after ${ms} ms; output:\n${this.lines.join('\n')}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, 500);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  /** SIGINT (Ctrl-C) unless it has ended; resolves with its exit code. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGINT');
    return this.exited;
  }
}

/** The pids of live processes whose command line mentions `text` (e.g. a session's temp dir). */
export function processesMentioning(text: string): string[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    });
}
