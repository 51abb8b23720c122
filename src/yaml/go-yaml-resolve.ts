/**
 * Which strings go-yaml v2 must quote because, written plain, a YAML 1.1 reader would take them
 * for another type: null, a boolean (`yes`, `On`), an integer (`0x1F`, `017`, `1_000`), a float
 * (`.5`, `1e3`), a timestamp (`2024-01-01`) or a sexagesimal number (`12:30`). Those are
 * double-quoted (`"True"`); every other string is plain unless its characters need quotes.
 */

const WORDS = new Set([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'],
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'],
  ...['', '~', 'null', 'Null', 'NULL'],
  ...['.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF'],
]);

/** go-yaml's float shape; the text must also parse as a finite float. */
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** Whether `s` written plain would be read back as something other than this string. */
export function readsAsOtherType(s: string): boolean {
  if (WORDS.has(s)) return true;
  const c = s[0] as string;
  if (c === '.') return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s) && Number.isFinite(Number(s));
  if (!(c === '+' || c === '-' || (c >= '0' && c <= '9'))) return false; // a word of the table, or plain text
  if (isTimestamp(s)) return true;
  const plain = s.replaceAll('_', '');
  if (parsesAsInteger(plain)) return true;
  if (YAML_FLOAT.test(plain) && Number.isFinite(Number(plain))) return true;
  if (plain.startsWith('0b') && /^[-+]?[01]+$/.test(plain.slice(2)))
    return inRange(BigInt(`0b${plain.slice(2).replace(/^[-+]/, '')}`), plain[2] === '-');
  if (plain.startsWith('-0b') && /^[01]+$/.test(plain.slice(3))) return inRange(BigInt(`0b${plain.slice(3)}`), true);
  return isBase60Float(s);
}

/** go-yaml quotes sexagesimal-looking text (`1:30`) for other readers' sake, though it reads it as a string. */
export function isBase60Float(s: string): boolean {
  const c = s[0];
  return (
    (c === '+' || c === '-' || (c !== undefined && c >= '0' && c <= '9')) && s.includes(':') && BASE60_FLOAT.test(s)
  );
}

const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

function inRange(magnitude: bigint, negative: boolean): boolean {
  return negative ? magnitude <= INT64_MAX + 1n : magnitude <= UINT64_MAX;
}

/** Go's strconv.ParseInt(s, 0, 64), or ParseUint(s, 0, 64) for unsigned text: sign, 0x/0o/0b or leading-0 octal. */
function parsesAsInteger(s: string): boolean {
  const m = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return false;
  const body = m[2] as string;
  const digits = /^0[0-7]+$/.test(body)
    ? `0o${body.slice(1)}`
    : body.replace(/^0([XOB])/, (_x, p: string) => `0${p.toLowerCase()}`);
  const magnitude = BigInt(digits);
  if (m[1] === '-') return magnitude <= INT64_MAX + 1n;
  if (magnitude <= INT64_MAX) return true;
  return m[1] === '' && magnitude <= UINT64_MAX; // ParseUint takes no sign
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const TIMESTAMP =
  /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:([Tt ])([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:[.,][0-9]+)?(Z|[-+][0-9]{2}:[0-9]{2})?)?$/;

/** The four layouts go-yaml tries: `2006-1-2`, with `T`/`t` and a zone, or with a space and none. */
function isTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (day > (month === 2 && leap ? 29 : (DAYS[month - 1] as number))) return false;
  const sep = m[4];
  if (sep === undefined) return true;
  if (Number(m[5]) > 23 || Number(m[6]) > 59 || Number(m[7]) > 59) return false;
  const zone = m[8];
  if (sep === ' ') return zone === undefined; // `2006-1-2 15:4:5` has no zone
  if (zone === undefined) return false;
  return zone === 'Z' || (Number(zone.slice(1, 3)) <= 24 && Number(zone.slice(4, 6)) <= 60);
}
