/**
 * Many YAML documents in one text (kubectl kustomize output, a bundle's files), read with the yaml
 * library: each mapping document as a plain object; anything else is skipped, as operator-sdk
 * skips it.
 */
import { UserError } from '../errors.js';
import { yamlLibrary } from './library.js';

type YamlObject = Record<string, unknown>;

const isObject = (value: unknown): value is YamlObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every mapping document of a multi-document text; `source` names it in the error of a bad one. */
export function parseDocuments(text: string, source: string): YamlObject[] {
  const docs = yamlLibrary().parseAllDocuments(text);
  const out: YamlObject[] = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    if (doc.errors.length > 0) {
      const line = doc.errors[0]!.linePos?.[0]?.line;
      throw new UserError(
        `${source}${line ? `:${line}` : ''}: not valid YAML (${doc.errors[0]!.message.split('\n')[0]}); fix the file and run it again`,
      );
    }
    const value = doc.toJS({ maxAliasCount: -1 }) as unknown;
    if (isObject(value)) out.push(value);
  }
  return out;
}
