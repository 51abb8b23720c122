/**
 * At most n tasks at a time, the rest waiting in order: the ring's label writes share the
 * manager's sockets with reconciles, so a rebalance of thousands of objects must not take them all.
 */
export class Limiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    // A finishing task hands its slot straight to the first waiter, so no newcomer slips in between.
    if (this.running >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Tasks running or waiting. */
  get pending(): number {
    return this.running + this.waiting.length;
  }
}
