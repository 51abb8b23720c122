import { describe, expect, it } from 'vitest';
import { integer, oid, sequence, time, tlv } from './der.js';

describe('DER encoding', () => {
  it('encodes object identifiers in base 128', () => {
    expect(oid('1.2.840.10045.4.3.2').toString('hex')).toBe('06082a8648ce3d040302');
    expect(oid('2.5.29.17').toString('hex')).toBe('0603551d11');
  });

  it('pads integers whose high bit is set and trims leading zeros', () => {
    expect(integer(Buffer.from([0x80])).toString('hex')).toBe('02020080');
    expect(integer(Buffer.from([0, 0, 0x05])).toString('hex')).toBe('020105');
  });

  it('uses the long length form past 127 bytes', () => {
    const long = tlv(0x04, Buffer.alloc(300));
    expect(long.subarray(0, 4).toString('hex')).toBe('0482012c');
    expect(sequence(Buffer.alloc(2)).toString('hex')).toBe('30020000');
  });

  it('writes UTCTime before 2050 and GeneralizedTime after', () => {
    expect(time(new Date('2026-11-21T10:20:30Z')).toString('latin1')).toBe('\x17\x0d261121102030Z');
    expect(time(new Date('2051-01-02T03:04:05Z')).toString('latin1')).toBe('\x18\x0f20510102030405Z');
  });
});
