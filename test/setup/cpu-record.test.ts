/** The CPU a test file cost, as test/setup/cpu-record.ts reads it from /proc/<pid>/stat. */
import { describe, expect, it } from 'vitest';
import { cpuSeconds } from './cpu-record.js';

describe('cpuSeconds', () => {
  it("adds the process's user and system time to its waited-for children's, in seconds", () => {
    // A command name with a space and a parenthesis of its own: the fields start after the last ')'.
    const stat = '4242 (node (worker) 1) S 1 2 3 4 5 6 7 8 9 10 150 50 300 100 20 0 1 0 99 1000 50';
    expect(cpuSeconds(stat)).toBe(6);
  });

  it('reads this process on Linux', () => {
    if (process.platform !== 'linux') return;
    const spent = cpuSeconds();
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThan(process.uptime() * 64);
  });
});
