/**
 * @Description: a description exactly as given, for text a doc comment cannot carry (doc comments
 * drop what controller-gen drops from Go comments: surrounding whitespace, runs of blank lines,
 * TODO and --- lines). It wins over the doc comment, on a field and on a class.
 */
import { describe, expect, it } from 'vitest';
import { field, spec } from './harness.js';

const TEXT = 'Selector picks endpoints. \n Syntax:\n\n\n\tlabel == "x"\nTODO: this design is not final.';

describe('@Description', () => {
  it('is the field description as given, over its doc comment', () => {
    expect(field(`/** Dropped. */\n@Description(${JSON.stringify(TEXT)}) f?: string;`)).toEqual({
      type: 'string',
      description: TEXT,
    });
  });

  it('is the description of a class, and of a list of it, over its doc comment', () => {
    const s = spec(
      'f?: Rule[];',
      `/** Dropped. */\n@Description(${JSON.stringify(TEXT)})\nexport class Rule { a?: string }`,
    );
    expect(s.properties?.['f']?.items?.description).toBe(TEXT);
  });

  it('a doc comment alone still loses what controller-gen drops', () => {
    expect(field('/**\n * Kept.\n * TODO: dropped.\n */\nf?: string;').description).toBe('Kept.');
  });
});
