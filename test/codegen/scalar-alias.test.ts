/** Issue 11, item 4 (part): a validated scalar alias, reused across fields, carries its validations. */
import { describe, expect, it } from 'vitest';
import { errors, spec } from './harness.js';

const ALIASES = `
/**
 * A DNS-1123 label.
 * @pattern ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$
 * @maxLength 63
 */
type DNSLabel = string;
/** @minimum 1 @maximum 65535 */
type Port = int32;
/** @see https://example.com (documentation only) */
type Plain = string;
`;

describe('validated scalar aliases', () => {
  it('every field of the alias type gets its tags as markers, and its doc as description', () => {
    const s = spec('name!: DNSLabel;\nhost?: DNSLabel;\nport?: Port;\nnote?: Plain;', ALIASES);
    const label = {
      type: 'string',
      description: 'A DNS-1123 label.',
      pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
      maxLength: 63,
    };
    expect(s.properties?.['name']).toEqual(label);
    expect(s.properties?.['host']).toEqual(label);
    expect(s.properties?.['port']).toEqual({ type: 'integer', format: 'int32', minimum: 1, maximum: 65535 });
    expect(s.properties?.['note']).toEqual({ type: 'string' }); // @see is documentation, not a validation
  });
  it("a field marker adds to the alias's, and arrays of the alias get them on items", () => {
    const s = spec('@MinLength(3) name?: DNSLabel;\nnames?: DNSLabel[];', ALIASES);
    expect(s.properties?.['name']).toMatchObject({
      pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
      maxLength: 63,
      minLength: 3,
    });
    expect(s.properties?.['names']?.items).toMatchObject({ pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 });
  });
  it('a tag that does not fit the type, or has no value, is an error at the tag', () => {
    expect(errors('n?: Bad;', '/** @maxLength 3 */\ntype Bad = int32;')[0]).toMatch(
      /^src\/api\/v1\/t\.ts:6: TSpec\.n: @MaxLength applies to string fields/,
    );
    expect(errors('n?: Empty;', '/** @maxLength */\ntype Empty = string;')).toEqual([
      "src/api/v1/t.ts:6: @maxLength on type Empty: needs a number value, got ''",
    ]);
  });
});
