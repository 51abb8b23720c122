/**
 * Whether a CRD description survives being written as a JSDoc comment and read back the way
 * `tsop manifests` reads doc comments (codegen/description.ts): a comment cannot hold `*∕`, a line
 * starting with `@` becomes a JSDoc tag, and the reader drops TODO lines, everything after a
 * `---` line, Go marker lines and surrounding whitespace.
 */
import { cleanDescription, truncateDescription } from '../codegen/description.js';
import type { Decorator } from './model.js';

/**
 * Why `text` does not come back unchanged from a doc comment, or undefined when it does.
 * `maxDescLen`: the project's; a description it cut with `...` can be longer than it, and is then cut again.
 */
export function docProblem(text: string, maxDescLen?: number): string | undefined {
  if (text.includes('*/')) return "the description holds '*/', which ends a comment";
  if (text.split('\n').some((l) => /^\s*@/.test(l)))
    return "a description line starts with '@', which a doc comment reads as a tag";
  if (text.includes('\r')) return 'the description holds a carriage return';
  if (cleanDescription(text) !== text)
    return 'the description has surrounding whitespace, a TODO line, a --- line or a Go marker line, which doc comments drop';
  if (maxDescLen !== undefined && truncateDescription(text, maxDescLen) !== text)
    return `the description is longer than maxDescLen ${maxDescLen} (as controller-gen leaves one it cut with '...'), so tsop manifests cuts it again; write the whole text in the doc comment`;
  return undefined;
}

/** Why a JSDoc tag value (`@pattern …`) would not read back the same, or undefined. */
export function tagProblem(value: string): string | undefined {
  if (value.includes('*/') || /[\n\r]/.test(value)) return "it holds '*/' or a line break";
  if (value !== value.trim() || value === '') return 'it has surrounding whitespace';
  if (/\s@/.test(value) || value.includes('{@')) return "it holds ' @', which a doc comment reads as a tag";
  return undefined;
}

/**
 * How a description is written so it comes back unchanged: as the doc comment, or where a doc
 * comment cannot carry it, as `@Description(text)` (a string holds any text); a `problem` when
 * neither does (maxDescLen would cut it again).
 */
export function describedAs(
  text: string,
  maxDescLen?: number,
): { doc: string } | { marker: Decorator } | { problem: string } {
  const problem = docProblem(text, maxDescLen);
  if (problem === undefined) return { doc: text };
  if (maxDescLen !== undefined && truncateDescription(text, maxDescLen) !== text) return { problem };
  return { marker: { name: 'Description', args: [text] } };
}

/** The text a `@Description` decorator among `decorators` gives, if any. */
export function describedBy(decorators: readonly Decorator[]): string | undefined {
  const d = decorators.find((x) => x.name === 'Description');
  return typeof d?.args[0] === 'string' ? d.args[0] : undefined;
}
