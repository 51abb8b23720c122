/**
 * Dead watches are noticed in under a minute, against a real API server frozen with SIGSTOP
 * (its kernel still answers TCP keep-alive, so only a probe can tell: over HTTP/2, the default,
 * an unanswered PING on the watch's connection): the informer drops the silent watch, and after
 * SIGCONT it reconnects and sees changes — with the default timings.
 */
import { expect, it } from 'vitest';
import type { GroupVersionKind } from '../apimachinery/index.js';
import { createClient } from '../client/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { ensureNamespace, waitFor } from '../test-fixtures/helpers.js';
import { Informer, type WatchErrorInfo } from './index.js';

/** The PING on an HTTP/2 watch's connection, or the probe of an HTTP/1.1 watch, went unanswered. */
const UNANSWERED = /did not answer a (PING|probe)/;
const CM: GroupVersionKind = { group: '', version: 'v1', kind: 'ConfigMap' };

describeWithControlPlane('informer: dead watch detection', {}, (env) => {
  it('drops a watch to a frozen API server within a minute and resumes after the thaw', {
    timeout: 120_000,
  }, async () => {
    const client = createClient(env.cp.kubeConfig);
    await ensureNamespace(client, 'frozen');
    const errors: Array<WatchErrorInfo & { t: number }> = [];
    const informer = new Informer({
      kubeConfig: env.cp.kubeConfig,
      gvk: CM,
      namespace: 'frozen',
      onWatchError: (e) => errors.push({ ...e, t: performance.now() }),
    });
    const added: string[] = [];
    informer.addEventHandler({ onAdd: (o) => added.push(o.metadata!.name!) });
    const ac = new AbortController();
    const running = informer.run(ac.signal);
    try {
      expect(await informer.waitForSync(ac.signal)).toBe(true);
      const frozenAt = performance.now();
      env.cp.freezeApiServer();
      try {
        await waitFor(
          'the dead watch to be noticed',
          () => errors.some((e) => UNANSWERED.test(e.message)),
          70_000,
          200,
        );
      } finally {
        env.cp.thawApiServer();
      }
      const noticed = errors.find((e) => UNANSWERED.test(e.message))!;
      console.info(`dead watch noticed ${Math.round(noticed.t - frozenAt)} ms after the freeze`);
      expect(noticed.t - frozenAt).toBeLessThan(60_000);
      await client.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'after-thaw', namespace: 'frozen' },
      });
      await waitFor('the informer to see a change made after the thaw', () => added.includes('after-thaw'), 40_000);
    } finally {
      ac.abort();
      await running;
    }
  });
});
