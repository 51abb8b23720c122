import { describe, expect, it } from 'vitest';
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  FakeClock,
  ItemExponentialRateLimiter,
  MaxOfRateLimiter,
} from './index.js';

describe('ItemExponentialRateLimiter', () => {
  it('doubles from 5 ms per key and caps at 1000 s', () => {
    const l = new ItemExponentialRateLimiter();
    const seq = Array.from({ length: 25 }, () => l.when('a'));
    expect(seq.slice(0, 5)).toEqual([5, 10, 20, 40, 80]);
    expect(seq[17]).toBe(5 * 2 ** 17); // 655.36 s, still below the cap
    expect(seq[18]).toBe(1_000_000);
    expect(seq[24]).toBe(1_000_000);
    expect(l.when('b')).toBe(5); // keys are independent
    expect(l.numRequeues('a')).toBe(25);
  });

  it('stays finite after very many failures', () => {
    const l = new ItemExponentialRateLimiter(5, 1000);
    for (let i = 0; i < 2000; i++) l.when('a');
    expect(l.when('a')).toBe(1000);
  });

  it('starts over after forget', () => {
    const l = new ItemExponentialRateLimiter();
    l.when('a');
    l.when('a');
    l.forget('a');
    expect(l.numRequeues('a')).toBe(0);
    expect(l.when('a')).toBe(5);
  });
});

describe('BucketRateLimiter', () => {
  it('allows a burst of 100, then spaces retries at 10 per second', () => {
    const clock = new FakeClock();
    const l = new BucketRateLimiter(10, 100, clock);
    for (let i = 0; i < 100; i++) expect(l.when(`k${i}`)).toBe(0);
    expect(l.when('x')).toBeCloseTo(100);
    expect(l.when('y')).toBeCloseTo(200);
    clock.advance(1000); // +10 tokens, 2 of them already reserved
    for (let i = 0; i < 8; i++) expect(l.when(`z${i}`)).toBe(0);
    expect(l.when('w')).toBeCloseTo(100);
  });

  it('never saves up more than the burst', () => {
    const clock = new FakeClock();
    const l = new BucketRateLimiter(10, 5, clock);
    clock.advance(3_600_000);
    for (let i = 0; i < 5; i++) expect(l.when('k')).toBe(0);
    expect(l.when('k')).toBeCloseTo(100);
  });
});

describe('MaxOfRateLimiter', () => {
  it('answers the longest delay and forgets in every limiter', () => {
    const clock = new FakeClock();
    const l = new MaxOfRateLimiter(new ItemExponentialRateLimiter(5, 1000), new BucketRateLimiter(10, 2, clock));
    expect(l.when('a')).toBe(5); // exponential wins while the bucket has tokens
    expect(l.when('a')).toBe(10);
    expect(l.when('b')).toBeCloseTo(100); // bucket empty: its 100 ms beats the fresh key's 5 ms
    expect(l.numRequeues('a')).toBe(2);
    l.forget('a');
    expect(l.numRequeues('a')).toBe(0);
  });

  it('is the default: exponential under a 10/s, 100-burst bucket', () => {
    const clock = new FakeClock();
    const l = defaultControllerRateLimiter(clock);
    const delays = Array.from({ length: 101 }, (_, i) => l.when(`k${i}`));
    expect(delays.slice(0, 100).every((d) => d === 5)).toBe(true);
    expect(delays[100]).toBeCloseTo(100);
  });
});
