/**
 * The RE2 check of `@Pattern` against Go's regexp package: each pattern below was compiled once
 * with Go 1.26's regexp.Compile (the engine the API server uses; its verdict is noted next to
 * each refused one) and tsop must agree — accept what Go accepts, refuse what Go refuses.
 */
import { describe, expect, it } from 'vitest';
import { re2Problem } from '../../src/codegen/re2.js';
import { errors, field } from './harness.js';

/** Go accepts these. */
const ACCEPTED = [
  '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
  '(?i)^abc$',
  '(?P<name>x+)',
  '(?<name>x+)',
  '(?:ab)+',
  '\\Aabc\\z',
  'a*?',
  'a{2,5}',
  'a{2,}',
  'a{1000}',
  '\\x41\\x{263a}',
  '\\p{Greek}\\PL\\p{Lu}',
  '[[:alpha:]]+',
  '[\\d\\-_.]+',
  '\\Q.*\\E',
  '^\\d+\\.\\d+$',
  '[]a]',
  '[^]a]',
  '\\/path',
  'a{,3}',
  '\\12',
  '^*',
  '(?i:a)',
  '(?s-m:a)',
  '([a-z])',
  '|a',
  'a||b',
  '()',
];

/** Go refuses these: [pattern, what Go said]. */
const REFUSED: Array<[string, string]> = [
  ['(?=abc)', 'invalid or unsupported Perl syntax: `(?=`'],
  ['(?!abc)', 'invalid or unsupported Perl syntax: `(?!`'],
  ['(?<=abc)x', 'invalid named capture: `(?<=abc)x`'],
  ['(?<!abc)x', 'invalid named capture: `(?<!abc)x`'],
  ['(a)\\1', 'invalid escape sequence: `\\1`'],
  ['\\k<name>', 'invalid escape sequence: `\\k`'],
  ['a*+', 'invalid nested repetition operator: `*+`'],
  ['a++', 'invalid nested repetition operator: `++`'],
  ['a?+', 'invalid nested repetition operator: `?+`'],
  ['a{2}+', 'invalid nested repetition operator: `{2}+`'],
  ['a{2}{3}', 'invalid nested repetition operator: `{2}{3}`'],
  ['a**', 'invalid nested repetition operator: `**`'],
  ['a*??', 'invalid nested repetition operator: `*??`'],
  ['(?>abc)', 'invalid or unsupported Perl syntax: `(?>`'],
  ['abc\\Z', 'invalid escape sequence: `\\Z`'],
  ['\\u00e9', 'invalid escape sequence: `\\u`'],
  ['\\e', 'invalid escape sequence: `\\e`'],
  ['\\G', 'invalid escape sequence: `\\G`'],
  ['\\h', 'invalid escape sequence: `\\h`'],
  ['(?#comment)', 'invalid or unsupported Perl syntax: `(?#`'],
  ['(?x)a', 'invalid or unsupported Perl syntax: `(?x`'],
  ['([a-z]', 'missing closing ): `([a-z]`'],
  ['(abc', 'missing closing ): `(abc`'],
  ['abc)', 'unexpected ): `abc)`'],
  ['*abc', 'missing argument to repetition operator: `*`'],
  ['a{1001}', 'invalid repeat count: `{1001}`'],
  ['a{3,2}', 'invalid repeat count: `{3,2}`'],
  ['\\8', 'invalid escape sequence: `\\8`'],
  ['trailing\\', 'trailing backslash at end of expression: ``'],
  ['\\p{Script=Greek}', 'invalid character class range: `\\p{Script=Greek}`'],
  ['[a-\\Z]', 'invalid escape sequence: `\\Z`'],
  ['[\\b]', 'invalid escape sequence: `\\b`'],
  ['(?P=name)', 'invalid or unsupported Perl syntax: `(?P`'],
  ['(?i)*', 'missing argument to repetition operator: `*`'],
];

describe('RE2 compatibility of patterns (as Go regexp.Compile decides)', () => {
  it.each(ACCEPTED)('accepts %s', (pattern) => {
    expect(re2Problem(pattern)).toBeUndefined();
  });
  it.each(REFUSED)('refuses %s (Go: %s)', (pattern) => {
    expect(re2Problem(pattern)).toBeTypeOf('string');
  });
  it('names the construct and where it is', () => {
    expect(re2Problem('^(?=.*[0-9]).+$')).toBe("lookahead '(?=' at offset 1 is not RE2");
    expect(re2Problem('^(a)\\1$')).toBe("back-reference '\\1' at offset 4 is not RE2 (RE2 has no back-references)");
    expect(re2Problem('^a++$')).toBe("possessive quantifier '++' at offset 2 is not RE2");
    expect(re2Problem('^abc\\Z')).toBe("escape '\\Z' at offset 4 is not RE2 (use \\z (end of text) or $)");
  });
});

describe('@Pattern', () => {
  it('keeps an RE2 pattern that JavaScript would not compile (inline flags, (?P<name>))', () => {
    expect(field("@Pattern('(?i)^(?P<host>[a-z]+)$') f!: string;").pattern).toBe('(?i)^(?P<host>[a-z]+)$');
  });
  it("refuses lookbehind at the decorator's file:line, with the fix", () => {
    expect(errors("@Pattern('(?<!x)y') f!: string;")).toEqual([
      'src/api/v1/t.ts:8: TSpec.f: @Pattern("(?<!x)y"): lookbehind \'(?<!\' at offset 0 is not ' +
        'RE2; the API server matches patterns with RE2 (Go regexp), so rewrite it without that ' +
        'construct or check the value with @XValidation',
    ]);
  });
});
