/**
 * Issue 11, item 4 (part): enum members and imported `const` literals as marker arguments, as a
 * TypeScript user writes them — `@Default(Policy.Allow)`, `@Maximum(limits.replicas)`.
 */
import { describe, expect, it } from 'vitest';
import { crds, errors, field, run, specFiles } from './harness.js';

const specOf = (files: Record<string, string>): Record<string, any> => {
  const result = run(files);
  expect(result.errors.map((e) => e.message)).toEqual([]);
  return Object.values(crds(result))[0]?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec;
};

describe('marker arguments from enums and consts', () => {
  it('an enum member of the same file (string and auto-numbered)', () => {
    const extra = "enum Policy { Allow = 'Allow', Forbid = 'Forbid' }\nenum Level { Low, High }";
    expect(field('@Default(Policy.Allow) f?: Policy;', extra)).toEqual({
      type: 'string',
      enum: ['Allow', 'Forbid'],
      default: 'Allow',
    });
    expect(field('@Default(Level.High) f?: int32;', extra)).toEqual({ type: 'integer', format: 'int32', default: 1 });
  });

  it('a property of a const object, and consts and enums imported from another API file (named, renamed, namespace, re-exported)', () => {
    const files = specFiles(
      [
        '@Maximum(limits.replicas) a?: int32;',
        '@Default(Mode.Fast) b?: string;',
        '@Default(DEFAULT_NAME) c?: string;',
        '@Default(c.Mode.Slow) d?: string;',
        '@Enum(c.ONE, TWO) e?: string;',
      ].join('\n'),
      "import { limits, Mode, NAME as DEFAULT_NAME } from './constants.js';\nimport * as c from './constants.js';\nimport { TWO } from './index.js';",
    );
    files['src/api/v1/constants.ts'] =
      "export const limits = { replicas: 5 } as const;\nexport enum Mode { Fast = 'fast', Slow = 'slow' }\nexport const NAME = 'web';\nexport const ONE = 'one';";
    files['src/api/v1/index.ts'] = "export { NAME as TWO } from './constants.js';";
    const s = specOf(files);
    expect(s['properties'].a.maximum).toBe(5);
    expect(s['properties'].b.default).toBe('fast');
    expect(s['properties'].c.default).toBe('web');
    expect(s['properties'].d.default).toBe('slow');
    expect(s['properties'].e.enum).toEqual(['one', 'web']);
  });

  it('a whole enum or an unknown member is an error at its line', () => {
    const extra = "enum Policy { Allow = 'Allow' }";
    expect(errors('@Default(Policy) f?: string;', extra)).toEqual([
      "src/api/v1/t.ts:8: @Default: 'Policy' is a whole enum; name one member (Policy.Member)",
    ]);
    expect(errors('@Default(Policy.Deny) f?: string;', extra)).toEqual([
      "src/api/v1/t.ts:8: @Default: 'Policy.Deny' is not a member with a constant value of enum Policy",
    ]);
  });
});
