import { describe, expect, it } from 'vitest';
import { Limiter } from './limiter.js';

describe('Limiter', () => {
  it('runs at most n tasks at a time, the rest in order, even when tasks are added as others finish', async () => {
    const limiter = new Limiter(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (i: number) => async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 1));
      order.push(i);
      running--;
      // A newcomer arriving as a slot frees must queue behind the waiters.
      if (i === 0) void limiter.run(task(9));
      return i;
    };
    const results = await Promise.all([0, 1, 2, 3, 4].map((i) => limiter.run(task(i))));
    await new Promise((r) => setTimeout(r, 20));
    expect(results).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(order.indexOf(9)).toBeGreaterThan(order.indexOf(4) - 1);
    expect(limiter.pending).toBe(0);
  });
});
