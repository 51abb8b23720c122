/**
 * The TypeScript model → source text, laid out as a person writes an API file: imports, then
 * each type with its doc comment and decorators, then the kind and its typed constant. What could
 * not be expressed is written as a `// tsop: not expressible: …` line above the place it concerns.
 * Alongside the text, which line holds which decorator, so an error `tsop manifests` reports at
 * a line can be traced back to the model.
 */
import type { JSONValue } from '../codegen/jsonschema.js';
import { withHeader } from '../scaffold/boilerplate.js';
import type {
  Declaration,
  Decorator,
  Loss,
  Scalar,
  TsAlias,
  TsClass,
  TsField,
  TsFile,
  TsKindConst,
  TsType,
} from './model.js';

/** What stands on a line of the rendered text. */
export interface LineRef {
  decl: Declaration;
  field?: TsField;
  decorator?: Decorator;
}

export interface Rendered {
  text: string;
  /** 1-based line → what stands there (decorators and fields). */
  lines: Map<number, LineRef>;
  /** Each loss and the line of its comment. */
  losses: Array<{ line: number; loss: Loss }>;
}

const LOSS_COMMENT = '// tsop: not expressible:';

/** Renders `file` below `header` (the project's license header, possibly empty). */
export function renderFile(file: TsFile, header = ''): Rendered {
  const imports = new Imports(file);
  const body: Entry[] = [];
  for (const decl of file.declarations) {
    body.push('');
    if (decl.kind === 'class') renderClass(decl, file, imports, body);
    else if (decl.kind === 'alias') renderAlias(decl, imports, body);
    else renderKindConst(decl, imports, body);
  }
  // The license header goes on top as every scaffolded file has it (withHeader); lines count from its end.
  const offset = withHeader(header, '').split('\n').length - 1;
  const head = [...docLines(file.about, ''), ...imports.lines()];
  const lines = new Map<number, LineRef>();
  const losses: Rendered['losses'] = [];
  const out = [...head];
  for (const entry of body) {
    if (typeof entry === 'string') out.push(entry);
    else {
      out.push(entry.text);
      if ('ref' in entry) lines.set(out.length + offset, entry.ref);
      else for (const loss of entry.losses) losses.push({ line: out.length + offset, loss });
    }
  }
  return { text: withHeader(header, `${out.join('\n')}\n`), lines, losses };
}

/** A line of text, a line naming what stands on it, or a loss comment naming its losses. */
type Entry = string | { text: string; ref: LineRef } | { text: string; losses: Loss[] };

function renderClass(c: TsClass, file: TsFile, imports: Imports, out: Entry[]): void {
  const decorated = file.style === 'decorated';
  out.push(...lossLines(c.losses, ''), ...docLines(c.doc, ''));
  if (decorated)
    for (const d of c.decorators)
      out.push({
        text: `@${imports.marker(d.name)}(${d.args.map(literal).join(', ')})`,
        ref: { decl: c, decorator: d },
      });
  const exported = c.exportedAs === undefined;
  out.push(decorated ? `${exported ? 'export ' : ''}class ${c.name} {` : `export interface ${c.name} {`);
  for (const f of c.fields) {
    out.push(...lossLines(f.losses, '  '), ...docLines(f.doc, '  '));
    if (decorated)
      for (const d of f.decorators)
        out.push({
          text: `  @${imports.marker(d.name)}(${d.args.map(literal).join(', ')})`,
          ref: { decl: c, field: f, decorator: d },
        });
    const mark = f.optional ? '?' : decorated ? '!' : '';
    out.push({ text: `  ${propertyName(f.name)}${mark}: ${typeText(f.type, imports)};`, ref: { decl: c, field: f } });
  }
  out.push('}');
  if (c.exportedAs !== undefined) {
    out.push(
      '',
      `// ${c.exportedAs} names a global the decorator code reads while the class is defined, so the class is`,
      `// declared as ${c.name} and exported as ${c.exportedAs}; tsop manifests takes ${c.exportedAs} as the kind.`,
      `export { ${c.name} as ${c.exportedAs} };`,
    );
  }
}

function renderAlias(a: TsAlias, imports: Imports, out: Entry[]): void {
  out.push(...lossLines(a.losses, ''));
  const tags = a.tags.map((t) => ` * @${t.tag} ${t.value}`);
  // The description ends where the first tag starts.
  if (tags.length === 0) out.push(...docLines(a.doc, ''));
  else out.push('/**', ...(a.doc === undefined ? [] : [...docBody(a.doc, ''), ' *']), ...tags, ' */');
  out.push({ text: `export type ${a.name} = ${typeText(a.type, imports)};`, ref: { decl: a } });
}

function renderKindConst(k: TsKindConst, imports: Imports, out: Entry[]): void {
  const gv = k.groupVersion
    ? `group: ${literal(k.groupVersion.group)}, version: ${literal(k.groupVersion.version)}`
    : 'group: groupVersion.group, version: groupVersion.version';
  if (!k.groupVersion) imports.useGroupVersion();
  out.push(
    ...docLines(
      `Names ${k.kindName} objects in client calls and watches; \`client.get(${k.name}, key)\` returns a ${k.kindName}.`,
      '',
    ),
  );
  out.push(`export const ${k.name}: ${imports.kindType()}<${k.typeName}> = { ${gv}, kind: ${literal(k.kindName)} };`);
}

/** The import lines a file needs, with local names that do not clash with its own declarations. */
class Imports {
  private readonly markers = new Set<string>();
  private readonly types = new Set<string>();
  private readonly core = new Set<string>();
  private kind = false;
  private groupVersion = false;
  private readonly declared: Set<string>;

  constructor(private readonly file: TsFile) {
    this.declared = new Set(file.declarations.map((d) => d.name));
  }

  private local(name: string, suffix: string): string {
    return this.declared.has(name) ? `${name}${suffix}` : name;
  }

  marker(name: string): string {
    this.markers.add(name);
    return this.local(name, 'Marker');
  }

  type(name: string): string {
    this.types.add(name);
    return this.local(name, 'Type');
  }

  coreType(name: string): string {
    this.core.add(name);
    return this.local(name, 'Model');
  }

  kindType(): string {
    this.kind = true;
    return this.local('Kind', 'Type');
  }

  useGroupVersion(): void {
    this.groupVersion = true;
  }

  lines(): string[] {
    const member = (name: string, suffix: string, typeOnly: boolean): string => {
      const local = this.local(name, suffix);
      return `${typeOnly ? 'type ' : ''}${name}${local === name ? '' : ` as ${local}`}`;
    };
    const out: string[] = [];
    const fromMarkers = [
      ...[...this.markers].sort().map((n) => member(n, 'Marker', false)),
      ...[...this.types].sort().map((n) => member(n, 'Type', true)),
    ];
    // Types alone (external types have no markers) are a type-only import.
    const typesOnly = this.markers.size === 0;
    if (fromMarkers.length > 0)
      out.push(
        `import ${typesOnly ? 'type ' : ''}{ ${(typesOnly ? fromMarkers.map((m) => m.replace(/^type /, '')) : fromMarkers).join(', ')} } from '${this.file.runtimeDir}/markers/index.js';`,
      );
    if (this.kind)
      out.push(
        `import type { ${member('Kind', 'Type', false)} } from '${this.file.runtimeDir}/apimachinery/index.js';`,
      );
    if (this.core.size > 0)
      out.push(
        `import type { ${[...this.core]
          .sort()
          .map((n) => member(n, 'Model', false))
          .join(', ')} } from '@kubernetes/client-node';`,
      );
    if (this.groupVersion) out.push(`import { groupVersion } from './groupversion.js';`);
    return out;
  }
}

/** Declarations are rendered before the imports are written, so every use has been counted. */
function typeText(t: TsType, imports: Imports): string {
  switch (t.kind) {
    case 'primitive':
      return t.name;
    case 'known':
      return imports.type(t.name);
    case 'core':
      return imports.coreType(t.name);
    case 'named':
      return t.name;
    case 'array': {
      const inner = typeText(t.items, imports);
      return needsParens(t.items) ? `(${inner})[]` : `${inner}[]`;
    }
    case 'map':
      return `Record<string, ${typeText(t.values, imports)}>`;
    case 'literals':
      return t.values.map((v: Scalar) => literal(v)).join(' | ');
    case 'nullable':
      return `${typeText(t.type, imports)} | null`;
  }
}

const needsParens = (t: TsType): boolean => t.kind === 'nullable' || (t.kind === 'literals' && t.values.length > 1);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function propertyName(name: string): string {
  return IDENTIFIER.test(name) ? name : literal(name);
}

/** A JSON value as a TypeScript literal the marker reader evaluates back to the same value. */
function literal(v: JSONValue): string {
  if (typeof v === 'string') return `'${v.replace(/[\\'\u0000-\u001f\u2028\u2029\u007f]/g, escapeChar)}'`;
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  const entries = Object.entries(v).map(([k, x]) => `${IDENTIFIER.test(k) ? k : literal(k)}: ${literal(x)}`);
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(c: string): string {
  return ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** A doc comment, one line when short and plain, else one ` * ` line per line of text. */
function docLines(text: string | undefined, indent: string): string[] {
  if (text === undefined) return [];
  if (
    !text.includes('\n') &&
    text.length < 100 &&
    !/[\s*]$/.test(text) &&
    !/^\s/.test(text) &&
    !text.includes('*/') &&
    !text.startsWith('@')
  )
    return [`${indent}/** ${text} */`];
  return [`${indent}/**`, ...docBody(text, indent), `${indent} */`];
}

/** The ` * ` lines of a doc comment's text; a `*∕` or a leading `@` is escaped (and named as a loss elsewhere). */
function docBody(text: string, indent: string): string[] {
  return text
    .replace(/\*\//g, '*\\/')
    .split('\n')
    .map((l) => (l === '' ? `${indent} *` : `${indent} * ${l.replace(/^(\s*)@/, '$1\\@')}`));
}

/** One comment line per distinct loss text, each naming the losses it stands for. */
function lossLines(losses: readonly Loss[], indent: string): Entry[] {
  const byText = new Map<string, Loss[]>();
  for (const l of losses) byText.set(l.what, [...(byText.get(l.what) ?? []), l]);
  return [...byText].map(([what, ls]) => ({ text: `${indent}${LOSS_COMMENT} ${what}`, losses: ls }));
}
