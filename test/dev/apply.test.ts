/**
 * What `tsop dev` reports of an apply, read from kubectl's output: each object the API server
 * took, each warning it gave, each refusal with its message (field paths included), and a failed
 * run that applied some objects and not others.
 */
import { describe, expect, it } from 'vitest';
import { readApplyOutput } from '../../src/dev/kubectl.js';

describe("reading kubectl's server-side apply output", () => {
  it('lists every applied object, and API server warnings apart, for a run that exits 0', () => {
    const r = readApplyOutput(
      'memcached.cache.example.com/memcached-sample serverside-applied\nconfigmap/settings serverside-applied\n',
      'Warning: spec.size: values above 10 are deprecated\n',
      true,
    );
    expect(r).toEqual({
      ok: true,
      applied: [
        'memcached.cache.example.com/memcached-sample serverside-applied',
        'configmap/settings serverside-applied',
      ],
      warnings: ['spec.size: values above 10 are deprecated'],
      errors: [],
    });
  });

  it('keeps the objects that went in when another is refused, and the refusal with its field path', () => {
    const r = readApplyOutput(
      'configmap/settings serverside-applied\n',
      [
        'Error from server (Forbidden): error when applying patch: admission webhook',
        '"vmemcached-v1alpha1.kb.io" denied the request: Memcached.cache.example.com "big" is invalid:',
        'spec.size: Invalid value: 11: must be at most 10\n',
      ].join(' '),
      false,
    );
    expect(r.ok).toBe(false);
    expect(r.applied).toEqual(['configmap/settings serverside-applied']);
    expect(r.errors).toEqual([
      [
        'Error from server (Forbidden): error when applying patch: admission webhook',
        '"vmemcached-v1alpha1.kb.io" denied the request: Memcached.cache.example.com "big" is invalid:',
        'spec.size: Invalid value: 11: must be at most 10',
      ].join(' '),
    ]);
  });

  it('joins the continuation lines of one error, and keeps two errors apart', () => {
    const r = readApplyOutput(
      '',
      'Error from server (Invalid): Memcached.cache.example.com "a" is invalid:\n  spec.size: Invalid value: -1\nerror: no objects passed to apply\n',
      false,
    );
    expect(r.errors).toEqual([
      'Error from server (Invalid): Memcached.cache.example.com "a" is invalid: spec.size: Invalid value: -1',
      'error: no objects passed to apply',
    ]);
  });

  it('says a failed run failed even when kubectl printed nothing', () => {
    expect(readApplyOutput('', '', false).errors).toEqual(['kubectl failed without a message']);
  });
});
