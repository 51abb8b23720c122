/**
 * Small questions the reader asks of raw TypeScript syntax nodes: line numbers, decorators,
 * modifiers, JSDoc text and the top-level declarations of a file by name. They answer exactly as
 * the ts-morph wrappers the reader used before did (its line counting, its JSDoc description),
 * so positions and descriptions in the model do not change — without loading ts-morph.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';

/** Offsets of every '\n' in a file, computed once per file for line lookups. */
const newlines = new WeakMap<TS.SourceFile, number[]>();

/** The 1-based line of `pos`: the '\n' characters before it, plus one (a lone '\r' is no line break, as in ts-morph). */
export function lineAt(sf: TS.SourceFile, pos: number): number {
  let nl = newlines.get(sf);
  if (!nl) {
    nl = [];
    const text = sf.text;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) nl.push(i);
    newlines.set(sf, nl);
  }
  let lo = 0;
  let hi = nl.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((nl[mid] as number) < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo + 1;
}

/** The line a node starts on (its first token: decorators included, JSDoc not). */
export function lineOf(node: TS.Node, sf: TS.SourceFile): number {
  return lineAt(sf, node.getStart(sf));
}

/** A node's source text without leading trivia. */
export function textOf(node: TS.Node, sf: TS.SourceFile): string {
  return ts.isIdentifier(node) ? node.text : node.getText(sf);
}

export function decoratorsOf(node: TS.Node): readonly TS.Decorator[] {
  return ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : [];
}

export function hasModifier(node: TS.Node, kind: TS.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((m) => m.kind === kind) ?? false);
}

/**
 * Parses a file. JSDoc is not parsed with it: most of it is never read (methods, controllers),
 * and parsing it is about a third of the parse. The reader finds the blocks it needs by their
 * position instead (jsDocsOf), as the parser would have attached them. Nor are parent pointers
 * set (another fifth): the reader always knows which file and which declaration it is in, and
 * finds a top-level declaration's file with fileOf.
 */
export function parseFile(path: string, text: string): TS.SourceFile {
  return ts.createSourceFile(path, text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false, ts.ScriptKind.TS);
}

/** A `/** … *\/` block on a declaration; its tags are parsed when first asked for. */
export interface DocBlock {
  pos: number;
  end: number;
  tags(): readonly DocTag[];
}

export interface DocTag {
  /** `param`, `pattern`, … */
  name: string;
  /** Where the tag's `@` is in the file. */
  start: number;
  /** Its text after the tag name (after the parameter name for `@param`), as ts-morph's getCommentText gave it. */
  comment: string | undefined;
  /** `@param`'s parameter name. */
  paramName?: string;
}

/**
 * The JSDoc blocks directly on a declaration (a class, interface, enum, type alias, property or
 * constructor): its leading comments that start with `/**` (not `/**\/`), which are what the parser
 * attaches as its jsDoc.
 */
export function jsDocsOf(node: TS.Node, sf: TS.SourceFile): DocBlock[] {
  const text = sf.text;
  const ranges = ts.getLeadingCommentRanges(text, node.pos) ?? [];
  const out: DocBlock[] = [];
  for (const c of ranges) {
    if (c.end > node.end || text.charCodeAt(c.pos + 1) !== 42 || text.charCodeAt(c.pos + 2) !== 42 || text.charCodeAt(c.pos + 3) === 47) continue;
    let tags: readonly DocTag[] | undefined;
    out.push({ pos: c.pos, end: c.end, tags: () => (tags ??= parseTags(text, c.pos, c.end)) });
  }
  return out;
}

/**
 * The tags of the block at pos..end, by TypeScript's JSDoc parser run on that block alone. The
 * block is parsed at its own column (it measures a tag comment's margin from there), so a tag's
 * position is the same as in the file once the offset is added back.
 */
function parseTags(text: string, pos: number, end: number): readonly DocTag[] {
  const block = text.slice(pos, end);
  if (!block.includes('@')) return [];
  const column = pos - (text.lastIndexOf('\n', pos - 1) + 1);
  const offset = pos - column;
  const mini = ts.createSourceFile('/doc.ts', `${' '.repeat(column)}${block}\ntype _ = 0;`, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const holder = mini.statements[0];
  const doc = holder ? (holder as { jsDoc?: TS.JSDoc[] }).jsDoc?.[0] : undefined;
  return (doc?.tags ?? []).map((tag) => {
    const out: DocTag = { name: tag.tagName.getText(mini), start: tag.getStart(mini) + offset, comment: typeof tag.comment === 'string' ? tag.comment : ts.getTextOfJSDocComment(tag.comment) };
    if (ts.isJSDocParameterTag(tag)) out.paramName = tag.name.getText(mini);
    return out;
  });
}

/** The text of a JSDoc block before its first tag, without the comment's stars (ts-morph's getDescription). */
export function jsDocDescription(doc: DocBlock, sf: TS.SourceFile): string {
  const text = sf.text;
  const endSearchStart = doc.tags()[0]?.start ?? doc.end - 2;
  const open = doc.pos + 3;
  const start = text.charCodeAt(open) === 32 ? open + 1 : open;
  const endOrNewLine = previousMatching(text, endSearchStart, (c) => c === 10 || (!isWhitespace(c) && c !== 42));
  const end = previousMatching(text, endOrNewLine, (c) => c !== 10 && c !== 13);
  return withoutStars(text.substring(start, Math.max(start, end)));
}

function previousMatching(text: string, pos: number, condition: (c: number) => boolean): number {
  while (pos > 0 && !condition(text.charCodeAt(pos - 1))) pos--;
  return pos;
}

/** ts-morph's whitespace test (StringUtils.isWhitespaceCharCode). */
const WHITESPACE = new Set([32, 12, 10, 13, 9, 11, 0xa0, 0x2028, 0x2029]);
const isWhitespace = (c: number): boolean => WHITESPACE.has(c);

function withoutStars(input: string): string {
  const inner = input.replace(/^\/\*\*[^\S\n]*\n?/, '').replace(/(\r?\n)?[^\S\n]*\*\/$/, '');
  return inner
    .split(/\n/)
    .map((line) => {
      let star = -1;
      for (let i = 0; i < line.length; i++) {
        const c = line.charCodeAt(i);
        if (c === 42) {
          star = i;
          break;
        } else if (!isWhitespace(c)) break;
      }
      if (star === -1) return line;
      return line.substring(line[star + 1] === ' ' ? star + 2 : star + 1);
    })
    .join('\n');
}

/** ts-morph's NumericLiteral.getLiteralValue: the scanner's normalised text, parsed. */
export function numericValue(lit: TS.NumericLiteral): number {
  return lit.text.includes('.') ? parseFloat(lit.text) : parseInt(lit.text, 10);
}

/** The string value of an import or export's module specifier. */
export function specifierOf(node: TS.Expression | undefined): string | undefined {
  return node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined;
}

/** A file's top-level declarations by name (the first of each name wins) and its import and export statements, built once per file. */
export interface FileIndex {
  classes: TS.ClassDeclaration[];
  classByName: Map<string, TS.ClassDeclaration>;
  interfaces: Map<string, TS.InterfaceDeclaration>;
  enums: Map<string, TS.EnumDeclaration>;
  aliases: Map<string, TS.TypeAliasDeclaration>;
  variables: Map<string, TS.VariableDeclaration>;
  imports: TS.ImportDeclaration[];
  exports: TS.ExportDeclaration[];
}

const indexes = new WeakMap<TS.SourceFile, FileIndex>();

/** Each top-level declaration (and variable declaration) → its file; filled by fileIndex. */
const declFiles = new WeakMap<TS.Node, TS.SourceFile>();
/** Each top-level variable declaration → its `const`/`let` list; filled by fileIndex. */
const declLists = new WeakMap<TS.VariableDeclaration, TS.VariableDeclarationList>();

/** The file of a declaration found through fileIndex (files are parsed without parent pointers). */
export function fileOf(decl: TS.Node): TS.SourceFile {
  const sf = declFiles.get(decl);
  if (!sf) throw new Error('reader: a declaration not found through fileIndex');
  return sf;
}

/** The `const`/`let`/`var` list of a variable declaration found through fileIndex. */
export function declarationList(decl: TS.VariableDeclaration): TS.VariableDeclarationList | undefined {
  return declLists.get(decl);
}

export function fileIndex(sf: TS.SourceFile): FileIndex {
  let found = indexes.get(sf);
  if (found) return found;
  found = { classes: [], classByName: new Map(), interfaces: new Map(), enums: new Map(), aliases: new Map(), variables: new Map(), imports: [], exports: [] };
  const first = <T>(map: Map<string, T>, name: TS.Identifier | undefined, node: T): void => {
    if (name && !map.has(name.text)) map.set(name.text, node);
  };
  for (const st of sf.statements) {
    declFiles.set(st, sf);
    if (ts.isClassDeclaration(st)) {
      found.classes.push(st);
      first(found.classByName, st.name, st);
    } else if (ts.isInterfaceDeclaration(st)) first(found.interfaces, st.name, st);
    else if (ts.isEnumDeclaration(st)) first(found.enums, st.name, st);
    else if (ts.isTypeAliasDeclaration(st)) first(found.aliases, st.name, st);
    else if (ts.isVariableStatement(st)) {
      // A destructuring declaration is found by any name it binds (ts-morph's getVariableDeclaration).
      for (const d of st.declarationList.declarations) {
        declFiles.set(d, sf);
        declLists.set(d, st.declarationList);
        for (const name of boundNames(d.name)) first(found.variables, name, d);
      }
    } else if (ts.isImportDeclaration(st)) found.imports.push(st);
    else if (ts.isExportDeclaration(st)) found.exports.push(st);
  }
  indexes.set(sf, found);
  return found;
}

function boundNames(name: TS.BindingName): TS.Identifier[] {
  if (ts.isIdentifier(name)) return [name];
  return (name.elements as ReadonlyArray<TS.BindingElement | TS.OmittedExpression>).flatMap((e) => (ts.isBindingElement(e) ? boundNames(e.name) : []));
}

/** `export { a as b }`: each specifier's local name (a) and exported name (b). */
export function namedExports(exp: TS.ExportDeclaration, sf: TS.SourceFile): Array<{ name: string; alias: string }> {
  const clause = exp.exportClause;
  if (!clause || !ts.isNamedExports(clause)) return [];
  return clause.elements.map((e) => ({ name: textOf(e.propertyName ?? e.name, sf), alias: textOf(e.name, sf) }));
}

/** `import { a as b }`: each specifier's exported name (a) and local name (b). */
export function namedImports(imp: TS.ImportDeclaration, sf: TS.SourceFile): Array<{ name: string; alias: string }> {
  const bindings = imp.importClause?.namedBindings;
  if (!bindings || !ts.isNamedImports(bindings)) return [];
  return bindings.elements.map((e) => ({ name: textOf(e.propertyName ?? e.name, sf), alias: textOf(e.name, sf) }));
}

export function namespaceImport(imp: TS.ImportDeclaration): string | undefined {
  const bindings = imp.importClause?.namedBindings;
  return bindings && ts.isNamespaceImport(bindings) ? bindings.name.text : undefined;
}
