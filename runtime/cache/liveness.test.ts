import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../queue/index.js';
import { LivenessCheck, livenessOf, WATCH_SILENCE_MS } from './liveness.js';

/** Nothing listens there; the probe never fires in these tests (its idle time is far away). */
const nowhere = (): KubeConfig => {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
};

describe('LivenessCheck: silence', () => {
  it('declares a watch dead after watchSilenceMs without an event or bookmark, each of which re-arms it', () => {
    const clock = new FakeClock();
    const check = new LivenessCheck(
      nowhere(),
      { clock, idleMs: 1e9, timeoutMs: 1, silenceMs: 100 },
      new AbortController().signal,
    );
    let hooked = 0;
    check.onDead(() => hooked++);
    clock.advance(90);
    check.heard();
    clock.advance(90);
    expect(check.dead).toBeUndefined();
    clock.advance(10);
    expect(check.dead?.message).toMatch(/^watch carried no event or bookmark for 100 ms/);
    expect(check.signal.aborted).toBe(true);
    expect(hooked).toBe(1);
    expect(clock.pending()).toBe(0);
  });

  it('is off at 0, and defaults to 150 s', () => {
    const clock = new FakeClock();
    const check = new LivenessCheck(
      nowhere(),
      { clock, idleMs: 1e9, timeoutMs: 1, silenceMs: 0 },
      new AbortController().signal,
    );
    clock.advance(10 * WATCH_SILENCE_MS);
    expect(check.dead).toBeUndefined();
    check.stop();
    expect(livenessOf(clock, {}).silenceMs).toBe(150_000);
  });
});
