import { describe, expect, it } from 'vitest';
import { TSOP_VERSION, tsopDependencySpec } from '../../src/version.js';

describe('how a generated project depends on tsop', () => {
  it('names a registry-installed tsop by version', () => {
    expect(tsopDependencySpec({}, '/home/u/proj/node_modules/tsop')).toBe(`^${TSOP_VERSION}`);
  });

  it('names a tsop run from a checkout by its path', () => {
    expect(tsopDependencySpec({}, '/home/u/src/tsop')).toBe('file:/home/u/src/tsop');
  });

  it('lets TSOP_DEPENDENCY decide', () => {
    expect(tsopDependencySpec({ TSOP_DEPENDENCY: 'github:acme/tsop' }, '/home/u/src/tsop')).toBe('github:acme/tsop');
  });
});
