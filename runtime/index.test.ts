import { describe, expect, it } from 'vitest';
import * as runtime from './index.js';

describe('runtime barrel', () => {
  it('exposes each module’s entry points from one import', () => {
    const expected = [
      'createManager',
      'controllerFor',
      'Controller',
      'TerminalError',
      'generationChanged',
      'enqueueForOwner',
      'runtimeMetrics',
      'newWorkQueue',
      'Cache',
      'createClient',
      'ConflictError',
      'LeaderElector',
      'setControllerReference',
      'setStatusCondition',
      'rootLogger',
      'RESTMapper',
      'decideLeadership',
      'decideNext',
    ] as const;
    for (const name of expected) expect(typeof (runtime as Record<string, unknown>)[name], name).toBe('function');
    // One clock for the queue, the cache and the elector.
    expect(typeof runtime.realClock.now).toBe('function');
  });
});
