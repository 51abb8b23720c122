/**
 * The protobuf wire decoder on messages built here byte by byte, with a table of its own: varints
 * of every sign and size, each JSON form (times, durations, quantities, int-or-strings, bytes,
 * embedded JSON, maps, wrapped lists, inline structs), Go's zero values and omitempty, the
 * envelope, watch frames split anywhere, and the errors of bad input. protobuf.int.test.ts holds
 * it to the API server's JSON.
 */
import { describe, expect, it } from 'vitest';
import {
  decodeObject,
  decodeWatchEvent,
  durationString,
  FrameSplitter,
  ProtobufDecodeError,
  ProtobufTable,
} from './protobuf.js';

/** A protobuf writer for the tests: fields in, bytes out. */
class W {
  private readonly bytes: number[] = [];

  varint(v: bigint | number): this {
    let n = BigInt.asUintN(64, BigInt(v));
    do {
      const b = Number(n & 0x7fn);
      n >>= 7n;
      this.bytes.push(n > 0n ? b | 0x80 : b);
    } while (n > 0n);
    return this;
  }

  tag(num: number, wireType: number): this {
    return this.varint((num << 3) | wireType);
  }

  int(num: number, v: bigint | number): this {
    return this.tag(num, 0).varint(v);
  }

  bytesField(num: number, data: Uint8Array | number[]): this {
    this.tag(num, 2).varint(data.length);
    this.bytes.push(...data);
    return this;
  }

  str(num: number, s: string): this {
    return this.bytesField(num, Buffer.from(s, 'utf8'));
  }

  msg(num: number, inner: W): this {
    return this.bytesField(num, inner.done());
  }

  double(num: number, v: number): this {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(v);
    return this.tag(num, 1).raw(b);
  }

  raw(data: Uint8Array): this {
    this.bytes.push(...data);
    return this;
  }

  done(): Buffer {
    return Buffer.from(this.bytes);
  }
}

const w = () => new W();

/** `k8s\0` + runtime.Unknown around a message. */
function envelope(apiVersion: string, kind: string, body: W): Buffer {
  const unknown = w().msg(1, w().str(1, apiVersion).str(2, kind)).bytesField(2, body.done());
  return Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0]), unknown.done()]);
}

// Message 0 plays ObjectMeta (the decoder looks for managedFields there).
const MESSAGES = [
  [
    [1, 'name', 's', 2],
    [3, 'namespace', 's', 2],
    [8, 'creationTimestamp', 'T', 34],
    [11, 'labels', ['s', 's'], 2],
    [17, 'managedFields', 2, 3],
  ],
  [
    [1, 'metadata', 0, 2],
    [2, 'count', 'i', 0],
    [3, 'big', 'l', 2],
    [4, 'unsigned', 'u', 2],
    [5, 'ratio', 'd', 2],
    [6, 'flag', 'b', 0],
    [7, 'optional', 's', 4],
    [8, 'optionalOmitted', 's', 6],
    [9, 'blob', 'y', 2],
    [10, 'when', 'T', 0],
    [11, 'renewed', 'M', 4],
    [12, 'timeout', 'D', 0],
    [13, 'size', 'Q', 0],
    [14, 'port', 'I', 0],
    [15, 'raw', 'R', 0],
    [16, 'data', ['s', 's'], 2],
    [17, 'binary', ['s', 'y'], 2],
    [18, 'extra', ['s', ['s']], 2],
    [19, 'verbs', 's', 16],
    [20, 'numbers', 'i', 3],
    [21, 'source', 3, 8],
    [22, 'children', 4, 67, ['v1', 'Child']],
    [23, 'nested', 4, 0],
    [24, 'names', 's', 1],
    [25, 'nothing', 'y', 0],
  ],
  [[1, 'manager', 's', 2]],
  // inline: its fields are the parent's
  [
    [1, 'hostPath', 's', 2],
    [2, 'readOnly', 'b', 0],
  ],
  [[1, 'value', 's', 0]],
];
const table = new ProtobufTable(JSON.stringify({ 'v1/Thing': 1, 'v1/ThingList': 1 }), JSON.stringify(MESSAGES));
const decode = (body: W, opts = {}) =>
  decodeObject(table, envelope('v1', 'Thing', body), opts) as Record<string, unknown>;

/** What an empty Thing decodes to: Go's zero values of the fields without omitempty. */
const ZERO = {
  apiVersion: 'v1',
  kind: 'Thing',
  metadata: {},
  count: 0,
  flag: false,
  optional: null,
  when: null,
  timeout: '0s',
  size: '0',
  port: 0,
  raw: null,
  renewed: null,
  verbs: null,
  readOnly: false,
  nested: { value: '' },
  names: null,
  nothing: null,
};

describe('the protobuf decoder', () => {
  it("gives an empty message Go's zero values, leaving out what omitempty leaves out", () => {
    expect(decode(w())).toStrictEqual(ZERO);
  });

  it('reads varints of every sign and size', () => {
    const obj = decode(
      w()
        .int(2, -1)
        .int(3, -(2n ** 40n))
        .int(4, 2n ** 52n)
        .int(6, 1),
    );
    expect(obj).toMatchObject({ count: -1, big: -(2 ** 40), unsigned: 2 ** 52, flag: true });
    expect(
      decode(
        w()
          .int(2, 2 ** 31 - 1)
          .int(3, 300),
      ).count,
    ).toBe(2 ** 31 - 1);
    expect(decode(w().int(3, 2n ** 53n)).big).toBe(2 ** 53);
  });

  it('reads a double', () => {
    expect(decode(w().double(5, 0.1)).ratio).toBe(0.1);
  });

  it('leaves out a zero value under omitempty but keeps a set pointer, and a nil pointer is null without it', () => {
    const obj = decode(w().int(3, 0).str(7, '').str(8, ''));
    expect(obj).not.toHaveProperty('big');
    expect(obj).toMatchObject({ optional: '', optionalOmitted: '' });
    expect(decode(w())).not.toHaveProperty('optionalOmitted');
  });

  it('writes times in RFC 3339: seconds for Time (null when zero, left out under omitzero), microseconds for MicroTime', () => {
    const obj = decode(
      w()
        .msg(1, w().msg(8, w().int(1, 1767323045)))
        .msg(10, w())
        .msg(11, w().int(1, 1767323045).int(2, 987654321)),
    );
    expect(obj['metadata']).toStrictEqual({ creationTimestamp: '2026-01-02T03:04:05Z' });
    expect(obj['when']).toBeNull();
    expect(obj['renewed']).toBe('2026-01-02T03:04:05.987654Z');
    expect(decode(w().msg(1, w().msg(8, w())))['metadata']).toStrictEqual({});
  });

  it("writes a Duration as Go's time.Duration.String()", () => {
    expect(decode(w().msg(12, w().int(1, 90_000_000_000)))['timeout']).toBe('1m30s');
    const cases: Array<[bigint, string]> = [
      [0n, '0s'],
      [1n, '1ns'],
      [1_500n, '1.5µs'],
      [1_500_000n, '1.5ms'],
      [1_000_000_000n, '1s'],
      [1_000_000_001n, '1.000000001s'],
      [3_600_000_000_000n, '1h0m0s'],
      [-2_000_000_000n, '-2s'],
      [2n ** 63n - 1n, '2562047h47m16.854775807s'],
    ];
    for (const [nanos, text] of cases) expect(durationString(nanos)).toBe(text);
  });

  it('writes a Quantity as its string, an IntOrString as a number or a string, bytes in base64, embedded JSON as itself', () => {
    const obj = decode(
      w()
        .msg(13, w().str(1, '500m'))
        .msg(14, w().int(1, 1).str(3, 'http'))
        .bytesField(9, [0, 1, 2, 255, 254])
        .msg(15, w().str(1, '{"a":[1,"two",null]}')),
    );
    expect(obj).toMatchObject({ size: '500m', port: 'http', blob: 'AAEC//4=', raw: { a: [1, 'two', null] } });
    expect(decode(w().msg(14, w().int(2, -8080)))['port']).toBe(-8080);
    expect(decode(w().bytesField(9, []))).not.toHaveProperty('blob');
  });

  it('reads maps, a __proto__ key as a key, an entry without a value as the zero value', () => {
    const obj = decode(
      w()
        .msg(16, w().str(1, 'a').str(2, 'one'))
        .msg(16, w().str(1, '__proto__').str(2, 'key'))
        .msg(16, w().str(1, 'empty'))
        .msg(17, w().str(1, 'b'))
        .msg(18, w().str(1, 'groups').msg(2, w().str(1, 'x').str(1, 'y'))),
    );
    const data = obj['data'] as Record<string, string>;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(['a', '__proto__', 'empty']);
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toBe('key');
    expect(data['empty']).toBe('');
    expect(obj['binary']).toStrictEqual({ b: '' });
    expect(obj['extra']).toStrictEqual({ groups: ['x', 'y'] });
  });

  it('reads repeated fields, packed or not, wrapped lists, and stamps the objects of a stamped field', () => {
    const packed = w().varint(1).varint(-2).varint(300);
    const obj = decode(
      w()
        .bytesField(20, packed.done())
        .int(20, 7)
        .msg(19, w().str(1, 'get').str(1, 'list'))
        .str(24, 'a')
        .str(24, 'b')
        .msg(22, w().str(1, 'c1'))
        .msg(22, w()),
    );
    expect(obj['numbers']).toStrictEqual([1, -2, 300, 7]);
    expect(obj['verbs']).toStrictEqual(['get', 'list']);
    expect(obj['names']).toStrictEqual(['a', 'b']);
    expect(obj['children']).toStrictEqual([
      { apiVersion: 'v1', kind: 'Child', value: 'c1' },
      { apiVersion: 'v1', kind: 'Child', value: '' },
    ]);
  });

  it("puts an inline struct's fields, and their zero values, in its parent", () => {
    expect(decode(w().msg(21, w().str(1, '/data')))).toMatchObject({ hostPath: '/data', readOnly: false });
    expect(decode(w())).not.toHaveProperty('source');
  });

  it('skips fields it does not know, and managedFields unread when asked to', () => {
    const meta = w().str(1, 'n').msg(17, w().str(1, 'kubectl'));
    const body = w()
      .msg(1, meta)
      .int(99, 5)
      .str(98, 'new')
      .tag(97, 5)
      .raw(Buffer.alloc(4))
      .tag(96, 1)
      .raw(Buffer.alloc(8));
    expect(decode(body)['metadata']).toStrictEqual({ name: 'n', managedFields: [{ manager: 'kubectl' }] });
    expect(decode(body, { skipManagedFields: true })['metadata']).toStrictEqual({ name: 'n' });
  });

  it('shares one string among equal short ones, and reads multi-byte text', () => {
    const a = decode(w().msg(1, w().str(3, 'team-a')));
    const b = decode(w().msg(1, w().str(3, 'team-a').str(1, 'café ✓ 日本')));
    expect((a['metadata'] as { namespace: string }).namespace).toBe('team-a');
    expect(b['metadata']).toStrictEqual({ namespace: 'team-a', name: 'café ✓ 日本' });
  });

  it('gives a list of a kind [] for no items, and stamps the kind asked for', () => {
    const listTable = new ProtobufTable(
      JSON.stringify({ 'v1/ThingList': 1 }),
      JSON.stringify([[], [[2, 'items', 4, 1]], [], [], [[1, 'value', 's', 0]]]),
    );
    expect(decodeObject(listTable, envelope('v1', 'ThingList', w()))).toStrictEqual({
      apiVersion: 'v1',
      kind: 'ThingList',
      items: [],
    });
    expect(decode(w(), { stamp: { apiVersion: 'example.com/v1', kind: 'Widget' } })).toMatchObject({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
    });
  });

  it('refuses what is not a Kubernetes protobuf message of a known kind, or runs past its end', () => {
    expect(() => decodeObject(table, Buffer.from('{"kind":"Thing"}'))).toThrow(ProtobufDecodeError);
    expect(() => decodeObject(table, Buffer.from('{"kind":"Thing"}'))).toThrow(/no k8s\\0 magic/);
    expect(() => decodeObject(table, envelope('v1', 'Other', w()))).toThrow(
      'protobuf: v1/Other is not a kind the table knows',
    );
    const cut = envelope('v1', 'Thing', w().str(7, 'abcdef'));
    expect(() => decodeObject(table, cut.subarray(0, cut.length - 2))).toThrow(/runs past the end/);
  });
});

describe('watch frames', () => {
  const event = (type: string, name: string): Buffer =>
    w()
      .str(1, type)
      .msg(2, w().bytesField(1, envelope('v1', 'Thing', w().msg(1, w().str(1, name)))))
      .done();
  const framed = (frame: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(frame.length);
    return Buffer.concat([length, frame]);
  };

  it('splits a stream into frames wherever its chunks end, the length prefix included', () => {
    const frames = [event('ADDED', 'a'), event('MODIFIED', 'b'), event('DELETED', 'c')];
    const stream = Buffer.concat(frames.map(framed));
    for (const size of [1, 2, 3, 5, 7, 64, stream.length]) {
      const splitter = new FrameSplitter();
      const out: Buffer[] = [];
      for (let i = 0; i < stream.length; i += size) out.push(...splitter.push(stream.subarray(i, i + size)));
      expect(
        out.map((f) => f.toString('hex')),
        `chunks of ${size}`,
      ).toEqual(frames.map((f) => f.toString('hex')));
      expect(splitter.partial).toBe(0);
    }
  });

  it('decodes a WatchEvent, stamping objects but not bookmarks', () => {
    const stamp = { apiVersion: 'apps/v1', kind: 'Widget' };
    expect(decodeWatchEvent(table, event('ADDED', 'a'), { stamp })).toMatchObject({
      type: 'ADDED',
      object: { apiVersion: 'apps/v1', kind: 'Widget', metadata: { name: 'a' } },
    });
    expect(decodeWatchEvent(table, event('BOOKMARK', 'b'), { stamp })).toMatchObject({
      type: 'BOOKMARK',
      object: { apiVersion: 'v1', kind: 'Thing' },
    });
    expect(() => decodeWatchEvent(table, w().str(1, 'ADDED').done())).toThrow('a ADDED event without an object');
  });
});
