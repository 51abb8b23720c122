/**
 * Is a `@Pattern` one the API server can compile? The server matches `pattern` with Go's regexp
 * package (RE2 syntax), not ECMAScript, so a pattern that works in a TypeScript test can still be
 * refused at `kubectl apply`. This scanner follows Go's regexp/syntax parser closely enough to
 * name the constructs people bring from other engines — lookaround, back-references, atomic groups,
 * possessive and stacked quantifiers, `\Z`, `\u1234` — plus plain syntax errors (unbalanced
 * parentheses, an unclosed class, a quantifier with nothing to repeat, counts over 1000).
 * It returns the first problem as a phrase, or undefined for a pattern RE2 accepts.
 */

/** Escapes Go accepts outside a class: `\A \b \B \z`, the Perl classes, C escapes, `\p`/`\P`, `\Q…\E`, `\x`. */
const ESCAPES = new Set('aftnrvAbBzdDsSwWpPQEx'.split(''));
/** What each foreign escape means elsewhere, so the message can say what to write instead. */
const FOREIGN_ESCAPES: Record<string, string> = {
  Z: 'use \\z (end of text) or $',
  u: 'use \\x{HHHH}',
  U: 'use \\x{HHHHHH}',
  k: 'named back-references do not exist in RE2',
  G: 'RE2 has no \\G',
  K: 'RE2 has no \\K',
  R: 'use (\\r\\n|\\n|\\r)',
  X: 'RE2 has no \\X',
  h: 'use [ \\t]',
  e: 'use \\x1b',
  c: 'use \\x{..} for a control character',
};

export function re2Problem(pattern: string): string | undefined {
  let depth = 0;
  /** What the previous token was: a quantifier may not follow nothing, '|' or '(' — nor another quantifier (beyond one lazy '?'). */
  let prev: 'none' | 'atom' | 'repeat' | 'lazy' = 'none';
  let repeatStart = 0; // where the last quantifier began
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    if (c === '\\') {
      const e = escapeAt(pattern, i, false);
      if (typeof e === 'string') return e;
      i = e;
      prev = 'atom';
      continue;
    }
    if (c === '[') {
      const end = charClass(pattern, i);
      if (typeof end === 'string') return end;
      i = end;
      prev = 'atom';
      continue;
    }
    if (c === '(') {
      const g = group(pattern, i);
      if (typeof g === 'string') return g;
      if (g.flagsOnly) prev = 'none';
      else {
        depth++;
        prev = 'none';
      }
      i = g.next;
      continue;
    }
    if (c === ')') {
      if (depth === 0) return `unbalanced ')' at offset ${i}`;
      depth--;
      i++;
      prev = 'atom';
      continue;
    }
    if (c === '|') {
      prev = 'none';
      i++;
      continue;
    }
    const rep = repetition(pattern, i);
    if (rep !== undefined) {
      if (typeof rep === 'string') return rep;
      const op = pattern.slice(i, rep);
      if (prev === 'none') return `'${op}' at offset ${i} has nothing to repeat`;
      if (prev === 'lazy' || (prev === 'repeat' && op !== '?')) {
        const both = pattern.slice(repeatStart, rep);
        return op === '+'
          ? `possessive quantifier '${both}' at offset ${repeatStart} is not RE2`
          : `stacked quantifiers '${both}' at offset ${repeatStart} are not RE2`;
      }
      if (prev !== 'repeat') repeatStart = i;
      prev = prev === 'repeat' ? 'lazy' : 'repeat';
      i = rep;
      continue;
    }
    prev = 'atom';
    i++;
  }
  if (depth > 0) return "unbalanced '(': a group is not closed";
  return undefined;
}

/** The end of `*`, `+`, `?` or a valid `{n}`, `{n,}`, `{n,m}` at `i`; a bad count is a problem; undefined if none. */
function repetition(p: string, i: number): number | string | undefined {
  const c = p[i];
  if (c === '*' || c === '+' || c === '?') return i + 1;
  if (c !== '{') return undefined;
  const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
  if (!m) return undefined; // Go reads a '{' that is not a count as a literal
  const min = Number(m[1]);
  const max = m[3] === undefined || m[3] === '' ? undefined : Number(m[3]);
  if (min > 1000 || (max !== undefined && (max > 1000 || max < min)))
    return `repeat count '${m[0]}' at offset ${i} is invalid in RE2 (at most 1000, and min <= max)`;
  return i + m[0].length;
}

/** An escape at `p[i] === '\\'`: the index after it, or the problem. */
function escapeAt(p: string, i: number, inClass: boolean): number | string {
  const c = p[i + 1];
  if (c === undefined) return 'trailing backslash';
  if (c === 'Q') {
    const end = p.indexOf('\\E', i + 2);
    return end < 0 ? p.length : end + 2;
  }
  if (c >= '1' && c <= '9') {
    // `\12` is an octal escape to Go; a single digit (or 8, 9) is a back-reference.
    if (c <= '7' && /[0-7]/.test(p[i + 2] ?? '')) return i + 3;
    return `back-reference '\\${c}' at offset ${i} is not RE2 (RE2 has no back-references)`;
  }
  if (c === '0') return i + 2;
  if (c === 'x') {
    if (p[i + 2] === '{') {
      const m = /^\{[0-9A-Fa-f]+\}/.exec(p.slice(i + 2));
      return m ? i + 2 + m[0].length : `invalid escape '\\x{' at offset ${i}`;
    }
    return /^[0-9A-Fa-f]{2}/.test(p.slice(i + 2))
      ? i + 4
      : `invalid escape '\\x' at offset ${i} (use \\xHH or \\x{H…})`;
  }
  if (c === 'p' || c === 'P') {
    if (p[i + 2] === '{') {
      const end = p.indexOf('}', i + 3);
      if (end < 0) return `unclosed '\\${c}{' at offset ${i}`;
      const name = p.slice(i + 3, end).replace(/^\^/, '');
      return /^[A-Za-z_]+$/.test(name)
        ? end + 1
        : `Unicode class '\\${c}{${name}}' at offset ${i} is not RE2 (use a name like \\p{Greek} or \\p{Lu})`;
    }
    return /[A-Za-z]/.test(p[i + 2] ?? '') ? i + 3 : `invalid escape '\\${c}' at offset ${i}`;
  }
  if (/[A-Za-z]/.test(c)) {
    if (ESCAPES.has(c) && !(inClass && 'AbBz'.includes(c))) return i + 2;
    const hint = FOREIGN_ESCAPES[c];
    return `escape '\\${c}' at offset ${i} is not RE2${hint ? ` (${hint})` : ''}`;
  }
  return i + 2; // an escaped punctuation character (or any other symbol) is itself
}

/** A bracket expression at `p[i] === '['`: the index after it, or the problem. */
function charClass(p: string, i: number): number | string {
  let j = i + 1;
  if (p[j] === '^') j++;
  if (p[j] === ']') j++; // a leading ']' is literal
  while (j < p.length && p[j] !== ']') {
    if (p[j] === '\\') {
      const e = escapeAt(p, j, true);
      if (typeof e === 'string') return e;
      j = e;
    } else if (p[j] === '[' && p[j + 1] === ':') {
      const end = p.indexOf(':]', j + 2);
      if (end < 0) return `unclosed '[:' at offset ${j}`;
      j = end + 2;
    } else j++;
  }
  return j < p.length ? j + 1 : `unclosed '[' at offset ${i}`;
}

/** A group opening at `p[i] === '('`: where its body starts, or the problem. `(?i)` alone sets flags and opens nothing. */
function group(p: string, i: number): { next: number; flagsOnly: boolean } | string {
  if (p[i + 1] !== '?') return { next: i + 1, flagsOnly: false };
  const rest = p.slice(i + 2);
  const refuse = (what: string): string =>
    `${what} '${p.slice(i, i + 3 + (rest[0] === '<' ? 1 : 0))}' at offset ${i} is not RE2`;
  if (rest.startsWith('=') || rest.startsWith('!')) return refuse('lookahead');
  if (rest.startsWith('<=') || rest.startsWith('<!')) return refuse('lookbehind');
  if (rest.startsWith('>')) return refuse('atomic group');
  if (rest.startsWith('#')) return refuse('comment group');
  if (rest.startsWith('(')) return refuse('conditional');
  const named = /^P?<([A-Za-z0-9_]+)>/.exec(rest);
  if (named) return { next: i + 2 + named[0].length, flagsOnly: false };
  if (rest.startsWith('P=') || rest.startsWith('P>') || rest.startsWith('&')) return refuse('back-reference');
  const flags = /^([imsU]*)(-[imsU]+)?([:)])/.exec(rest);
  if (flags && (flags[1] !== '' || flags[2] !== undefined || flags[3] === ':')) {
    return { next: i + 2 + flags[0].length, flagsOnly: flags[3] === ')' };
  }
  return `group '${p.slice(i, i + 4)}' at offset ${i} is not RE2 (RE2 knows (?:…), (?P<name>…), (?<name>…) and the flags i, m, s, U)`;
}
