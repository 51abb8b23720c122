/**
 * The few ASN.1 DER encoders needed to build X.509 certificates. Node can create keys and
 * signatures but not certificates; this keeps the runtime (metrics serving) and the test harness
 * free of openssl and native packages.
 */

function lengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n >>= 8) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), lengthBytes(content.length), content]);
}

export const sequence = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
export const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
export const octetString = (content: Buffer): Buffer => tlv(0x04, content);
export const utf8String = (text: string): Buffer => tlv(0x0c, Buffer.from(text, 'utf8'));
export const bitString = (content: Buffer): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), content]));
export const boolean = (value: boolean): Buffer => tlv(0x01, Buffer.from([value ? 0xff : 0]));
/** Context-specific constructed tag [n]. */
export const explicit = (n: number, content: Buffer): Buffer => tlv(0xa0 + n, content);
/** Context-specific primitive tag [n] (implicit), as used in GeneralName. */
export const implicit = (n: number, content: Buffer): Buffer => tlv(0x80 + n, content);

/** A non-negative INTEGER from big-endian bytes. */
export function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  const padded = (trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed;
  return tlv(0x02, padded);
}

export function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const [first = 0, second = 0, ...rest] = parts;
  const out: number[] = [first * 40 + second];
  for (const part of rest) {
    const chunk: number[] = [];
    let n = part;
    do {
      chunk.unshift(n & 0x7f);
      n = Math.floor(n / 128);
    } while (n > 0);
    for (let i = 0; i < chunk.length - 1; i++) chunk[i]! |= 0x80;
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** GeneralizedTime is valid for every date; X.509 wants UTCTime before 2050 but Go accepts both. */
export function time(date: Date): Buffer {
  const iso = date
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  if (date.getUTCFullYear() < 2050) return tlv(0x17, Buffer.from(iso.slice(2), 'ascii'));
  return tlv(0x18, Buffer.from(iso, 'ascii'));
}
