/**
 * Sample files that write one object (a kind's v1alpha1 and v2 samples, both `memcached-sample`
 * as scaffolded): `tsop dev` names them in one line instead of letting the last one replace the
 * other silently. Objects of other kinds, namespaces or names, and files the kustomization leaves
 * out, are no clash.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sameObjectSamples, sampleObjects } from '../../src/dev/samples.js';

const root = mkdtempSync(join(tmpdir(), 'tsop-dev-samples-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function samples(files: Record<string, string>): string[] {
  const project = join(root, `p${++n}`);
  const dir = join(project, 'config/samples');
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return sameObjectSamples(sampleObjects(project, dir));
}

const memcached = (version: string, name: string, namespace?: string): string =>
  `apiVersion: cache.example.com/${version}\nkind: Memcached\nmetadata:\n  name: ${name}\n${namespace ? `  namespace: ${namespace}\n` : ''}spec:\n  size: 1\n`;

describe('samples that are one object', () => {
  it('names a v1alpha1 and a v2 sample of one kind with one name, in one line', () => {
    expect(
      samples({
        'cache_v1alpha1_memcached.yaml': memcached('v1alpha1', 'memcached-sample'),
        'cache_v2_memcached.yaml': memcached('v2', 'memcached-sample'),
        'kustomization.yaml': 'resources:\n- cache_v1alpha1_memcached.yaml\n- cache_v2_memcached.yaml\n',
      }),
    ).toEqual([
      [
        'samples config/samples/cache_v1alpha1_memcached.yaml (cache.example.com/v1alpha1),',
        'config/samples/cache_v2_memcached.yaml (cache.example.com/v2) are one object, Memcached',
        'memcached-sample: the last applied replaces the others; give them different metadata.name to keep',
        'each',
      ].join(' '),
    ]);
  });

  it('finds none among different names, namespaces or kinds, nor in a file the kustomization leaves out', () => {
    expect(
      samples({
        'a.yaml': memcached('v1alpha1', 'memcached-sample'),
        'b.yaml': memcached('v2', 'memcached-sample-v2'),
        'c.yaml': memcached('v2', 'memcached-sample', 'other'),
        'd.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: memcached-sample\n',
        'e.yaml': memcached('v2', 'memcached-sample'),
        'kustomization.yaml': 'resources:\n- a.yaml\n- b.yaml\n- c.yaml\n- d.yaml\n',
      }),
    ).toEqual([]);
  });

  it('reads every YAML file of the folder when there is no kustomization, documents of one file too', () => {
    expect(samples({ 'all.yaml': `${memcached('v1alpha1', 'x', 'ns')}---\n${memcached('v2', 'x', 'ns')}` })).toEqual([
      [
        'samples config/samples/all.yaml (cache.example.com/v1alpha1), config/samples/all.yaml',
        '(cache.example.com/v2) are one object, Memcached ns/x: the last applied replaces the others; give',
        'them different metadata.name to keep each',
      ].join(' '),
    ]);
  });
});
