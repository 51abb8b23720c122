/**
 * The order go-yaml v2 (what controller-gen writes through sigs.k8s.io/yaml) gives the keys of a
 * mapping, so a CRD lists its keys where controller-gen lists them. It is not code-unit order: at
 * the first differing character, two letters compare by code point, a non-letter sorts before a
 * letter, and runs of digits compare as numbers (`v2` before `v10`).
 */

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

const isLetter = (c: string): boolean =>
  c < '\x80' ? (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') : LETTER.test(c);
const isDigit = (c: string): boolean => (c < '\x80' ? c >= '0' && c <= '9' : DIGIT.test(c));
/** go-yaml adds `rune - '0'`, which is the digit's value only for ASCII digits; kept as it does. */
const digitValue = (c: string): number => (c.codePointAt(0) ?? 48) - 48;

/** Negative when `a` comes before `b`, as go-yaml v2 sorts mapping keys. */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  const x = a.charCodeAt(i);
  const y = b.charCodeAt(i);
  // Two ASCII letters (most property names differ so): by code unit.
  if ((x | 32) >= 97 && (x | 32) <= 122 && (y | 32) >= 97 && (y | 32) <= 122) return x - y;
  // Surrogates at the difference: compare as characters (a prefix of single units is the same either way).
  if (isSurrogate(x) || isSurrogate(y)) return compareRunes(Array.from(a), Array.from(b));
  return differ(a, b, i);
}

const isSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdfff;

function compareRunes(a: string[], b: string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return differ(a, b, i);
  return a.length - b.length;
}

/** The order of two keys (as code points) that first differ at `i`. */
function differ(a: ArrayLike<string>, b: ArrayLike<string>, i: number): number {
  const x = a[i] as string;
  const y = b[i] as string;
  const xl = isLetter(x);
  const yl = isLetter(y);
  if (xl && yl) return (x.codePointAt(0) ?? 0) - (y.codePointAt(0) ?? 0);
  if (xl || yl) return xl ? 1 : -1;
  // Numbers: a run of zeros after other digits keeps the run's value non-zero (go-yaml's rule).
  let an = 0;
  let bn = 0;
  if (x === '0' || y === '0') {
    for (let j = i - 1; j >= 0 && isDigit(a[j] as string); j--) {
      if (a[j] !== '0') {
        an = 1;
        bn = 1;
        break;
      }
    }
  }
  let ai = i;
  let bi = i;
  for (; ai < a.length && isDigit(a[ai] as string); ai++) an = an * 10 + digitValue(a[ai] as string);
  for (; bi < b.length && isDigit(b[bi] as string); bi++) bn = bn * 10 + digitValue(b[bi] as string);
  if (an !== bn) return an - bn;
  if (ai !== bi) return ai - bi;
  return (x.codePointAt(0) ?? 0) - (y.codePointAt(0) ?? 0);
}
