import { describe, expect, it } from 'vitest';
import { defaultShardName, drainLabel, invalidName, shardLabel, shardLeaseName } from './names.js';

describe('sharding names', () => {
  it('label keys carry the ring, so several rings can shard the same objects', () => {
    expect(shardLabel('memcached')).toBe('shard.sharding.tsop.dev/memcached');
    expect(drainLabel('memcached')).toBe('drain.sharding.tsop.dev/memcached');
    expect(shardLeaseName('memcached', 'pod-1-abcde')).toBe('memcached-pod-1-abcde');
  });

  it('rings and shards are DNS-1123 labels, and say why not', () => {
    expect(invalidName('ring', 'memcached')).toBeUndefined();
    expect(invalidName('ring', '')).toBe('the ring name is empty');
    expect(invalidName('ring', 'Mem')).toMatch(/must be lower-case letters, digits and '-'/);
    expect(invalidName('shard', 'x'.repeat(64))).toMatch(/64 characters long \(at most 63/);
  });

  it('a default shard name is the host name made a DNS label plus 5 random characters', () => {
    expect(defaultShardName('Memcached_Operator.local', 'ab1c2')).toBe('memcached-operator-local-ab1c2');
    expect(defaultShardName('---', 'ab1c2')).toBe('shard-ab1c2');
    const long = defaultShardName('h'.repeat(100));
    expect(long.length).toBeLessThanOrEqual(63);
    expect(invalidName('shard', long)).toBeUndefined();
    expect(defaultShardName('host')).not.toBe(defaultShardName('host'));
  });
});
