import { describe, expect, it } from 'vitest';
import { parseQuantity, quantitiesEqual, semanticEqual } from './semantic.js';

describe('quantities', () => {
  it('compares by value across suffixes and notations', () => {
    expect(quantitiesEqual('1000m', '1')).toBe(true);
    expect(quantitiesEqual('1Gi', '1024Mi')).toBe(true);
    expect(quantitiesEqual('1.5Gi', '1536Mi')).toBe(true);
    expect(quantitiesEqual('2e3', '2k')).toBe(true);
    expect(quantitiesEqual('0.5', '500m')).toBe(true);
    expect(quantitiesEqual('1k', '1Ki')).toBe(false);
    expect(quantitiesEqual('100m', '0.01')).toBe(false);
    expect(quantitiesEqual('-1', '-1000m')).toBe(true);
    expect(parseQuantity('1.2.3')).toBeUndefined();
    expect(parseQuantity('abc')).toBeUndefined();
    expect(parseQuantity('')).toBeUndefined();
  });
});

describe('semanticEqual', () => {
  const container = (cpu: string, memory: string, env = '1000m') => ({
    spec: {
      containers: [
        { name: 'c', env: [{ name: 'X', value: env }], resources: { limits: { cpu, memory }, requests: { cpu } } },
      ],
    },
  });

  it('treats equal quantities in resource lists as equal, like Go equality.Semantic', () => {
    expect(semanticEqual(container('1000m', '1024Mi'), container('1', '1Gi'))).toBe(true);
    expect(semanticEqual(container('1000m', '1024Mi'), container('2', '1Gi'))).toBe(false);
    expect(semanticEqual({ emptyDir: { sizeLimit: '1Gi' } }, { emptyDir: { sizeLimit: '1024Mi' } })).toBe(true);
  });

  it('compares every other string exactly, even one that reads like a quantity', () => {
    expect(semanticEqual(container('1', '1Gi', '1000m'), container('1', '1Gi', '1'))).toBe(false);
    expect(semanticEqual({ data: { limits: 'x' } }, { data: { limits: 'x' } })).toBe(true);
    expect(semanticEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(semanticEqual([1, 2], [2, 1])).toBe(false);
  });
});
