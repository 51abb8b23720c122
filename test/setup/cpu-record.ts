/**
 * With TSOP_TEST_CPU_LOG naming a file (CI sets it), each test file appends one JSON line to it:
 * its project, path, wall time and the CPU time it cost — its worker's own and that of every
 * program it started and waited for (control planes, npm, tsc, the CLI), from /proc/self/stat.
 * Wall time says which file took long; CPU time says which one kept the machine busy, which is
 * what makes the whole run slow on two cores (scripts/test-cpu.mjs lists the costliest). The file's
 * start and end (Unix seconds) show each project's span and which file ran last.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

const LOG = process.env['TSOP_TEST_CPU_LOG'];
/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** This process's CPU seconds, user and system, its own and its waited-for children's; undefined off Linux. */
export function cpuSeconds(stat?: string): number | undefined {
  let text = stat;
  try {
    text ??= readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return undefined;
  }
  // After the command name in parentheses: state, ppid, … utime (12th), stime, cutime, cstime.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
  return ((utime ?? 0) + (stime ?? 0) + (cutime ?? 0) + (cstime ?? 0)) / TICKS;
}

if (LOG) {
  let cpuAtStart: number | undefined;
  let wallAtStart = 0;
  let startedAt = 0;
  beforeAll(() => {
    cpuAtStart = cpuSeconds();
    wallAtStart = performance.now();
    startedAt = Date.now();
  });
  // vitest hands a hook its fixtures first (destructured, none wanted here), then the file.
  // biome-ignore lint/correctness/noEmptyPattern: vitest requires the first argument to be a pattern
  afterAll(({}, suite) => {
    const cpuNow = cpuSeconds();
    if (cpuAtStart === undefined || cpuNow === undefined) return;
    const file = 'filepath' in suite ? suite : suite.file;
    const line = {
      project: file.projectName ?? '',
      file: relative(process.cwd(), file.filepath),
      wallS: Math.round((performance.now() - wallAtStart) / 100) / 10,
      cpuS: Math.round((cpuNow - cpuAtStart) * 10) / 10,
      startS: Math.round(startedAt / 100) / 10,
      endS: Math.round(Date.now() / 100) / 10,
    };
    appendFileSync(LOG, `${JSON.stringify(line)}\n`);
  });
}
