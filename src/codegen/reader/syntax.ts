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
  return lineAt(sf, startOf(node, sf));
}

/**
 * Where a node's first token is: `node.getStart(sf)` without its detours. A node the parser made
 * up for a syntax error (empty, not the end of file) starts where it is.
 */
function startOf(node: TS.Node, sf: TS.SourceFile): number {
  const pos = node.pos;
  if (pos === node.end && pos >= 0 && node.kind !== ts.SyntaxKind.EndOfFileToken) return pos;
  return skipTrivia(sf.text, pos);
}

/**
 * TypeScript's skipTrivia for the usual case (ASCII whitespace and comments), inline; anything it
 * treats specially (a shebang, a merge-conflict marker, Unicode whitespace) goes to TypeScript's.
 */
function skipTrivia(text: string, pos: number): number {
  let i = pos;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9 || c === 11 || c === 12) i++;
    else if (c === 47) {
      const next = text.charCodeAt(i + 1);
      if (next === 42) {
        const close = text.indexOf('*/', i + 2);
        i = close < 0 ? text.length : close + 2;
      } else if (next === 47) {
        i += 2;
        while (i < text.length && !isLineBreak(text.charCodeAt(i))) i++;
      } else return i;
    } else if (c > 127 || c === 60 || c === 61 || c === 62 || c === 124 || (c === 35 && i === 0)) {
      return tsSkipTrivia(text, pos);
    } else return i;
  }
}

/** TypeScript's own (internal, but what getStart has called for years). */
const tsSkipTrivia = (ts as unknown as { skipTrivia(text: string, pos: number): number }).skipTrivia;

const isLineBreak = (c: number): boolean => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;

/** A node's source text without leading trivia (`node.getText(sf)`). */
export function rawTextOf(node: TS.Node, sf: TS.SourceFile): string {
  return sf.text.substring(startOf(node, sf), node.end);
}

/**
 * An identifier's source text (as `getText` gives it) without slicing the file: its name, unless
 * it is written with Unicode escapes (`\u0061`), which only the source text keeps. Other nodes:
 * their source text.
 */
export function nameOf(node: TS.Node, sf: TS.SourceFile): string {
  if (node.kind === ts.SyntaxKind.Identifier) {
    // Escapes make the source longer than the name, so a name that ends the node exactly is the whole source.
    const name = (node as TS.Identifier).text;
    const start = node.end - name.length;
    if (start >= node.pos && sf.text.startsWith(name, start)) return name;
  }
  return rawTextOf(node, sf);
}

/** A node's source text without leading trivia; an identifier's name (escapes resolved). */
function textOf(node: TS.Node, sf: TS.SourceFile): string {
  return node.kind === ts.SyntaxKind.Identifier ? (node as TS.Identifier).text : rawTextOf(node, sf);
}

const NO_DECORATORS: readonly TS.Decorator[] = [];

/** A node's decorators, in order (they sit among its modifiers). */
export function decoratorsOf(node: TS.Node): readonly TS.Decorator[] {
  const modifiers = (node as { modifiers?: TS.NodeArray<TS.ModifierLike> }).modifiers;
  if (modifiers === undefined || !ts.canHaveDecorators(node)) return NO_DECORATORS;
  let out: TS.Decorator[] | undefined;
  for (const m of modifiers) if (m.kind === ts.SyntaxKind.Decorator) (out ??= []).push(m);
  return out ?? NO_DECORATORS;
}

/** Whether a node has the modifier keyword `kind` (`export`, `static`, `private`, …). */
export function hasModifier(node: TS.Node, kind: TS.SyntaxKind): boolean {
  const modifiers = (node as { modifiers?: TS.NodeArray<TS.ModifierLike> }).modifiers;
  if (modifiers === undefined || !ts.canHaveModifiers(node)) return false;
  for (const m of modifiers) if (m.kind === kind) return true;
  return false;
}

/**
 * Parses a file. JSDoc is not parsed with it: most of it is never read (methods, controllers),
 * and parsing it is about a third of the parse. The reader finds the blocks it needs by their
 * position instead (jsDocsOf), as the parser would have attached them. Nor are parent pointers
 * set (another fifth): the reader always knows which file and which declaration it is in, and
 * finds a top-level declaration's file with fileOf.
 */
export function parseFile(path: string, text: string): TS.SourceFile {
  return ts.createSourceFile(
    path,
    text,
    { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    false,
    ts.ScriptKind.TS,
  );
}

/** A `/** … *\/` block on a declaration; its tags are parsed when first asked for. */
export class DocBlock {
  private parsed: readonly DocTag[] | undefined;

  constructor(
    readonly pos: number,
    readonly end: number,
    private readonly text: string,
  ) {}

  tags(): readonly DocTag[] {
    return (this.parsed ??= parseTags(this.text, this.pos, this.end));
  }
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

const NO_DOCS: readonly DocBlock[] = [];

/**
 * The JSDoc blocks directly on a declaration (a class, interface, enum, type alias, property or
 * constructor): its leading comments that start with `/**` (not `/**\/`), which are what the parser
 * attaches as its jsDoc.
 */
export function jsDocsOf(node: TS.Node, sf: TS.SourceFile): readonly DocBlock[] {
  // Kept per node: its description and its marker tags both ask, and each block's tags are parsed once.
  let found = docBlocks.get(node);
  if (found === undefined) docBlocks.set(node, (found = findDocBlocks(node, sf)));
  return found;
}

const docBlocks = new WeakMap<TS.Node, readonly DocBlock[]>();

function findDocBlocks(node: TS.Node, sf: TS.SourceFile): readonly DocBlock[] {
  const text = sf.text;
  let out: DocBlock[] | undefined;
  const plain = leadingComments(text, node.pos);
  if (plain) {
    for (let k = 0; k < plain.length; k += 2) {
      const pos = plain[k] as number;
      const end = plain[k + 1] as number;
      if (end <= node.end && isDocComment(text, pos)) (out ??= []).push(new DocBlock(pos, end, text));
    }
  } else {
    for (const c of ts.getLeadingCommentRanges(text, node.pos) ?? []) {
      if (c.end <= node.end && isDocComment(text, c.pos)) (out ??= []).push(new DocBlock(c.pos, c.end, text));
    }
  }
  return out ?? NO_DOCS;
}

/** The last JSDoc block on a declaration (the one its description comes from), if any. */
export function lastJsDocOf(node: TS.Node, sf: TS.SourceFile): DocBlock | undefined {
  const docs = jsDocsOf(node, sf);
  return docs[docs.length - 1];
}

/** `/**` but not `/**\/` at pos. */
const isDocComment = (text: string, pos: number): boolean =>
  text.charCodeAt(pos + 1) === 42 && text.charCodeAt(pos + 2) === 42 && text.charCodeAt(pos + 3) !== 47;

const NO_RANGES: readonly number[] = [];

/**
 * TypeScript's leading comments of the token after `pos` (getLeadingCommentRanges) when the
 * trivia is the usual ASCII whitespace and comments: the comments after the first line break
 * (all of them at the start of the file), as start, end, start, end, … Undefined when the trivia
 * holds anything else (a shebang, Unicode whitespace): TypeScript's own scan is used then.
 */
function leadingComments(text: string, pos: number): readonly number[] | undefined {
  let collecting = pos === 0;
  if (collecting && text.charCodeAt(0) === 35) return undefined;
  let ranges: number[] | undefined;
  for (let i = pos; ; ) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      collecting = true;
      i++;
    } else if (c === 32 || c === 9 || c === 11 || c === 12) i++;
    else if (c === 47 && (text.charCodeAt(i + 1) === 42 || text.charCodeAt(i + 1) === 47)) {
      const start = i;
      if (text.charCodeAt(i + 1) === 42) {
        const close = text.indexOf('*/', i + 2);
        i = close < 0 ? text.length : close + 2;
      } else {
        i += 2;
        while (i < text.length && !isLineBreak(text.charCodeAt(i))) i++;
      }
      if (collecting) (ranges ??= []).push(start, i);
    } else if (c > 127) return undefined;
    else return ranges ?? NO_RANGES; // the token (or the end of the text: NaN)
  }
}

/**
 * The tags of the block at pos..end, by TypeScript's JSDoc parser run on that block alone. The
 * block is parsed at its own column (it measures a tag comment's margin from there), so a tag's
 * position is the same as in the file once the offset is added back.
 */
function parseTags(text: string, pos: number, end: number): readonly DocTag[] {
  const at = text.indexOf('@', pos);
  if (at < 0 || at >= end) return [];
  const block = text.slice(pos, end);
  const column = pos - (text.lastIndexOf('\n', pos - 1) + 1);
  const offset = pos - column;
  const mini = ts.createSourceFile(
    '/doc.ts',
    `${' '.repeat(column)}${block}\ntype _ = 0;`,
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TS,
  );
  const holder = mini.statements[0];
  const doc = holder ? (holder as { jsDoc?: TS.JSDoc[] }).jsDoc?.[0] : undefined;
  return (doc?.tags ?? []).map((tag) => {
    const out: DocTag = {
      name: tag.tagName.getText(mini),
      start: tag.getStart(mini) + offset,
      comment: typeof tag.comment === 'string' ? tag.comment : ts.getTextOfJSDocComment(tag.comment),
    };
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
  // Back over the comment's closing whitespace and stars (to a line break at most), then over line breaks.
  let endOrNewLine = endSearchStart;
  for (
    let c = text.charCodeAt(endOrNewLine - 1);
    endOrNewLine > 0 && c !== 10 && (isWhitespace(c) || c === 42);
    c = text.charCodeAt(endOrNewLine - 1)
  )
    endOrNewLine--;
  let end = endOrNewLine;
  for (let c = text.charCodeAt(end - 1); end > 0 && (c === 10 || c === 13); c = text.charCodeAt(end - 1)) end--;
  return withoutStars(text.substring(start, Math.max(start, end)));
}

/** ts-morph's whitespace test (StringUtils.isWhitespaceCharCode). */
const isWhitespace = (c: number): boolean =>
  c === 32 || c === 10 || c === 13 || c === 9 || c === 12 || c === 11 || c === 0xa0 || c === 0x2028 || c === 0x2029;

const OPENING = /^\/\*\*[^\S\n]*\n?/;
const CLOSING = /(\r?\n)?[^\S\n]*\*\/$/;

function withoutStars(input: string): string {
  // The opening and closing only match text that starts with '/**' or ends with '*/' (rare: the usual input has neither).
  let inner = input.startsWith('/**') ? input.replace(OPENING, '') : input;
  if (inner.endsWith('*/')) inner = inner.replace(CLOSING, '');
  if (!inner.includes('\n')) return withoutStar(inner);
  return inner.split('\n').map(withoutStar).join('\n');
}

/** A line without its leading whitespace and first star (and one space after it), when it starts so. */
function withoutStar(line: string): string {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 42) return line.substring(line.charCodeAt(i + 1) === 32 ? i + 2 : i + 1);
    if (!isWhitespace(c)) return line;
  }
  return line;
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
  /**
   * Every class and interface of a name, in source order: TypeScript merges them into one type
   * (declaration merging), so the reader reads them as one.
   */
  merged: Map<string, Array<TS.ClassDeclaration | TS.InterfaceDeclaration>>;
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

/**
 * The declarations TypeScript merges with a top-level class or interface: every class and
 * interface of its name in its file, in source order (itself among them).
 */
export function mergedDeclarations(
  decl: TS.ClassDeclaration | TS.InterfaceDeclaration,
): ReadonlyArray<TS.ClassDeclaration | TS.InterfaceDeclaration> {
  const name = decl.name?.text;
  const parts = name === undefined ? undefined : fileIndex(fileOf(decl)).merged.get(name);
  return parts && parts.length > 1 && parts.includes(decl) ? parts : [decl];
}

/** The `const`/`let`/`var` list of a variable declaration found through fileIndex. */
export function declarationList(decl: TS.VariableDeclaration): TS.VariableDeclarationList | undefined {
  return declLists.get(decl);
}

export function fileIndex(sf: TS.SourceFile): FileIndex {
  let found = indexes.get(sf);
  if (found) return found;
  found = {
    classes: [],
    classByName: new Map(),
    interfaces: new Map(),
    merged: new Map(),
    enums: new Map(),
    aliases: new Map(),
    variables: new Map(),
    imports: [],
    exports: [],
  };
  const first = <T>(map: Map<string, T>, name: TS.Identifier | undefined, node: T): void => {
    if (name && !map.has(name.text)) map.set(name.text, node);
  };
  const merge = (st: TS.ClassDeclaration | TS.InterfaceDeclaration): void => {
    const name = st.name?.text;
    if (name === undefined) return;
    const parts = found.merged.get(name);
    if (parts) parts.push(st);
    else found.merged.set(name, [st]);
  };
  for (const st of sf.statements) {
    declFiles.set(st, sf);
    if (ts.isClassDeclaration(st)) {
      found.classes.push(st);
      first(found.classByName, st.name, st);
      merge(st);
    } else if (ts.isInterfaceDeclaration(st)) {
      first(found.interfaces, st.name, st);
      merge(st);
    } else if (ts.isEnumDeclaration(st)) first(found.enums, st.name, st);
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
  return (name.elements as ReadonlyArray<TS.BindingElement | TS.OmittedExpression>).flatMap((e) =>
    ts.isBindingElement(e) ? boundNames(e.name) : [],
  );
}

/** `export { a as b }`: each specifier's local name (a) and exported name (b). */
export function namedExports(exp: TS.ExportDeclaration, sf: TS.SourceFile): Array<{ name: string; alias: string }> {
  const clause = exp.exportClause;
  if (!clause || !ts.isNamedExports(clause)) return [];
  return clause.elements.map((e) => ({ name: textOf(e.propertyName ?? e.name, sf), alias: textOf(e.name, sf) }));
}

/** Where an imported name comes from: its module specifier and the name it is exported under. */
export interface ImportedName {
  specifier: string;
  name: string;
}

/** A file's imports by local name, built once per file: the first import of a name wins, as each lookup would find it. */
export interface ImportTable {
  /** `import { a as b }` and `import b from`: b → a and its module, or 'default' (how types are looked up). */
  types: Map<string, ImportedName | 'default'>;
  /** `import { a as b }` and `import * as b`: b → a and its module, or just the module (how values are looked up). */
  values: Map<string, { specifier: string; name?: string }>;
  /** `import * as b`: b → its module. */
  namespaces: Map<string, string>;
}

const importTables = new WeakMap<TS.SourceFile, ImportTable>();

export function importTable(sf: TS.SourceFile): ImportTable {
  let table = importTables.get(sf);
  if (table) return table;
  table = { types: new Map(), values: new Map(), namespaces: new Map() };
  for (const imp of fileIndex(sf).imports) {
    const specifier = specifierOf(imp.moduleSpecifier) ?? '';
    const ns = namespaceImport(imp);
    if (ns !== undefined) {
      if (!table.namespaces.has(ns)) table.namespaces.set(ns, specifier);
      if (!table.values.has(ns)) table.values.set(ns, { specifier });
    }
    for (const { name, alias } of namedImports(imp, sf)) {
      if (!table.types.has(alias)) table.types.set(alias, { specifier, name });
      if (!table.values.has(alias)) table.values.set(alias, { specifier, name });
    }
    const defaultName = imp.importClause?.name?.text;
    if (defaultName !== undefined && !table.types.has(defaultName)) table.types.set(defaultName, 'default');
  }
  importTables.set(sf, table);
  return table;
}

/** `import { a as b }`: each specifier's exported name (a) and local name (b). */
function namedImports(imp: TS.ImportDeclaration, sf: TS.SourceFile): Array<{ name: string; alias: string }> {
  const bindings = imp.importClause?.namedBindings;
  if (!bindings || !ts.isNamedImports(bindings)) return [];
  return bindings.elements.map((e) => ({ name: textOf(e.propertyName ?? e.name, sf), alias: textOf(e.name, sf) }));
}

function namespaceImport(imp: TS.ImportDeclaration): string | undefined {
  const bindings = imp.importClause?.namedBindings;
  return bindings && ts.isNamespaceImport(bindings) ? bindings.name.text : undefined;
}
