import { describe, expect, it } from 'vitest';
import { InvalidTimeError, parseTime } from './index.js';

describe('parseTime', () => {
  it('reads the forms the API server writes', () => {
    expect(parseTime('2024-03-07T09:30:00Z').toISOString()).toBe('2024-03-07T09:30:00.000Z');
    expect(parseTime('2024-03-07T09:30:00.123456Z').toISOString()).toBe('2024-03-07T09:30:00.123Z');
    expect(parseTime('2024-03-07T11:30:00+02:00').toISOString()).toBe('2024-03-07T09:30:00.000Z');
    expect(parseTime('2024-03-07T05:00:00-04:30').toISOString()).toBe('2024-03-07T09:30:00.000Z');
    expect(parseTime('2024-02-29T00:00:00Z').toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseTime('0099-01-01T00:00:00Z').getUTCFullYear()).toBe(99);
  });

  it.each([
    '2024-02-30T00:00:00Z', // Date.parse rolls it over to March 1st
    '2023-02-29T00:00:00Z',
    '2024-04-31T00:00:00Z',
    '2024-03-07T09:30:00', // no zone: Date.parse reads local time
    '2024-03-07', // date only
    'March 7, 2024', // free-form text Date.parse accepts
    '2024-03-07 09:30:00Z', // space instead of T
    '2024-13-01T00:00:00Z',
    '2024-03-07T24:00:00Z',
    '2024-03-07T09:60:00Z',
    '2024-03-07T09:30:60Z',
    '2024-03-07T09:30:00+24:00',
    '2024-03-07T09:30:00.Z',
    ' 2024-03-07T09:30:00Z',
  ])('refuses %j', (text) => {
    expect(() => parseTime(text)).toThrow(InvalidTimeError);
  });

  it('says which value broke which rule, on one line', () => {
    expect(() => parseTime('2024-02-30T00:00:00Z')).toThrow(
      'invalid time "2024-02-30T00:00:00Z": day out of range (RFC 3339, e.g. 2024-03-07T09:30:00Z)',
    );
    expect(() => parseTime('a\nb')).toThrow(/^invalid time "a\\nb": expected/);
  });

  it('refuses what Date.parse takes', () => {
    for (const text of ['2024-02-30T00:00:00Z', '2024-03-07T09:30:00', 'March 7, 2024']) {
      expect(Number.isNaN(Date.parse(text))).toBe(false);
      expect(() => parseTime(text)).toThrow(InvalidTimeError);
    }
  });
});
