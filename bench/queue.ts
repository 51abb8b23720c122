/**
 * Work-queue throughput, run on demand (never in `npm test`):
 *   node --import ./runtime/testing/register.mjs bench/queue.ts [keys]
 * Measures add → get → done for N distinct keys with 1 and 8 async workers, folding under
 * repeated adds, and addAfter through the delay heap (on a fake clock, so only queue cost counts).
 */
import { FakeClock, RateLimitingQueue } from '../runtime/queue/index.js';

const N = Number(process.argv[2] ?? 100_000);
const keys = Array.from({ length: N }, (_, i) => `ns-${i % 100}/obj-${i}`);

async function timed(label: string, fn: () => Promise<number>): Promise<void> {
  const start = performance.now();
  const ops = await fn();
  const ms = performance.now() - start;
  const perSec = Math.round((ops / ms) * 1000);
  console.log(
    `${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms  ${perSec.toLocaleString('en-US').padStart(12)} keys/s`,
  );
}

async function workers(q: RateLimitingQueue, count: number): Promise<number> {
  let processed = 0;
  const loop = async (): Promise<void> => {
    for (let key = await q.get(); key !== undefined; key = await q.get()) {
      processed++;
      q.done(key);
      if (q.len() === 0) q.shutDown();
    }
  };
  await Promise.all(Array.from({ length: count }, loop));
  return processed;
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${N.toLocaleString('en-US')} keys`);
  for (const count of [1, 8]) {
    await timed(`add all, then get+done, ${count} worker(s)`, async () => {
      const q = new RateLimitingQueue({ clock: new FakeClock() });
      for (const k of keys) q.add(k);
      return workers(q, count);
    });
  }
  await timed('add ×10 per key (folded), then get+done', async () => {
    const q = new RateLimitingQueue({ clock: new FakeClock() });
    for (let r = 0; r < 10; r++) for (const k of keys) q.add(k);
    const processed = await workers(q, 8);
    if (processed !== N) throw new Error(`folding failed: ${processed} runs for ${N} keys`);
    return N * 10;
  });
  await timed('addAfter (random 0–10 s), release, get+done', async () => {
    const clock = new FakeClock();
    const q = new RateLimitingQueue({ clock });
    for (const k of keys) q.addAfter(k, 1 + Math.random() * 10_000);
    clock.advance(10_001);
    if (q.len() !== N) throw new Error(`expected ${N} ready, got ${q.len()}`);
    return workers(q, 8);
  });
  await timed('addRateLimited (default limiter), release', async () => {
    const clock = new FakeClock();
    const q = new RateLimitingQueue({ clock });
    for (const k of keys) q.addRateLimited(k);
    clock.advance(N * 100 + 1_000); // the 10/s bucket spaces N retries over N/10 s
    if (q.len() !== N) throw new Error(`expected ${N} ready, got ${q.len()}`);
    return N;
  });
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
}

await main();
