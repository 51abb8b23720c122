/**
 * Sharding asked for without the module that runs it: a project's runtime has sharding/ only after
 * `tsop edit --sharding`, and its main.ts then passes `shardingEngine`. Without it the manager
 * refuses at once, in one line that names the ring, the reason and the command.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { shardingEngine } from '../sharding/index.js';
import { isUserError } from './fatal.js';
import { managerOptionsFromFlags, readManagerFlags, type ManagerFlags } from './flags.js';
import { createManager, NoShardingEngineError } from './index.js';
import { resolveOptions } from './options.js';

const kubeConfig = new KubeConfig();
kubeConfig.loadFromOptions({
  clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
  users: [{ name: 'u' }],
  contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
  currentContext: 'x',
});

const LINE =
  'sharding on ring "memcached" was asked for (--sharding or the sharding option) but this project\'s runtime has no sharding module ' +
  "(createManager got no shardingEngine): run 'tsop edit --sharding', which adds src/runtime/sharding/ and passes it in main.ts";

describe('sharding without a sharding engine', () => {
  it('--sharding=<ring> without shardingEngine: the manager refuses in one line (what, why, how to fix)', () => {
    const flags = readManagerFlags(['--sharding=memcached']);
    const before = process.env['POD_NAMESPACE'];
    process.env['POD_NAMESPACE'] = 'memcached-system';
    const opts = { ...managerOptionsFromFlags(flags as ManagerFlags, { leaderElectionId: 'x' }), kubeConfig };
    if (before === undefined) delete process.env['POD_NAMESPACE'];
    else process.env['POD_NAMESPACE'] = before;
    let thrown: unknown;
    try {
      resolveOptions(opts);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(NoShardingEngineError);
    expect((thrown as Error).message).toBe(LINE);
    expect((thrown as Error).message).not.toContain('\n');
    // exitOnFatalError logs it as that one line, without a stack.
    expect(isUserError(thrown)).toBe(true);
    expect(() => createManager(opts)).toThrow(NoShardingEngineError);
  });

  it('the sharding option alone, the same; with shardingEngine it resolves, and without sharding no engine is needed', () => {
    const sharding = { ring: 'memcached', namespace: 'memcached-system' };
    expect(() => resolveOptions({ kubeConfig, sharding })).toThrow(LINE);
    expect(resolveOptions({ kubeConfig, sharding, shardingEngine }).sharding?.ring).toBe('memcached');
    expect(resolveOptions({ kubeConfig }).sharding).toBeUndefined();
  });
});
