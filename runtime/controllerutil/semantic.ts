/**
 * Semantic equality, as Go's `equality.Semantic.DeepEqual` that controller-runtime's
 * createOrUpdate uses: like JSON equality, except that resource quantities compare by value.
 * The API server stores a quantity canonically ('1000m' comes back as '1', '1024Mi' as '1Gi'),
 * so a plain comparison would see a change and write on every reconcile. JSON carries no
 * types, so quantities are recognised by where they stand: the values of a resource list
 * (`limits`, `requests`, `capacity`, `allocatable`, `hard`, `used`, `overhead`) and `sizeLimit`.
 */

/** Keys whose object values are ResourceLists (resource name → quantity). */
const RESOURCE_LISTS = new Set(['limits', 'requests', 'capacity', 'allocatable', 'hard', 'used', 'overhead']);
/** Keys whose own value is a quantity. */
const QUANTITY_FIELDS = new Set(['sizeLimit']);

/** An exact quantity value: mantissa × 2^twos × 10^tens. */
interface Exact {
  mantissa: bigint;
  twos: number;
  tens: number;
}

const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const QUANTITY = /^([+-]?)(\d*)(?:\.(\d*))?(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E))?$/;

/** Parses a Kubernetes quantity ('100m', '1.5Gi', '2e3') exactly; undefined when it is not one. */
export function parseQuantity(text: string): Exact | undefined {
  const m = QUANTITY.exec(text.trim());
  if (!m) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent, suffix = ''] = m;
  if (whole === '' && fraction === '') return undefined;
  let mantissa = BigInt(`${whole}${fraction}` || '0');
  if (sign === '-') mantissa = -mantissa;
  let tens = -fraction.length;
  let twos = 0;
  if (exponent) tens += Number(exponent.slice(1));
  else if (suffix in BINARY) twos = BINARY[suffix]!;
  else tens += DECIMAL[suffix]!;
  return { mantissa, twos, tens };
}

/** True when both texts are quantities of the same value ('1000m' and '1', '1Gi' and '1024Mi'). */
export function quantitiesEqual(a: string, b: string): boolean {
  const x = parseQuantity(a);
  const y = parseQuantity(b);
  if (!x || !y) return false;
  // Scale both to integers over the smaller power of ten, then compare exactly.
  const low = Math.min(x.tens, y.tens);
  const scaled = (q: Exact): bigint => q.mantissa * 2n ** BigInt(q.twos) * 10n ** BigInt(q.tens - low);
  return scaled(x) === scaled(y);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function quantityEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const text = (v: unknown): string | undefined =>
    typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
  const x = text(a);
  const y = text(b);
  return x !== undefined && y !== undefined && quantitiesEqual(x, y);
}

/** JSON equality (undefined members ignored) with quantities compared by value. */
export function semanticEqual(a: unknown, b: unknown, key?: string, inResourceList = false): boolean {
  if (inResourceList || (key !== undefined && QUANTITY_FIELDS.has(key))) {
    if (!isPlainObject(a) && !isPlainObject(b)) return quantityEqual(a, b);
  }
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    const list = key !== undefined && RESOURCE_LISTS.has(key);
    return ka.length === kb.length && ka.every((k) => semanticEqual(a[k], b[k], k, list));
  }
  return false;
}
