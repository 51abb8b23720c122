/**
 * The key type of `Record<K, V>`: a JSON object's keys are strings, so K must be `string` or an
 * alias of it (a branded one too) — Go's `map[URL]string` with `type URL string`, which
 * controller-gen writes as `additionalProperties` without looking at the key type further.
 */
import type { TypeRef } from '../model.js';

/** Undefined when K is a string; else why it cannot be a map key. */
export function mapKeyProblem(key: TypeRef, keyText: string): string | undefined {
  if (key.kind === 'primitive' && key.name === 'string') return undefined;
  if (key.kind === 'unsupported') return key.reason;
  if (key.kind === 'enum')
    return (
      `keys '${keyText}' are a fixed set of names: Record<${keyText}, T> is an object with each ` +
      `of them as a property, which a map schema cannot say; declare a class with those fields ` +
      `(optional ones for Partial<Record<…>>), or use Record<string, T>`
    );
  return 'map keys must be string (Record<string, T>)';
}
