/**
 * Deterministic YAML for generated manifests, written directly (a general YAML library spends
 * most of `tsop manifests`' time on a 500 KB CRD): keys sorted at every level (arrays keep their
 * order), sequences not indented under their key, no line folding, multi-line strings as `|-`
 * blocks, and go-yaml's quoting — a string YAML 1.1 would read as a number, boolean, null or
 * timestamp is double-quoted (`"True"`), one that cannot be plain is single-quoted (`'*'`). The
 * output reads like controller-gen's and is byte-identical across runs.
 */

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(byCodeUnit)) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** One YAML document, introduced by `---` as controller-gen writes it. */
export function toYamlDocument(value: unknown): string {
  const lines: string[] = ['---'];
  if (isBlock(value)) node(value, 0, lines);
  else lines.push(scalar(value, 0));
  return `${lines.join('\n')}\n`;
}

type Block = Record<string, unknown> | unknown[];

/** Non-empty maps and lists are written as blocks; everything else fits on its key's line. */
function isBlock(v: unknown): v is Block {
  if (Array.isArray(v)) return v.length > 0;
  return v !== null && typeof v === 'object' && Object.keys(v).some((k) => (v as Record<string, unknown>)[k] !== undefined);
}

const pad = (n: number): string => ' '.repeat(n);

/** Writes a block at `indent`; the first line may be prefixed by the caller (`- `). */
function node(v: Block, indent: number, out: string[], firstPrefix?: string): void {
  let prefix = firstPrefix;
  const take = (): string => {
    const p = prefix ?? pad(indent);
    prefix = undefined;
    return p;
  };
  if (Array.isArray(v)) {
    for (const item of v) {
      if (isBlock(item)) node(item, indent + 2, out, `${take()}- `);
      else out.push(`${take()}- ${scalar(item, indent + 2)}`);
    }
    return;
  }
  for (const key of Object.keys(v).sort(byCodeUnit)) {
    const item = v[key];
    if (item === undefined) continue;
    const k = `${take()}${plainOrQuoted(key)}:`;
    if (Array.isArray(item) && item.length > 0) {
      out.push(k);
      node(item, indent, out);
    } else if (isBlock(item)) {
      out.push(k);
      node(item, indent + 2, out);
    } else out.push(`${k} ${scalar(item, indent + 2)}`);
  }
}

function scalar(v: unknown, indent: number): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v > 0 ? '.inf' : v < 0 ? '-.inf' : '.nan';
  if (Array.isArray(v)) return '[]';
  if (typeof v === 'object') return '{}';
  const s = String(v);
  if (s.includes('\n') && blockSafe(s)) {
    const chomp = s.endsWith('\n') ? (s.endsWith('\n\n') ? '+' : '') : '-';
    const body = chomp === '-' ? s : s.replace(/\n+$/, (m) => (chomp === '+' ? m.slice(1) : ''));
    return `|${chomp}\n${body.split('\n').map((l) => (l === '' ? '' : pad(indent) + l)).join('\n')}`;
  }
  return plainOrQuoted(s);
}

/** A literal block cannot start with a space (it would need an indentation indicator) or hold \r. */
function blockSafe(s: string): boolean {
  return !/^[ \t]/.test(s) && !/[\r\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s) && s.trim() !== '';
}

function plainOrQuoted(s: string): string {
  if (/[\n\r\t\u0000-\u001f\u007f]/.test(s)) return JSON.stringify(s);
  if (readsAsOtherType(s)) return JSON.stringify(s);
  if (plainSafe(s)) return s;
  return `'${s.replaceAll("'", "''")}'`;
}

/** Text that can stand unquoted and still be read back as this same string. */
function plainSafe(s: string): boolean {
  if (s === '' || s !== s.trim()) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`=]/.test(s) && !/^-[^\s]/.test(s)) return false;
  if (/^-[^\s]/.test(s) && /^-[-?:,[\]{}#&*!|>'"%@`]/.test(s)) return false;
  return !/: |:$| #|[,[\]{}]\s*$/.test(s) && !/^<</.test(s);
}

const YAML11_NON_STRING = new RegExp(
  [
    '~|null|Null|NULL',
    'y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF',
    '[-+]?0b[01_]+|[-+]?0x[0-9a-fA-F_]+|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])*',
    '[-+]?([0-9][0-9_]*)?\\.[0-9._]*([eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+',
    '[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)',
    '[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ].*)?',
  ]
    .map((alt) => `(?:${alt})`)
    .join('|')
    .replace(/^/, '^(?:')
    .concat(')$'),
);

function readsAsOtherType(s: string): boolean {
  return s.length < 64 && YAML11_NON_STRING.test(s);
}
