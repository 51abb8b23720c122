/** What the runtime benchmarks read from /proc: a process's CPU and memory, and the control plane's CPU. */
import { readdirSync, readFileSync } from 'node:fs';

/** A process's name, parent and CPU seconds (user + system), from /proc/<pid>/stat. */
export function procStat(pid: number | string): { comm: string; ppid: number; cpuSeconds: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The name is in parentheses and may hold spaces or ')': the fields start after the last ') '.
  const rest = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return {
    comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    ppid: Number(rest[1]),
    cpuSeconds: (Number(rest[11]) + Number(rest[12])) / 100,
  };
}

/** A process's CPU seconds (user + system) and its current and peak RSS, from /proc. */
export function procStats(pid: number): { cpuSeconds: number; rssMiB: number; peakRssMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
  return { cpuSeconds: procStat(pid).cpuSeconds, rssMiB: kb('VmRSS'), peakRssMiB: kb('VmHWM') };
}

/** CPU seconds so far of this process's children named `names` (kube-apiserver, etcd: what the server side paid). */
export function childCpuSeconds(names: readonly string[]): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const p = procStat(entry);
      if (names.includes(p.comm) && p.ppid === process.pid) total += p.cpuSeconds;
    } catch {
      // gone in between
    }
  }
  return total;
}

/** CPU seconds so far of this process's kube-apiserver and etcd children. */
export function planeCpuSeconds(): number {
  return childCpuSeconds(['kube-apiserver', 'etcd']);
}
