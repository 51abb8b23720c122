/**
 * Whether two versions of a kind declare the same types, for the converter `create webhook
 * --conversion` scaffolds next to a spoke: it copies spec and status as they are only when the
 * hub's and the spoke's types files declare the same classes, interfaces, enums and type aliases
 * (names, fields, optionality, field types), since otherwise the copy does not type-check (an
 * imported project's versions, or a spoke edited before its webhook). Comments, decorators and
 * imports do not count: markers such as @Hub() and @StorageVersion() change neither the objects'
 * shape nor what TypeScript accepts.
 */
import type { ts as TS } from 'ts-morph';
import { typescript } from '../../typescript/compiler.js';

export function sameShapes(a: string, b: string): boolean {
  return shapes(a) === shapes(b);
}

/** The file's type declarations as one string, without comments, decorators or layout. */
function shapes(text: string): string {
  const ts = typescript();
  const file = ts.createSourceFile('types.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const t = (node: TS.Node | undefined): string => (node ? node.getText(file).replace(/\s+/g, ' ') : '');
  const all = (nodes: readonly TS.Node[] | undefined): string => (nodes ?? []).map(t).join(',');
  const member = (m: TS.ClassElement | TS.TypeElement): string =>
    ts.isPropertyDeclaration(m) || ts.isPropertySignature(m)
      ? `${t(m.name)}${m.questionToken ? '?' : ''}:${t(m.type)}`
      : t(m).replace(/^(@\S+\s*)+/, '');
  const out: string[] = [];
  for (const s of file.statements) {
    if (ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s))
      out.push(
        `${ts.isClassDeclaration(s) ? 'class' : 'interface'} ` +
          `${t(s.name)}<${all(s.typeParameters)}> ${all(s.heritageClauses)} {${(s.members as readonly (TS.ClassElement | TS.TypeElement)[]).map(member).join(';')}}`,
      );
    else if (ts.isTypeAliasDeclaration(s)) out.push(`type ${t(s.name)}<${all(s.typeParameters)}> = ${t(s.type)}`);
    else if (ts.isEnumDeclaration(s)) out.push(t(s));
  }
  return out.join('\n');
}
