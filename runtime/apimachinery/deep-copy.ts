/**
 * DeepCopy for API objects. What the cache hands out must be the reader's own copy (as
 * controller-runtime's cache DeepCopies every read), and reads are hot: a reconcile reads one to
 * a few objects. Objects decoded from JSON are plain objects, arrays and primitives, which a
 * direct walk copies about six times faster than structuredClone; anything else (a Date, a Map or
 * a class instance a cache transform put in) goes to structuredClone, as before.
 */
export function deepCopy<T>(value: T): T {
  return copy(value) as T;
}

function copy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i]);
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
  for (const key of Object.keys(value)) {
    const v = copy((value as Record<string, unknown>)[key]);
    // JSON.parse makes "__proto__" an own key; a plain assignment would set the prototype instead.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out;
}
