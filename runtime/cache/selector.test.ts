import { describe, expect, it } from 'vitest';
import { InvalidSelectorError, matchesLabels, parseLabelSelector } from './selector.js';

const match = (sel: string, labels: Record<string, string>): boolean => matchesLabels(parseLabelSelector(sel), labels);

describe('label selectors', () => {
  it('matches equality and inequality', () => {
    expect(match('app=web', { app: 'web' })).toBe(true);
    expect(match('app==web', { app: 'db' })).toBe(false);
    expect(match('app!=web', { app: 'db' })).toBe(true);
    expect(match('app!=web', {})).toBe(true); // like the API server: absent satisfies !=
    expect(match('app!=web', { app: 'web' })).toBe(false);
  });

  it('matches set-based terms and existence', () => {
    expect(match('env in (a, b)', { env: 'b' })).toBe(true);
    expect(match('env in (a,b)', { env: 'c' })).toBe(false);
    expect(match('env notin (a,b)', { env: 'c' })).toBe(true);
    expect(match('env notin (a,b)', {})).toBe(true);
    expect(match('tier', { tier: '' })).toBe(true);
    expect(match('!tier', { tier: 'x' })).toBe(false);
  });

  it('ANDs the terms, ignoring commas inside sets', () => {
    expect(match('app=web,env in (a,b),!legacy', { app: 'web', env: 'a' })).toBe(true);
    expect(match('app=web,env in (a,b),!legacy', { app: 'web', env: 'a', legacy: 'y' })).toBe(false);
    expect(match('', { anything: 'x' })).toBe(true);
  });

  it('rejects malformed selectors', () => {
    expect(() => parseLabelSelector('a b')).toThrow(InvalidSelectorError);
    expect(() => parseLabelSelector('=x')).toThrow(InvalidSelectorError);
  });
});
