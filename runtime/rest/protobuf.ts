/**
 * The API server's protobuf encoding of built-in kinds, read into the objects its JSON would give.
 * client-go asks for protobuf for every built-in kind: the server encodes it at less than half
 * the CPU of JSON, and the answer is smaller. Custom resources are served as JSON only.
 *
 * The wire format: a body (or a watch frame) is the magic `k8s\0` then a runtime.Unknown
 * {typeMeta {apiVersion 1, kind 2} 1, raw 2, contentEncoding 3, contentType 4} whose raw bytes are
 * the object's message. A watch stream is a sequence of frames, each a 4-byte big-endian length
 * and a metav1.WatchEvent {type 1, object 2 (a RawExtension {raw 1} that holds the object, envelope
 * and all)}, with no envelope of its own.
 *
 * What each message's fields are comes from protobuf-table.ts, generated from the Go types
 * (scripts/protobuf-table), loaded on first use. Each field is read into the JSON form Go's
 * encoding/json gives its Go type: the JSON name; a field absent from the wire gets Go's zero
 * value unless `omitempty` leaves it out (structs are never left out, nil slices, maps and
 * pointers are `null`); metav1.Time is RFC 3339 in seconds (null when zero, left out with
 * omitzero), MicroTime in microseconds, Duration Go's duration string, Quantity its string,
 * IntOrString a number or a string, []byte base64, RawExtension and FieldsV1 the JSON they hold.
 */
import type { KubeObject } from '../apimachinery/model.js';

/** The bytes are not a message of the kind they claim, or not protobuf at all. */
export class ProtobufDecodeError extends Error {
  override readonly name = 'ProtobufDecodeError';
}

/** The Content-Type of the API server's protobuf answers (`;stream=watch` on watches). */
export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';

/**
 * Accept headers asking for protobuf, with JSON after it: a server (or an aggregated API) that
 * cannot encode the kind in protobuf answers JSON rather than 406. The caller reads the answer's
 * Content-Type to know which it got (`isProtobuf`).
 */
export const PROTOBUF_ACCEPT = {
  /** an object or a list */
  object: `${PROTOBUF_CONTENT_TYPE},application/json`,
  watch: `${PROTOBUF_CONTENT_TYPE};stream=watch,application/json`,
  metadataObject: `${PROTOBUF_CONTENT_TYPE};as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json`,
  metadataList: `${PROTOBUF_CONTENT_TYPE};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json`,
} as const;

/** Whether a Content-Type header says protobuf. */
export function isProtobuf(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return value?.trimStart().startsWith(PROTOBUF_CONTENT_TYPE) ?? false;
}

// Field flags of the table (scripts/protobuf-table/main.go).
const REPEATED = 1;
const OMIT_EMPTY = 2;
const POINTER = 4;
const INLINE = 8;
const WRAPPED = 16;
const OMIT_ZERO = 32;
const STAMP = 64;

/** Scalars whose zero value omitempty leaves out ('' , false, 0; an empty []byte). */
const PLAIN_SCALARS = new Set(['s', 'b', 'i', 'l', 'u', 'd', 'f', 'y']);

type TableType = string | number | TableType[];
type TableField = [number, string, TableType, number, [string, string]?];

/** How one value is read: a scalar code, a message, a map or a wrapped list. */
type ValueType =
  | { kind: 'scalar'; code: string }
  | { kind: 'message'; message: Message }
  | { kind: 'map'; key: ValueType; value: ValueType }
  | { kind: 'list'; item: ValueType };

interface Field {
  name: string;
  type: ValueType;
  repeated: boolean;
  omitEmpty: boolean;
  pointer: boolean;
  inline: boolean;
  omitZero: boolean;
  /** omitempty on a plain scalar (or []byte): its zero value is left out */
  omitsZero: boolean;
  /** ObjectMeta.managedFields: skipped unread when the caller drops it anyway */
  managedFields: boolean;
  /** the apiVersion and kind the server's JSON gives objects of this field, which protobuf does not carry */
  stamp: [string, string] | undefined;
}

interface Message {
  /** makes the message's (empty) objects; see plainObjects */
  make: new () => Record<string, unknown>;
  /** by field number */
  fields: (Field | undefined)[];
  /** fields that have a JSON value when absent from the wire (Go's zero value) */
  defaults: Field[];
}

/**
 * A constructor of plain objects (their prototype is Object.prototype, as JSON.parse's are), one
 * per message: V8 sizes the objects a constructor makes to the properties its first ones got
 * (slack tracking), so they hold them in place as JSON.parse's objects do, where an object
 * literal keeps four and moves the rest to a separate array (~40 bytes more per ObjectMeta).
 */
function plainObjects(): new () => Record<string, unknown> {
  const make = function (this: Record<string, unknown>) {} as unknown as new () => Record<string, unknown>;
  make.prototype = Object.prototype;
  return make;
}

/** The generated table, read into messages: what a protobuf decode needs. */
export class ProtobufTable {
  private readonly kinds: Map<string, Message>;

  constructor(kindsJSON: string, messagesJSON: string) {
    const raw = JSON.parse(messagesJSON) as TableField[][];
    const messages: Message[] = raw.map(() => ({ make: plainObjects(), fields: [], defaults: [] }));
    const typeOf = (t: TableType): ValueType => {
      if (typeof t === 'number') return { kind: 'message', message: messages[t]! };
      if (typeof t === 'string') return { kind: 'scalar', code: t };
      if (t.length === 1) return { kind: 'list', item: typeOf(t[0]!) };
      return { kind: 'map', key: typeOf(t[0]!), value: typeOf(t[1]!) };
    };
    raw.forEach((fields, i) => {
      const message = messages[i]!;
      for (const [num, name, type, flags, stamp] of fields) {
        const wrapped = (flags & WRAPPED) !== 0;
        const plain = typeof type === 'string' && PLAIN_SCALARS.has(type);
        const field: Field = {
          omitsZero: plain && (flags & (OMIT_EMPTY | POINTER)) === OMIT_EMPTY,
          name,
          type: wrapped ? { kind: 'list', item: typeOf(type) } : typeOf(type),
          repeated: (flags & REPEATED) !== 0,
          omitEmpty: (flags & OMIT_EMPTY) !== 0,
          pointer: (flags & POINTER) !== 0,
          inline: (flags & INLINE) !== 0,
          omitZero: (flags & OMIT_ZERO) !== 0,
          // The generator writes ObjectMeta first.
          managedFields: i === 0 && name === 'managedFields',
          stamp: flags & STAMP ? stamp : undefined,
        };
        message.fields[num] = field;
        if (absentValue(field) !== undefined || (field.inline && !field.pointer)) message.defaults.push(field);
      }
    });
    const kinds = JSON.parse(kindsJSON) as Record<string, number>;
    this.kinds = new Map(Object.entries(kinds).map(([k, i]) => [k, messages[i]!]));
  }

  /** Whether the table has `kind` of `apiVersion` (a built-in kind at its preferred version). */
  knows(apiVersion: string, kind: string): boolean {
    return this.kinds.has(`${apiVersion}/${kind}`);
  }

  message(apiVersion: string, kind: string): Message | undefined {
    return this.kinds.get(`${apiVersion}/${kind}`);
  }
}

let table: Promise<ProtobufTable> | undefined;

/** The table of built-in kinds, read on first use (its module is ~50 KB). */
export function protobufTable(): Promise<ProtobufTable> {
  table ??= import('./protobuf-table.js').then((m) => new ProtobufTable(m.KINDS, m.MESSAGES));
  return table;
}

export interface DecodeOptions {
  /** leave metadata.managedFields out without reading it (the cache's default transform drops it) */
  skipManagedFields?: boolean;
  /** the apiVersion and kind to stamp on the object instead of the envelope's (a metadata-only watch) */
  stamp?: { apiVersion: string; kind: string };
}

const MAGIC = [0x6b, 0x38, 0x73, 0x00];
const TWO_32 = 4294967296;

/** A position in a buffer and the reads of protobuf's wire types. */
class Reader {
  pos: number;
  constructor(
    readonly buf: Buffer,
    start = 0,
  ) {
    this.pos = start;
  }

  fail(what: string): never {
    throw new ProtobufDecodeError(`protobuf: ${what} at byte ${this.pos} of ${this.buf.length}`);
  }

  /** An unsigned varint of up to 32 bits (tags, lengths). */
  uint32(): number {
    const buf = this.buf;
    let b = buf[this.pos++]!;
    if (b < 0x80) return b;
    let v = b & 0x7f;
    b = buf[this.pos++]!;
    v |= (b & 0x7f) << 7;
    if (b < 0x80) return v;
    b = buf[this.pos++]!;
    v |= (b & 0x7f) << 14;
    if (b < 0x80) return v;
    b = buf[this.pos++]!;
    v |= (b & 0x7f) << 21;
    if (b < 0x80) return v;
    b = buf[this.pos++]!;
    v = (v | ((b & 0x0f) << 28)) >>> 0;
    // Bits past 32 (a negative int32 is sent sign-extended to ten bytes) are dropped.
    while (b >= 0x80) {
      if (this.pos >= buf.length) this.fail('a varint runs past the end');
      b = buf[this.pos++]!;
    }
    return v;
  }

  /** A varint as a signed 64-bit number (exact up to 2^53). */
  int64(): number {
    const buf = this.buf;
    let lo = 0;
    let hi = 0;
    let b = 0;
    let shift = 0;
    for (; shift < 28; shift += 7) {
      b = buf[this.pos++]!;
      lo |= (b & 0x7f) << shift;
      if (b < 0x80) return lo;
    }
    b = buf[this.pos++]!;
    lo |= (b & 0x0f) << 28;
    hi = (b & 0x7f) >> 4;
    if (b >= 0x80) {
      for (shift = 3; shift < 32; shift += 7) {
        if (this.pos >= buf.length) this.fail('a varint runs past the end');
        b = buf[this.pos++]!;
        hi |= (b & 0x7f) << shift;
        if (b < 0x80) break;
      }
    }
    if (hi & 0x80000000) {
      // Two's complement: -(2^64 - value).
      const nlo = (~lo + 1) >>> 0;
      const nhi = (~hi >>> 0) + (nlo === 0 ? 1 : 0);
      return -(nhi * TWO_32 + nlo);
    }
    return (hi >>> 0) * TWO_32 + (lo >>> 0);
  }

  /** A varint as an unsigned 64-bit number (exact up to 2^53). */
  uint64(): number {
    const v = this.int64();
    return v < 0 ? v + 2 ** 64 : v;
  }

  /** A varint as a signed 64-bit bigint (durations in nanoseconds outgrow 2^53). */
  bigInt64(): bigint {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) this.fail('a varint runs past the end');
      const b = this.buf[this.pos++]!;
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) break;
      shift += 7n;
    }
    return BigInt.asIntN(64, v);
  }

  /** The end of a length-delimited value that starts here. */
  end(): number {
    const length = this.uint32();
    const end = this.pos + length;
    if (end > this.buf.length) this.fail(`a length of ${length} runs past the end`);
    return end;
  }

  string(): string {
    const end = this.end();
    const start = this.pos;
    this.pos = end;
    return utf8(this.buf, start, end);
  }

  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.int64();
        return;
      case 1:
        this.pos += 8;
        return;
      case 2:
        this.pos = this.end();
        return;
      case 5:
        this.pos += 4;
        return;
      default:
        this.fail(`wire type ${wireType} cannot be skipped`);
    }
  }
}

/** Short ASCII strings at most this long are interned. */
const INTERN_MAX = 24;
const INTERN_SLOTS = 4096;
/**
 * Short strings seen lately, by a hash of their bytes (a direct-mapped cache: a new string takes
 * its slot's place). Namespaces, keys and label values repeat across objects: one string for all
 * of them, as V8's JSON.parse shares the short strings it reads, saves ~100 bytes per cached
 * object and the garbage of making them again.
 */
const interned: (string | undefined)[] = new Array(INTERN_SLOTS).fill(undefined);

type Latin1 = Buffer & { latin1Slice(start: number, end: number): string };

function utf8(buf: Buffer, start: number, end: number): string {
  const length = end - start;
  if (length === 0) return '';
  if (length > INTERN_MAX) return buf.toString('utf8', start, end);
  let hash = length;
  for (let i = start; i < end; i++) {
    const c = buf[i]!;
    if (c >= 0x80) return buf.toString('utf8', start, end);
    hash = (Math.imul(hash, 31) + c) | 0;
  }
  const slot = hash & (INTERN_SLOTS - 1);
  const seen = interned[slot];
  if (seen !== undefined && seen.length === length) {
    let same = true;
    for (let i = 0; i < length; i++) {
      if (seen.charCodeAt(i) !== buf[start + i]) {
        same = false;
        break;
      }
    }
    if (same) return seen;
  }
  const made = (buf as Latin1).latin1Slice(start, end);
  interned[slot] = made;
  return made;
}

/** Defines `key` on a map object, also when it is `__proto__` (a valid ConfigMap key). */
function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

let lastSeconds = Number.NaN;
let lastTime = '';

/** metav1.Time's JSON: RFC 3339 in UTC, whole seconds. */
function timeString(seconds: number): string {
  // Objects written together share their timestamps: one string for a run of them.
  if (seconds === lastSeconds) return lastTime;
  const iso = new Date(seconds * 1000).toISOString();
  lastSeconds = seconds;
  lastTime = `${iso.slice(0, 19)}Z`;
  return lastTime;
}

/** metav1.MicroTime's JSON: RFC 3339 in UTC with six decimals. */
function microTimeString(seconds: number, nanos: number): string {
  const iso = new Date(seconds * 1000).toISOString();
  return `${iso.slice(0, 19)}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`;
}

/** Go's time.Duration.String() of a number of nanoseconds. */
export function durationString(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const negative = nanos < 0n;
  let u = negative ? -nanos : nanos;
  let out: string;
  const fraction = (value: bigint, digits: number): string => {
    const scale = 10n ** BigInt(digits);
    const whole = value / scale;
    const rest = (value % scale).toString().padStart(digits, '0').replace(/0+$/, '');
    return rest ? `${whole}.${rest}` : `${whole}`;
  };
  if (u < 1_000_000_000n) {
    if (u < 1_000n) out = `${u}ns`;
    else if (u < 1_000_000n) out = `${fraction(u, 3)}µs`;
    else out = `${fraction(u, 6)}ms`;
  } else {
    const seconds = fraction(u % 60_000_000_000n, 9);
    u /= 60_000_000_000n;
    if (u === 0n) out = `${seconds}s`;
    else if (u < 60n) out = `${u}m${seconds}s`;
    else out = `${u / 60n}h${u % 60n}m${seconds}s`;
  }
  return negative ? `-${out}` : out;
}

/** A float32 as Go's encoding/json writes it: the shortest decimal that reads back the same. */
function float32Value(f: number): number {
  if (!Number.isFinite(f) || f === 0) return f;
  for (let digits = 1; digits < 9; digits++) {
    const candidate = Number(f.toPrecision(digits));
    if (Math.fround(candidate) === f) return candidate;
  }
  return f;
}

/** The JSON value Go gives a field its wire left out; undefined: none (the field is left out). */
function absentValue(field: Field): unknown {
  if (field.inline) return undefined;
  if (field.omitZero) return undefined;
  if (field.pointer || field.repeated || field.type.kind === 'map' || field.type.kind === 'list')
    return field.omitEmpty ? undefined : null;
  if (field.type.kind === 'message') return EMPTY_MESSAGE;
  switch (field.type.code) {
    case 'y':
      return field.omitEmpty ? undefined : null;
    case 's':
      return field.omitEmpty ? undefined : '';
    case 'b':
      return field.omitEmpty ? undefined : false;
    case 'i':
    case 'l':
    case 'u':
    case 'd':
    case 'f':
      return field.omitEmpty ? undefined : 0;
    case 'T':
    case 'M':
    case 'R':
      return null;
    case 'Q':
      return '0';
    case 'I':
      return 0;
    case 'D':
      return '0s';
    default:
      return undefined;
  }
}

/** Marks a default that is a message of its own: decoded from no bytes, so it has its own defaults. */
const EMPTY_MESSAGE = Symbol('empty message');

/** Whether a scalar value is Go's zero value, which omitempty leaves out. */
function isZero(value: unknown): boolean {
  return value === '' || value === 0 || value === false;
}

class Decoder {
  constructor(
    readonly r: Reader,
    readonly skipManagedFields: boolean,
  ) {}

  /** Reads the message from here to `end` into `out`. */
  message(message: Message, end: number, out: Record<string, unknown>): Record<string, unknown> {
    const r = this.r;
    const fields = message.fields;
    while (r.pos < end) {
      const tag = r.uint32();
      const wireType = tag & 7;
      const field = fields[tag >>> 3];
      if (field === undefined || (field.managedFields && this.skipManagedFields)) {
        r.skip(wireType);
        continue;
      }
      if (field.inline) {
        const inner = r.end();
        this.message((field.type as { kind: 'message'; message: Message }).message, inner, out);
        continue;
      }
      if (field.repeated) {
        let list = out[field.name] as unknown[] | undefined;
        if (list === undefined) out[field.name] = list = [];
        if (wireType === 2 && field.type.kind === 'scalar' && isPackable(field.type.code)) {
          const packedEnd = r.end();
          while (r.pos < packedEnd) list.push(this.value(field.type, 0));
        } else list.push(this.value(field.type, wireType, field.stamp));
        continue;
      }
      if (field.type.kind === 'map') {
        let map = out[field.name] as Record<string, unknown> | undefined;
        if (map === undefined) out[field.name] = map = {};
        this.entry(field.type, map);
        continue;
      }
      const value = this.value(field.type, wireType, field.stamp);
      if (field.omitZero && value === null) continue;
      if (field.omitsZero && isZero(value)) continue;
      out[field.name] = value;
    }
    if (r.pos !== end) r.fail('a message runs past its length');
    return this.defaults(message, out);
  }

  /** A message sent with no bytes: its defaults. */
  empty(message: Message): Record<string, unknown> {
    return this.defaults(message, new message.make());
  }

  /** Fills in the defaults of `message` that `out` lacks (what the sender left out as zero). */
  defaults(message: Message, out: Record<string, unknown>): Record<string, unknown> {
    for (const field of message.defaults) {
      if (field.inline) {
        // A struct whose fields are the parent's: its defaults are the parent's too.
        this.defaults((field.type as { kind: 'message'; message: Message }).message, out);
        continue;
      }
      if (out[field.name] !== undefined) continue;
      const value = absentValue(field);
      out[field.name] =
        value === EMPTY_MESSAGE ? this.empty((field.type as { kind: 'message'; message: Message }).message) : value;
    }
    return out;
  }

  /** One map entry {key 1, value 2} into `map`. */
  entry(type: { key: ValueType; value: ValueType }, map: Record<string, unknown>): void {
    const r = this.r;
    const end = r.end();
    let key: unknown = '';
    let value: unknown;
    while (r.pos < end) {
      const tag = r.uint32();
      const num = tag >>> 3;
      if (num === 1) key = this.value(type.key, tag & 7);
      else if (num === 2) value = this.value(type.value, tag & 7);
      else r.skip(tag & 7);
    }
    setKey(map, String(key), value === undefined ? this.zero(type.value) : value);
  }

  /** Go's zero value of a map's value type, in JSON. */
  zero(type: ValueType): unknown {
    switch (type.kind) {
      case 'message':
        return this.empty(type.message);
      case 'map':
      case 'list':
        return null;
      default:
        switch (type.code) {
          case 's':
          case 'y':
            return '';
          case 'b':
            return false;
          case 'Q':
            return '0';
          case 'D':
            return '0s';
          case 'T':
          case 'M':
          case 'R':
            return null;
          default:
            return 0;
        }
    }
  }

  /** One value of `type`, sent with `wireType`. */
  value(type: ValueType, wireType: number, stamp?: [string, string]): unknown {
    const r = this.r;
    switch (type.kind) {
      case 'message': {
        const end = r.end();
        const out = new type.message.make();
        if (stamp) {
          out['apiVersion'] = stamp[0];
          out['kind'] = stamp[1];
        }
        return this.message(type.message, end, out);
      }
      case 'list': {
        // A named slice sent as a message whose field 1 holds the items.
        const end = r.end();
        const items: unknown[] = [];
        while (r.pos < end) {
          const tag = r.uint32();
          if (tag >>> 3 === 1) items.push(this.value(type.item, tag & 7));
          else r.skip(tag & 7);
        }
        return items;
      }
      case 'map':
        return r.fail('a map inside a map');
      default:
        return this.scalar(type.code, wireType);
    }
  }

  scalar(code: string, wireType: number): unknown {
    const r = this.r;
    switch (code) {
      case 's':
        return r.string();
      case 'b':
        return r.int64() !== 0;
      case 'i':
        return wireType === 0 ? r.uint32() | 0 : r.fail(`wire type ${wireType} for an int32`);
      case 'l':
        return r.int64();
      case 'u':
        return r.uint64();
      case 'd': {
        const v = r.buf.readDoubleLE(r.pos);
        r.pos += 8;
        return v;
      }
      case 'f': {
        const v = r.buf.readFloatLE(r.pos);
        r.pos += 4;
        return float32Value(v);
      }
      case 'y': {
        const end = r.end();
        const s = r.buf.toString('base64', r.pos, end);
        r.pos = end;
        return s;
      }
      case 'T':
      case 'M':
        return this.time(code === 'M');
      case 'Q': {
        const end = r.end();
        let s = '0';
        while (r.pos < end) {
          const tag = r.uint32();
          if (tag >>> 3 === 1) s = r.string();
          else r.skip(tag & 7);
        }
        return s;
      }
      case 'I':
        return this.intOrString();
      case 'D': {
        const end = r.end();
        let nanos = 0n;
        while (r.pos < end) {
          const tag = r.uint32();
          if (tag >>> 3 === 1) nanos = r.bigInt64();
          else r.skip(tag & 7);
        }
        return durationString(nanos);
      }
      case 'R': {
        const end = r.end();
        let raw: unknown = null;
        while (r.pos < end) {
          const tag = r.uint32();
          if (tag >>> 3 === 1) {
            const rawEnd = r.end();
            const text = r.buf.toString('utf8', r.pos, rawEnd);
            r.pos = rawEnd;
            if (text !== '') raw = JSON.parse(text);
          } else r.skip(tag & 7);
        }
        return raw;
      }
      default:
        return r.fail(`unknown table type ${code}`);
    }
  }

  /** Time or MicroTime: {seconds 1, nanos 2}; no bytes is the zero time (null). */
  time(micro: boolean): string | null {
    const r = this.r;
    const end = r.end();
    if (end === r.pos) return null;
    let seconds = 0;
    let nanos = 0;
    while (r.pos < end) {
      const tag = r.uint32();
      const num = tag >>> 3;
      if (num === 1) seconds = r.int64();
      else if (num === 2) nanos = r.uint32() | 0;
      else r.skip(tag & 7);
    }
    return micro ? microTimeString(seconds, nanos) : timeString(seconds);
  }

  /** intstr.IntOrString: {type 1 (0 int, 1 string), intVal 2, strVal 3}. */
  intOrString(): number | string {
    const r = this.r;
    const end = r.end();
    let type = 0;
    let intVal = 0;
    let strVal = '';
    while (r.pos < end) {
      const tag = r.uint32();
      const num = tag >>> 3;
      if (num === 1) type = r.int64();
      else if (num === 2) intVal = r.uint32() | 0;
      else if (num === 3) strVal = r.string();
      else r.skip(tag & 7);
    }
    return type === 1 ? strVal : intVal;
  }
}

function isPackable(code: string): boolean {
  return code === 'b' || code === 'i' || code === 'l' || code === 'u' || code === 'd' || code === 'f';
}

interface Envelope {
  apiVersion: string;
  kind: string;
  /** the object's message: buf[start, end) */
  start: number;
  end: number;
}

/** Reads `k8s\0` + runtime.Unknown in buf[start, end). */
function envelope(r: Reader, start: number, end: number): Envelope {
  const buf = r.buf;
  if (
    end - start < 4 ||
    buf[start] !== MAGIC[0] ||
    buf[start + 1] !== MAGIC[1] ||
    buf[start + 2] !== MAGIC[2] ||
    buf[start + 3] !== MAGIC[3]
  ) {
    r.pos = start;
    r.fail('no k8s\\0 magic: not a Kubernetes protobuf message');
  }
  r.pos = start + 4;
  const out: Envelope = { apiVersion: '', kind: '', start: 0, end: 0 };
  let encoding = '';
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag >>> 3) {
      case 1: {
        const typeEnd = r.end();
        while (r.pos < typeEnd) {
          const t = r.uint32();
          if (t >>> 3 === 1) out.apiVersion = r.string();
          else if (t >>> 3 === 2) out.kind = r.string();
          else r.skip(t & 7);
        }
        break;
      }
      case 2:
        out.end = r.end();
        out.start = r.pos;
        r.pos = out.end;
        break;
      case 3:
        encoding = r.string();
        break;
      default:
        r.skip(tag & 7);
    }
  }
  if (encoding !== '') r.fail(`content encoding ${encoding} is not read`);
  return out;
}

/** Decodes one object from buf[start, end), envelope and all, with the table's message for its kind. */
function decodeEnvelope(table: ProtobufTable, r: Reader, start: number, end: number, opts: DecodeOptions): KubeObject {
  const env = envelope(r, start, end);
  const message = table.message(env.apiVersion, env.kind);
  if (!message) throw new ProtobufDecodeError(`protobuf: ${env.apiVersion}/${env.kind} is not a kind the table knows`);
  const out = new message.make();
  out['apiVersion'] = opts.stamp ? opts.stamp.apiVersion : env.apiVersion;
  out['kind'] = opts.stamp ? opts.stamp.kind : env.kind;
  r.pos = env.start;
  new Decoder(r, opts.skipManagedFields ?? false).message(message, env.end, out);
  // The server's lists of a kind hold an empty slice, not a nil one: JSON says [], which protobuf
  // cannot (its metadata-only lists say null).
  if (out['items'] === null && env.kind.endsWith('List') && env.kind !== 'PartialObjectMetadataList') out['items'] = [];
  return out as unknown as KubeObject;
}

/** An object (or list) the API server sent as protobuf: `k8s\0` + runtime.Unknown. */
export function decodeObject(table: ProtobufTable, buf: Buffer, opts: DecodeOptions = {}): KubeObject {
  return decodeEnvelope(table, new Reader(buf), 0, buf.length, opts);
}

export interface ProtobufWatchEvent {
  type: string;
  object: KubeObject;
}

/**
 * One watch frame (without its length prefix): a metav1.WatchEvent, with no envelope of its own
 * (the API server's raw serializer), whose object is an envelope.
 */
export function decodeWatchEvent(table: ProtobufTable, frame: Buffer, opts: DecodeOptions = {}): ProtobufWatchEvent {
  const r = new Reader(frame);
  let type = '';
  let object: KubeObject | undefined;
  while (r.pos < frame.length) {
    const tag = r.uint32();
    const num = tag >>> 3;
    if (num === 1) type = r.string();
    else if (num === 2) {
      // A RawExtension {raw 1}: the object's own envelope.
      const extEnd = r.end();
      while (r.pos < extEnd) {
        const t = r.uint32();
        if (t >>> 3 === 1) {
          const rawEnd = r.end();
          // ERROR events carry a Status, bookmarks only metadata: neither is stamped.
          const own = type === 'ERROR' || type === 'BOOKMARK';
          object = decodeEnvelope(table, r, r.pos, rawEnd, own ? { skipManagedFields: opts.skipManagedFields } : opts);
          r.pos = rawEnd;
        } else r.skip(t & 7);
      }
    } else r.skip(tag & 7);
  }
  if (object === undefined) return r.fail(`a ${type || 'watch'} event without an object`);
  return { type, object };
}

/**
 * Splits a watch stream's bytes into frames (a 4-byte big-endian length, then the frame). Feed it
 * chunks as they come; each call returns the frames completed so far. A frame within one chunk is
 * a view of it, not a copy.
 */
export class FrameSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  push(chunk: Buffer): Buffer[] {
    let buf = chunk;
    if (this.pendingBytes > 0) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.pendingBytes < 4) return [];
      const need = 4 + readLength(this.pending);
      if (this.pendingBytes < need) return [];
      buf = Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
    }
    const frames: Buffer[] = [];
    let pos = 0;
    while (buf.length - pos >= 4) {
      const length = buf.readUInt32BE(pos);
      if (buf.length - pos - 4 < length) break;
      frames.push(buf.subarray(pos + 4, pos + 4 + length));
      pos += 4 + length;
    }
    if (pos < buf.length) {
      this.pending = [buf.subarray(pos)];
      this.pendingBytes = buf.length - pos;
    }
    return frames;
  }

  /** Bytes of a frame not yet complete (a stream that ends with some was cut short). */
  get partial(): number {
    return this.pendingBytes;
  }
}

/** The length prefix at the start of the pending chunks (which hold at least 4 bytes). */
function readLength(chunks: Buffer[]): number {
  const head = chunks[0]!.length >= 4 ? chunks[0]! : Buffer.concat(chunks).subarray(0, 4);
  return head.readUInt32BE(0);
}
