/**
 * Issue 30, item 3 (`tsop docs`): the reference states what the schema has, no more and no less —
 * a field's own rule is not listed under its type, a type override shows the schema's type, and a
 * map of lists reads differently from a list of maps.
 */
import { describe, expect, it } from 'vitest';
import { readApiModel } from '../../src/codegen/reader/index.js';
import { renderApiDocs } from '../../src/docs/render.js';
import { GROUP_VERSION, PRELUDE } from '../codegen/harness.js';

function page(body: string, extra = ''): string {
  const model = readApiModel({
    'src/api/v1/groupversion.ts': GROUP_VERSION,
    'src/api/v1/t.ts': `${PRELUDE}\n${extra}\nexport class TSpec {\n${body}\n}\n@Resource()\nexport class T { spec?: TSpec; }\n`,
  });
  const docs = renderApiDocs(model, { tsopVersion: '0.0.0-test' });
  expect(docs.errors).toEqual([]);
  return docs.files['test.example.com_v1.md'] ?? '';
}

const section = (text: string, name: string): string => text.split(`### ${name}\n`)[1]?.split('\n### ')[0] ?? '';

describe('tsop docs states the facts of the schema', () => {
  it("a field's own rule is on the field's row, not under its type; the type's own rule is under the type", () => {
    const text = page(
      "@XValidation({ rule: 'self.a < 10', message: 'field rule' }) inner?: Inner;\nother?: Inner;",
      "@XValidation({ rule: 'self.a > 0', message: 'type rule' })\nexport class Inner { a!: int32; }",
    );
    const inner = section(text, 'Inner');
    expect(inner).toContain('self.a > 0');
    expect(inner).not.toContain('self.a < 10');
    const row =
      section(text, 'TSpec')
        .split('\n')
        .find((l) => l.startsWith('| `inner` |')) ?? '';
    expect(row).toContain('self.a < 10');
  });

  it("@Type('string') on an int32 field shows string, as the schema has it", () => {
    const row =
      section(page("@Type('string') version?: int32;"), 'TSpec')
        .split('\n')
        .find((l) => l.startsWith('| `version` |')) ?? '';
    expect(row).toMatch(/\| `version` \| _string_ \|/);
  });

  it('a map of lists and a list of maps read differently', () => {
    const rows = section(page('a?: Record<string, string[]>;\nb?: Array<Record<string, string>>;'), 'TSpec').split(
      '\n',
    );
    const type = (name: string): string => rows.find((l) => l.startsWith(`| \`${name}\` |`))?.split(' | ')[1] ?? '';
    expect(type('a')).not.toBe(type('b'));
  });

  it('both bounds of a field that narrows its type are listed', () => {
    const row =
      section(page('@MaxLength(20) name?: Name;', '/** @maxLength 10 */\nexport type Name = string;'), 'TSpec')
        .split('\n')
        .find((l) => l.startsWith('| `name` |')) ?? '';
    expect(row).toContain('MaxLength: 10');
    expect(row).toContain('MaxLength: 20');
  });
});
