/**
 * Uses of deprecated API in a project, for `tsop manifests` and `tsop dev` to warn about with
 * file:line before the next minor version removes it (tsop's compatibility promise: deprecate,
 * keep the old form working, warn, remove a minor later). The deprecations are read from the
 * project's own code — the `@deprecated` JSDoc tsop's templates and runtime put on what they keep
 * for old code — so each one is declared once, where it lives, with its since/removal text:
 *
 * - a class member marked @deprecated, used through `this.` in that class (a scaffolded
 *   reconciler's `client` getter);
 * - a constructor overload marked @deprecated, called with an argument known to be its first
 *   parameter's type (`new XReconciler(mgr.client)`, or a variable made by `createClient`);
 * - an export of the embedded runtime marked @deprecated, imported by a project file; a name
 *   re-exported with @deprecated on its specifier (one that moved to another module and is kept
 *   at its old path for a while) only where it is imported through that module.
 *
 * Text-level and fast (no type-checker): it looks only where a deprecation is declared, so a
 * project without any costs one read of its sources.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { filesUnder } from './files.js';

export interface DeprecatedUse {
  file: string;
  line: number;
  /** The warning: what, since when, what to use instead. */
  message: string;
}

interface Source {
  path: string;
  text: string;
}

/** A JSDoc whose @deprecated text is captured, followed by the declaration it documents. */
const DEPRECATED_DOC = /\/\*\*((?:(?!\*\/)[\s\S])*?@deprecated\s+((?:(?!\*\/)[\s\S])*?))\*\/\s*/g;
const RUNTIME = 'src/runtime/';

export function findDeprecatedUses(root: string): DeprecatedUse[] {
  const sources = projectSources(root);
  const own = sources.filter((s) => !s.path.startsWith(RUNTIME));
  const uses: DeprecatedUse[] = [];
  for (const file of own) uses.push(...memberUses(file), ...constructorUses(file, own));
  uses.push(
    ...runtimeExportUses(
      sources.filter((s) => s.path.startsWith(RUNTIME)),
      own,
    ),
  );
  return uses.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/** `this.<member>` in the file that declares `<member>` @deprecated (outside the member itself). */
function memberUses(file: Source): DeprecatedUse[] {
  const out: DeprecatedUse[] = [];
  for (const d of deprecations(file.text)) {
    const member =
      /^(?:(?:public|protected|private|static|readonly|async|override)\s+)*(?:get\s+|set\s+)?([A-Za-z_$][\w$]*)\s*[(:;=]/.exec(
        d.declaration,
      );
    if (!member || member[1] === 'constructor') continue;
    const name = member[1]!;
    for (const m of file.text.matchAll(new RegExp(`\\bthis\\.${escapeRegExp(name)}\\b`, 'g'))) {
      if (m.index >= d.start && m.index < d.end) continue;
      out.push({
        file: file.path,
        line: lineOf(file.text, m.index),
        message: `this.${name} ${deprecatedText(d.note)}`,
      });
    }
  }
  return out;
}

/** `new C(arg)` where C has a @deprecated constructor overload whose first parameter is what `arg` is. */
function constructorUses(declaring: Source, files: readonly Source[]): DeprecatedUse[] {
  const out: DeprecatedUse[] = [];
  for (const d of deprecations(declaring.text)) {
    const overload = /^constructor\s*\(\s*([A-Za-z_$][\w$]*)\s*\??\s*:\s*([A-Za-z_$][\w$]*)/.exec(d.declaration);
    if (!overload) continue;
    const [, param, type] = overload as unknown as [string, string, string];
    // The class the overload belongs to: the last one declared before it.
    const cls = [...declaring.text.slice(0, d.start).matchAll(/\bclass\s+([A-Za-z_$][\w$]*)/g)].pop()?.[1];
    if (!cls) continue;
    for (const file of files) {
      for (const m of file.text.matchAll(
        new RegExp(`\\bnew\\s+${escapeRegExp(cls)}\\s*\\(\\s*([^,)]+?)\\s*[,)]`, 'g'),
      )) {
        if (!isOfType(m[1]!, param, type, file.text)) continue;
        out.push({
          file: file.path,
          line: lineOf(file.text, m.index),
          message: `new ${cls}(${m[1]}) ${deprecatedText(d.note)}`,
        });
      }
    }
  }
  return out;
}

/**
 * Whether `arg` is known to be a `type`: a property named as the parameter (`mgr.client` for
 * `client`), or a variable of the file declared with that type or made by `create<type>(…)`.
 */
function isOfType(arg: string, param: string, type: string, text: string): boolean {
  if (new RegExp(`^[\\w$.]+\\.${escapeRegExp(param)}$`).test(arg)) return true;
  if (new RegExp(`^create${escapeRegExp(type)}\\(`).test(arg)) return true;
  if (!/^[A-Za-z_$][\w$]*$/.test(arg)) return false;
  return new RegExp(
    `\\b${escapeRegExp(arg)}\\s*(?::\\s*${escapeRegExp(type)}\\b|=\\s*create${escapeRegExp(type)}\\()`,
  ).test(text);
}

/**
 * Imports of runtime exports marked @deprecated: a declaration (a function, class, const or type
 * of src/runtime) wherever it is imported from; a deprecated re-export only through its module.
 */
function runtimeExportUses(runtime: readonly Source[], files: readonly Source[]): DeprecatedUse[] {
  const declared = new Map<string, string>();
  /** `<module path>:<name>` → note, for names a module re-exports deprecated. */
  const reexported = new Map<string, string>();
  for (const file of runtime) {
    for (const d of deprecations(file.text)) {
      const name =
        /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|class|const|let|interface|type|enum)\s+([A-Za-z_$][\w$]*)/.exec(
          d.declaration,
        )?.[1];
      if (name) declared.set(name, d.note);
    }
    for (const [name, note] of deprecatedReexports(file.text)) reexported.set(`${file.path}:${name}`, note);
  }
  if (declared.size === 0 && reexported.size === 0) return [];
  const out: DeprecatedUse[] = [];
  for (const file of files) {
    for (const m of file.text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+(['"])([^'"]*runtime\/[^'"]*)\2/g)) {
      const module = resolveImport(file.path, m[3]!);
      for (const raw of m[1]!.split(',')) {
        const name = raw
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!;
        const note = declared.get(name) ?? reexported.get(`${module}:${name}`);
        if (note !== undefined)
          out.push({
            file: file.path,
            line: lineOf(file.text, m.index),
            message: `${name} (from the runtime) ${deprecatedText(note)}`,
          });
      }
    }
  }
  return out;
}

/** The exported name → note of each specifier of an `export { … }` that carries a @deprecated JSDoc. */
function deprecatedReexports(text: string): Map<string, string> {
  const out = new Map<string, string>();
  // The braces' content: JSDoc comments whole (a note may hold braces), else anything but a brace.
  for (const block of text.matchAll(/\bexport\s+(?:type\s+)?\{((?:\/\*[\s\S]*?\*\/|[^{}])*)\}/g)) {
    for (const d of deprecations(block[1]!)) {
      const specifier = /^(?:type\s+)?([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*))?/.exec(d.declaration);
      if (specifier) out.set(specifier[2] ?? specifier[1]!, d.note);
    }
  }
  return out;
}

/** The project path of the TypeScript file a relative import names (`.js` → `.ts`, a folder → its index.ts). */
function resolveImport(from: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const path = posix.normalize(posix.join(posix.dirname(from), specifier));
  if (/\.[cm]?js$/.test(path)) return path.replace(/\.([cm]?)js$/, '.$1ts');
  return /\.[cm]?ts$/.test(path) ? path : `${path}/index.ts`;
}

interface Deprecation {
  note: string;
  /** The declaration after the JSDoc, from its first character. */
  declaration: string;
  /** Where the JSDoc starts and where the declaration's body ends (roughly: its closing line). */
  start: number;
  end: number;
}

function deprecations(text: string): Deprecation[] {
  const out: Deprecation[] = [];
  for (const m of text.matchAll(DEPRECATED_DOC)) {
    const at = m.index + m[0].length;
    const declaration = text.slice(at, at + 400);
    // The member's body: up to the next line indented like the declaration that closes it.
    const indent = /[ \t]*$/.exec(text.slice(0, at))?.[0] ?? '';
    const close = text.indexOf(`\n${indent}}`, at);
    const semicolon = text.indexOf(';\n', at);
    const end = declaration.split('\n')[0]!.trimEnd().endsWith(';')
      ? semicolon + 1
      : close < 0
        ? text.length
        : close + indent.length + 2;
    out.push({ note: m[2]!.replace(/\s*\n\s*\*\s*/g, ' ').trim(), declaration, start: m.index, end });
  }
  return out;
}

/** "is deprecated since tsop 0.2.0, removed in 0.3.0: use …" from the JSDoc's @deprecated text. */
function deprecatedText(note: string): string {
  return note === '' ? 'is deprecated' : `is deprecated ${note}`;
}

function projectSources(root: string): Source[] {
  return ['src', 'test']
    .flatMap((dir) => filesUnder(root, dir, new Set(['node_modules'])))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))
    .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
