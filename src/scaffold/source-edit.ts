/**
 * The one place that edits a user's TypeScript: a file is parsed with the TypeScript compiler (the
 * copy ts-morph bundles, compile-cached), the edits are found on its syntax tree and written as
 * text splices, so everything the edit does not touch stays byte for byte — comments, layout,
 * quotes. Scaffolding commands reach it through `editSource`, which writes into the virtual tree.
 *
 * The operations are the ones plugins need: find a decorator call, read and change the properties
 * of its object literal (in the layout the literal already has), put a decorator above another,
 * add a name to an import in name order.
 */
import type { ts as TS } from 'ts-morph';
import { typescript } from '../typescript/compiler.js';
import type { Tree } from './tree.js';

/** Replace `start`..`end` of the original text with `insert`. */
export interface TextEdit {
  start: number;
  end: number;
  insert: string;
}

/** A `@Name(...)` (or bare `@Name`) decorator in the file. */
export interface DecoratorUse {
  decorator: TS.Decorator;
  /** Its call, when it is called. */
  call?: TS.CallExpression;
  /** Offset of the `@`, and its 1-based line. */
  at: number;
  line: number;
}

/** One property of an object literal, with what layout-preserving edits need to know. */
export interface LiteralProperty {
  node: TS.ObjectLiteralElementLike;
  /** Its name when it is a plain identifier or string; undefined for computed names, spreads, methods. */
  key?: string;
  /** Its value, for `key: value`. */
  value?: TS.Expression;
  start: number;
  end: number;
  /** Offset of the comma that follows it, if any. */
  comma?: number;
}

/** Apply non-overlapping edits to `text` (offsets into `text`). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.insert + out.slice(e.end);
  return out;
}

/** A parsed source file and the edits planned on it; `result()` gives the edited text. */
export class SourceEditor {
  readonly file: TS.SourceFile;
  /** The compiler, loaded on the first edit of a run. */
  readonly ts = typescript();
  private readonly edits: TextEdit[] = [];

  constructor(
    readonly path: string,
    readonly text: string,
  ) {
    const ts = this.ts;
    this.file = ts.createSourceFile(
      path,
      text,
      ts.ScriptTarget.Latest,
      true,
      path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
  }

  /** Whether any edit was planned. */
  get changed(): boolean {
    return this.edits.length > 0;
  }

  result(): string {
    return applyEdits(this.text, this.edits);
  }

  add(...edits: TextEdit[]): void {
    this.edits.push(...edits);
  }

  lineOf(at: number): number {
    return this.file.getLineAndCharacterOfPosition(at).line + 1;
  }

  /** Every decorator named `name` (`@name(...)` or `@name`), in file order; comments and strings are not code. */
  decorators(name: string): DecoratorUse[] {
    const ts = this.ts;
    const out: DecoratorUse[] = [];
    const visit = (node: TS.Node): void => {
      if (ts.isDecorator(node)) {
        const e = node.expression;
        const callee = ts.isCallExpression(e) ? e.expression : e;
        if (ts.isIdentifier(callee) && callee.text === name) {
          const at = node.getStart(this.file);
          out.push({ decorator: node, ...(ts.isCallExpression(e) ? { call: e } : {}), at, line: this.lineOf(at) });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(this.file);
    return out;
  }

  /** The class declaration named `name`, anywhere at the top level of the file. */
  classNamed(name: string): TS.ClassDeclaration | undefined {
    const ts = this.ts;
    return this.file.statements.find(
      (s): s is TS.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === name,
    );
  }

  /** The decorators of a class named `name` (`@name(...)` or `@name`). */
  decoratorsOf(node: TS.HasDecorators, name: string): TS.Decorator[] {
    const ts = this.ts;
    return (ts.getDecorators(node) ?? []).filter((d) => {
      const callee = ts.isCallExpression(d.expression) ? d.expression.expression : d.expression;
      return ts.isIdentifier(callee) && callee.text === name;
    });
  }

  /** The properties of an object literal, with the commas that follow them. */
  properties(obj: TS.ObjectLiteralExpression): LiteralProperty[] {
    const ts = this.ts;
    return obj.properties.map((p) => {
      const name = ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p) ? p.name : undefined;
      const key = name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;
      const comma = this.commaAfter(p.end);
      return {
        node: p,
        ...(key !== undefined ? { key } : {}),
        ...(ts.isPropertyAssignment(p) ? { value: p.initializer } : {}),
        start: p.getStart(this.file),
        end: p.end,
        ...(comma !== undefined ? { comma } : {}),
      };
    });
  }

  /** The first token of a node, as written (what an error message can point at). */
  firstToken(node: TS.Node): string {
    return node.getFirstToken(this.file)?.getText(this.file) ?? node.getText(this.file);
  }

  /**
   * Edits that add `property` after the last property of `obj`, in the layout the literal has:
   * `, property` on a one-line literal, a line of its own (with the last property's indentation
   * and trailing-comma style) on a multi-line one. `removeProperty` undoes them byte for byte.
   */
  addPropertyEdits(obj: TS.ObjectLiteralExpression, property: string): TextEdit[] {
    const props = this.properties(obj);
    const last = props[props.length - 1];
    const open = obj.getStart(this.file);
    const close = obj.end - 1;
    if (!last) return [{ start: open + 1, end: close, insert: ` ${property} ` }];
    const after = last.comma !== undefined ? last.comma + 1 : last.end;
    const eol = this.endOfLine(after, close);
    if (eol === undefined) {
      return last.comma !== undefined
        ? [{ start: after, end: after, insert: ` ${property},` }]
        : [{ start: after, end: after, insert: `, ${property}` }];
    }
    const line = {
      start: eol,
      end: eol,
      insert: `\n${this.indentAt(last.start)}${property}${last.comma !== undefined ? ',' : ''}`,
    };
    return last.comma !== undefined ? [line] : [{ start: last.end, end: last.end, insert: ',' }, line];
  }

  /** Edits that remove property `i` of `obj`, with its line when it has one, undoing `addPropertyEdits`. */
  removePropertyEdits(obj: TS.ObjectLiteralExpression, i: number): TextEdit[] {
    const props = this.properties(obj);
    const p = props[i]!;
    const prev = i > 0 ? props[i - 1] : undefined;
    const next = props[i + 1];
    const close = obj.end - 1;
    const lineStart = this.text.lastIndexOf('\n', p.start - 1) + 1;
    const ownLine = /^[ \t]*$/.test(this.text.slice(lineStart, p.start));
    const eol = ownLine ? this.endOfLine(p.comma !== undefined ? p.comma + 1 : p.end, close) : undefined;
    if (eol !== undefined) {
      const line = { start: lineStart, end: eol + 1, insert: '' };
      // The last property without a trailing comma: the comma before it came with it.
      if (!next && p.comma === undefined && prev?.comma !== undefined)
        return [{ start: prev.comma, end: prev.comma + 1, insert: '' }, line];
      return [line];
    }
    if (prev?.comma !== undefined) return [{ start: prev.comma, end: p.end, insert: '' }];
    if (next) return [{ start: p.start, end: next.start, insert: '' }];
    return [{ start: obj.getStart(this.file) + 1, end: close, insert: '' }];
  }

  /** An edit that puts `line` (e.g. `@StorageVersion()`) on a line of its own above `node`'s line, indented alike. */
  lineAboveEdit(node: TS.Node, line: string): TextEdit {
    const at = node.getStart(this.file);
    const start = this.text.lastIndexOf('\n', at - 1) + 1;
    return { start, end: start, insert: `${this.indentAt(at)}${line}\n` };
  }

  /** The `import { … } from '<module>'` whose module `matches`, with a list of named imports. */
  namedImport(matches: (module: string) => boolean): TS.ImportDeclaration | undefined {
    const ts = this.ts;
    return this.file.statements.find(
      (s): s is TS.ImportDeclaration =>
        ts.isImportDeclaration(s) &&
        ts.isStringLiteral(s.moduleSpecifier) &&
        matches(s.moduleSpecifier.text) &&
        s.importClause?.namedBindings !== undefined &&
        ts.isNamedImports(s.importClause.namedBindings),
    );
  }

  /**
   * Edits that add `name` to the import's list in name order (before the first name that sorts
   * after it, or the first `type` import): a line of its own in a multi-line list. None when the
   * list already has it.
   */
  addNamedImportEdits(decl: TS.ImportDeclaration, name: string): TextEdit[] {
    const named = decl.importClause!.namedBindings as TS.NamedImports;
    const elements = named.elements;
    if (elements.some((e) => e.name.text === name)) return [];
    const open = named.getStart(this.file);
    const close = named.end - 1;
    if (elements.length === 0) return [{ start: open + 1, end: close, insert: ` ${name} ` }];
    const index = elements.findIndex((e) => e.isTypeOnly || e.name.text > name);
    const multiline = this.text.slice(open, close).includes('\n');
    const before = index >= 0 ? elements[index] : undefined;
    if (multiline) {
      const indent = this.indentAt(elements[0]!.getStart(this.file));
      if (before) {
        const lineStart = this.text.lastIndexOf('\n', before.getStart(this.file) - 1) + 1;
        return [{ start: lineStart, end: lineStart, insert: `${indent}${name},\n` }];
      }
      const last = elements[elements.length - 1]!;
      if (elements.hasTrailingComma) {
        const lineStart = this.text.lastIndexOf('\n', close - 1) + 1;
        return [{ start: lineStart, end: lineStart, insert: `${indent}${name},\n` }];
      }
      return [{ start: last.end, end: last.end, insert: `,\n${indent}${name}` }];
    }
    if (before) {
      const at = before.getStart(this.file);
      return [{ start: at, end: at, insert: `${name}, ` }];
    }
    const last = elements[elements.length - 1]!;
    return [{ start: last.end, end: last.end, insert: `, ${name}` }];
  }

  /** The indentation of the line `at` is on. */
  indentAt(at: number): string {
    const lineStart = this.text.lastIndexOf('\n', at - 1) + 1;
    return /^[ \t]*/.exec(this.text.slice(lineStart))![0];
  }

  /** Offset of a comma right after `from` (past blanks and comments), if there is one. */
  private commaAfter(from: number): number | undefined {
    const ts = this.ts;
    const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, this.text);
    scanner.resetTokenState(from);
    return scanner.scan() === ts.SyntaxKind.CommaToken ? scanner.getTokenStart() : undefined;
  }

  /**
   * The offset of the line feed ending the line at `from`, when only blanks and a line comment
   * stand between (and it comes before `limit`); undefined when the line goes on with code.
   */
  private endOfLine(from: number, limit: number): number | undefined {
    const ts = this.ts;
    const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, this.text);
    scanner.resetTokenState(from);
    for (;;) {
      const kind = scanner.scan();
      const start = scanner.getTokenStart();
      if (kind === ts.SyntaxKind.EndOfFileToken || start >= limit) return undefined;
      if (kind === ts.SyntaxKind.NewLineTrivia) return this.text.indexOf('\n', start);
      if (kind === ts.SyntaxKind.WhitespaceTrivia || kind === ts.SyntaxKind.SingleLineCommentTrivia) continue;
      if (kind === ts.SyntaxKind.MultiLineCommentTrivia && !scanner.getTokenText().includes('\n')) continue;
      return undefined;
    }
  }
}

/** The value of a string literal or a template without substitutions; undefined for anything else. */
export function stringLiteralValue(node: TS.Node | undefined): string | undefined {
  const ts = typescript();
  return node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined;
}

/** The values of an array literal of string literals only; undefined for anything else (a variable, a spread). */
export function stringListValue(node: TS.Node | undefined): string[] | undefined {
  const ts = typescript();
  if (node === undefined || !ts.isArrayLiteralExpression(node)) return undefined;
  const out: string[] = [];
  for (const e of node.elements) {
    const v = stringLiteralValue(e);
    if (v === undefined) return undefined;
    out.push(v);
  }
  return out;
}

/**
 * Parse `path` from the tree, let `edit` plan its changes, and write the result back into the
 * tree when it changed. Returns what `edit` returned.
 */
export function editSource<T>(tree: Tree, path: string, edit: (source: SourceEditor) => T): T {
  const source = new SourceEditor(path, tree.read(path) ?? '');
  const out = edit(source);
  if (source.changed) {
    const text = source.result();
    if (text !== source.text) tree.overwrite(path, text);
  }
  return out;
}
