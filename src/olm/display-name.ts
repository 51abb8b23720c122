/**
 * A name as a person reads it: words split at '.', '-', '_', spaces and lower-to-upper case
 * changes, each word's first letter in upper case (`memcached-operator` → `Memcached Operator`,
 * `containerPort` → `Container Port`). The rule operator-sdk uses for default display names.
 */
export function displayName(name: string): string {
  const words = name.split(/[.\-_ ]+/).filter((w) => w !== '');
  const split = words.map((word) => {
    let out = '';
    for (let i = 0; i < word.length; i++) {
      const c = word[i]!;
      const prev = word[i - 1];
      if (i > 0 && isUpper(c) && prev !== undefined && !isUpper(prev)) out += ' ';
      out += c;
    }
    return out;
  });
  return split
    .join(' ')
    .split(' ')
    .map((w) => (w === '' ? w : w[0]!.toUpperCase() + w.slice(1)))
    .join(' ')
    .trim();
}

function isUpper(c: string): boolean {
  return c !== c.toLowerCase() && c === c.toUpperCase();
}
