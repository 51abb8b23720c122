/**
 * ConcurrencyProbe: instrumentation for the "never one key twice at once" claim. A reconciler
 * calls enter/exit around its body; the probe counts overlaps per key (must stay 0), the peak
 * number of keys in flight, and how often each key ran. Plain counters — no timing involved.
 */

export class ConcurrencyProbe {
  readonly inFlight = new Set<string>();
  readonly runs = new Map<string, number>();
  overlaps = 0;
  peak = 0;
  total = 0;

  enter(key: string): void {
    if (this.inFlight.has(key)) this.overlaps++;
    this.inFlight.add(key);
    this.peak = Math.max(this.peak, this.inFlight.size);
    this.runs.set(key, (this.runs.get(key) ?? 0) + 1);
    this.total++;
  }

  exit(key: string): void {
    this.inFlight.delete(key);
  }
}
