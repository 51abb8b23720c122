/**
 * Argument shapes for markers: each says how a marker is called (for help text) and checks the
 * literal arguments the collector parsed, turning them into the value `apply` receives.
 */
import type { JSONValue } from '../jsonschema.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export interface ArgShape<T> {
  /** How the call looks, e.g. `(value: number)`. */
  readonly usage: string;
  parse(args: readonly JSONValue[]): Parsed<T>;
}

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(error: string): Parsed<T> => ({ ok: false, error });

export type Scalar = string | number | boolean;
type ScalarKind = 'number' | 'integer' | 'non-negative integer' | 'string' | 'scalar';

function isKind(v: JSONValue, kind: ScalarKind): boolean {
  switch (kind) {
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return Number.isInteger(v);
    case 'non-negative integer':
      return Number.isInteger(v) && (v as number) >= 0;
    case 'string':
      return typeof v === 'string';
    case 'scalar':
      return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  }
}

const show = (v: JSONValue | undefined): string => JSON.stringify(v) ?? 'nothing';

/** No arguments: `@Required()`. */
export const none: ArgShape<true> = {
  usage: '()',
  parse: (args) => (args.length === 0 ? ok(true) : fail(`takes no arguments, got ${args.length}`)),
};

/** An optional boolean, true when left out: `@ExclusiveMinimum()`. */
export const flag: ArgShape<boolean> = {
  usage: '(value = true)',
  parse: (args) => {
    if (args.length === 0) return ok(true);
    return args.length === 1 && typeof args[0] === 'boolean'
      ? ok(args[0])
      : fail(`takes one optional boolean, got ${show([...args])}`);
  },
};

/** Exactly one value of a scalar kind: `@Minimum(1)`. */
export function one(kind: 'number' | 'integer' | 'non-negative integer'): ArgShape<number>;
export function one(kind: 'string'): ArgShape<string>;
export function one(kind: ScalarKind): ArgShape<Scalar> {
  return {
    usage: `(value: ${kind})`,
    parse: (args) => {
      const v = args[0];
      if (args.length !== 1 || v === undefined || !isKind(v, kind))
        return fail(`takes one ${kind}, got ${show([...args])}`);
      return ok(v as Scalar);
    },
  };
}

/** Exactly one JSON value: `@Default({})`. */
export const json: ArgShape<JSONValue> = {
  usage: '(value: JSON)',
  parse: (args) =>
    args.length === 1 && args[0] !== undefined
      ? ok(args[0])
      : fail(`takes one JSON value, got ${args.length} arguments`),
};

/** One of a fixed set of strings: `@ListType('map')`. */
export function choice<T extends string>(...values: T[]): ArgShape<T> {
  return {
    usage: `(${values.map((v) => `'${v}'`).join(' | ')})`,
    parse: (args) => {
      const v = args[0];
      return args.length === 1 && typeof v === 'string' && (values as string[]).includes(v)
        ? ok(v as T)
        : fail(`takes one of ${values.map((x) => `'${x}'`).join(', ')}, got ${show([...args])}`);
    },
  };
}

/** One or more values: `@Enum('a', 'b')`. */
export function variadic(kind: 'string'): ArgShape<string[]>;
export function variadic(kind: 'scalar'): ArgShape<Scalar[]>;
export function variadic(kind: 'string' | 'scalar'): ArgShape<Scalar[]> {
  return {
    usage: `(...values: ${kind}[])`,
    parse: (args) => {
      if (args.length === 0) return fail(`takes at least one ${kind}`);
      const bad = args.find((a) => !isKind(a, kind));
      return bad === undefined ? ok(args as Scalar[]) : fail(`takes ${kind} values, got ${show(bad)}`);
    },
  };
}

/** The type of one property of an options object. */
export type FieldType = 'string' | 'boolean' | 'integer' | 'string[]' | 'string map' | readonly string[];

export interface OptionField {
  type: FieldType;
  required?: boolean;
}

function fieldOk(v: JSONValue, type: FieldType): boolean {
  if (Array.isArray(type)) return typeof v === 'string' && type.includes(v);
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'integer':
      return Number.isInteger(v);
    case 'string[]':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
    case 'string map':
      return (
        typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string')
      );
  }
  return false;
}

const typeName = (t: FieldType): string => (Array.isArray(t) ? t.map((x) => `'${x}'`).join(' | ') : (t as string));

/**
 * One options object with known properties: `@Resource({ scope: 'Cluster' })`. `T` is the TypeScript
 * view of the same fields; the runtime check below is what makes the cast honest.
 */
export function options<T>(fields: Record<string, OptionField>, optional = false): ArgShape<T> {
  const usage = Object.entries(fields)
    .map(([k, f]) => `${k}${f.required ? '' : '?'}: ${typeName(f.type)}`)
    .join('; ');
  return {
    usage: optional ? `({ ${usage} } = {})` : `({ ${usage} })`,
    parse: (args) => {
      if (args.length === 0 && optional) return ok({} as T);
      const v = args[0];
      if (args.length !== 1 || typeof v !== 'object' || v === null || Array.isArray(v))
        return fail(`takes one options object { ${usage} }`);
      for (const key of Object.keys(v)) {
        if (!(key in fields)) return fail(`unknown option '${key}'; known: ${Object.keys(fields).join(', ')}`);
      }
      for (const [key, f] of Object.entries(fields)) {
        const x = v[key];
        if (x === undefined) {
          if (f.required) return fail(`option '${key}' is required`);
        } else if (!fieldOk(x, f.type)) return fail(`option '${key}' must be ${typeName(f.type)}, got ${show(x)}`);
      }
      return ok(v as T);
    },
  };
}
