/**
 * The set of keys waiting for a ready time, ordered by that time (a binary min-heap).
 * One ready time per key, the earliest wins; a superseded heap entry stays in place and is
 * skipped when it surfaces (lazy deletion keeps every operation O(log n)).
 */

interface Entry {
  key: string;
  at: number;
}

export class DelaySet {
  private readonly readyAt = new Map<string, number>();
  private heap: Entry[] = [];

  get size(): number {
    return this.readyAt.size;
  }

  has(key: string): boolean {
    return this.readyAt.has(key);
  }

  /** Records `key` as ready at `at` unless it is already due earlier; true when recorded. */
  offer(key: string, at: number): boolean {
    const current = this.readyAt.get(key);
    if (current !== undefined && current <= at) return false;
    this.readyAt.set(key, at);
    this.push({ key, at });
    return true;
  }

  delete(key: string): void {
    this.readyAt.delete(key);
  }

  clear(): void {
    this.readyAt.clear();
    this.heap = [];
  }

  /** The earliest ready time, or undefined when nothing waits. */
  nextAt(): number | undefined {
    this.dropStale();
    return this.heap[0]?.at;
  }

  /** The `limit` earliest keys with their ready times, earliest first (for introspection; O(n log n)). */
  soonest(limit: number): Array<{ key: string; at: number }> {
    return [...this.readyAt]
      .sort((a, b) => a[1] - b[1])
      .slice(0, limit)
      .map(([key, at]) => ({ key, at }));
  }

  /** Removes and returns, earliest first, every key whose ready time is ≤ now. */
  takeDue(now: number): string[] {
    const due: string[] = [];
    for (;;) {
      this.dropStale();
      const top = this.heap[0];
      if (!top || top.at > now) return due;
      this.pop();
      this.readyAt.delete(top.key);
      due.push(top.key);
    }
  }

  private dropStale(): void {
    for (;;) {
      const top = this.heap[0];
      if (!top || this.readyAt.get(top.key) === top.at) return;
      this.pop();
    }
  }

  private push(e: Entry): void {
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent]!.at <= e.at) break;
      h[i] = h[parent]!;
      i = parent;
    }
    h[i] = e;
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop();
    if (!last || h.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const c = r < h.length && h[r]!.at < h[l]!.at ? r : l;
      if (h[c]!.at >= last.at) break;
      h[i] = h[c]!;
      i = c;
    }
    h[i] = last;
  }
}
