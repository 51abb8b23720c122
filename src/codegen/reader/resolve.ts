/**
 * Name resolution without a type checker: a type name is looked up in its own file, then followed
 * through the file's imports. Relative and tsconfig-alias imports are followed into the loaded user files;
 * `@kubernetes/client-node` names become core types and the runtime's scalar names become known
 * types — by name, so their declarations are never loaded (that is what keeps the pass fast).
 */
import { posix } from 'node:path';
import type { ts as TS } from 'ts-morph';
import { MARKERS_MODULE, moduleFile } from './exports.js';
import { fileIndex, importTable, namedExports, specifierOf } from './syntax.js';
import { isKnownTypeName, type KnownTypeName } from '../model.js';

export type Declaration = TS.ClassDeclaration | TS.InterfaceDeclaration | TS.EnumDeclaration | TS.TypeAliasDeclaration;

export type Resolved =
  | { kind: 'decl'; decl: Declaration }
  | { kind: 'known'; name: KnownTypeName }
  | { kind: 'core'; name: string }
  | { kind: 'missing'; reason: string };

const CLIENT_NODE = '@kubernetes/client-node';

/** client-node names that stand for one of the known scalar types. */
const CLIENT_NODE_KNOWN: Record<string, KnownTypeName> = { V1ObjectMeta: 'ObjectMeta', V1Condition: 'Condition' };

const BINARY =
  'has no JSON form (JSON.stringify writes its bytes as an object of numbered keys, and the ' +
  "API server sends base64 text); use Bytes from tsop's markers module (base64 text, schema " +
  "string/byte, Go's []byte)";

/** JavaScript's own types that JSON does not carry as they are, with what to write instead. */
const NO_JSON_FORM: Record<string, string> = {
  Uint8Array: `Uint8Array ${BINARY}`,
  Buffer: `Buffer ${BINARY}`,
  ArrayBuffer: `ArrayBuffer ${BINARY}`,
  Map: 'a Map has no JSON form (JSON.stringify writes {}); use Record<string, T>',
  Set: "a Set has no JSON form (JSON.stringify writes {}); use T[] with @ListType('set')",
};

/** Whether `name` is one of JavaScript's types with no JSON form (the reader says what to use instead). */
export function hasNoJsonForm(name: string): boolean {
  return Object.hasOwn(NO_JSON_FORM, name);
}

export class Resolver {
  /** Each file's names as resolved so far: the same name is looked up once per file. */
  private readonly resolved = new Map<TS.SourceFile, Map<string, Resolved>>();

  /** Resolves `name` (or `ns.name` when `qualifier` is given) as seen from `from`. */
  resolve(name: string, from: TS.SourceFile, qualifier?: string): Resolved {
    let names = this.resolved.get(from);
    if (!names) this.resolved.set(from, (names = new Map()));
    const key = qualifier === undefined ? name : `${qualifier}.${name}`;
    let found = names.get(key);
    if (!found) names.set(key, (found = this.lookup(name, from, qualifier)));
    return found;
  }

  private lookup(name: string, from: TS.SourceFile, qualifier?: string): Resolved {
    if (qualifier !== undefined) return this.resolveQualified(qualifier, name, from);
    const local = localDeclaration(from, name);
    if (local) return { kind: 'decl', decl: local };
    const imported = importTable(from).types.get(name);
    if (imported === 'default') return { kind: 'missing', reason: 'default imports of types are not supported' };
    if (imported) return this.fromModule(imported.specifier, imported.name, from);
    if (name === 'Date') return { kind: 'known', name: 'Time' };
    const builtin = hasNoJsonForm(name) ? NO_JSON_FORM[name] : undefined;
    if (builtin !== undefined) return { kind: 'missing', reason: builtin };
    return { kind: 'missing', reason: `'${name}' is not declared in ${posix.basename(from.fileName)} nor imported` };
  }

  private resolveQualified(ns: string, name: string, from: TS.SourceFile): Resolved {
    const specifier = importTable(from).namespaces.get(ns);
    if (specifier !== undefined) return this.fromModule(specifier, name, from);
    return { kind: 'missing', reason: `'${ns}' is not a namespace import` };
  }

  private fromModule(
    specifier: string,
    name: string,
    from: TS.SourceFile,
    seen: ReadonlySet<string> = new Set(),
  ): Resolved {
    if (specifier === CLIENT_NODE) {
      const known = CLIENT_NODE_KNOWN[name];
      return known ? { kind: 'known', name: known } : { kind: 'core', name };
    }
    const target = moduleFile(from, specifier);
    if (target && !seen.has(target.fileName)) {
      // Each re-export chain carries its own visited set: a dead end through `export *` must
      // not hide the same file behind a later `export { a as b }`.
      const found = this.exported(target, name, new Set([...seen, target.fileName]));
      if (found) return found;
    }
    // Not a loaded user file: tsop's markers module declares the known scalar types. Another
    // package's type of the same name (luxon's Duration) is not the Kubernetes one.
    if (isKnownTypeName(name) && MARKERS_MODULE.test(specifier)) return { kind: 'known', name };
    if (isKnownTypeName(name)) {
      return {
        kind: 'missing',
        reason: `'${name}' from '${specifier}' is that package's type, not the Kubernetes ${name} tsop knows; import tsop's ${name} from the markers module, or declare the shape yourself`,
      };
    }
    return {
      kind: 'missing',
      reason: `'${name}' from '${specifier}' is neither a type in the API files, a @kubernetes/client-node type, nor a known tsop type`,
    };
  }

  /** `name` as exported by `file`, following `export { a as b } from` and `export * from`. */
  private exported(file: TS.SourceFile, name: string, seen: ReadonlySet<string>): Resolved | undefined {
    const local = localDeclaration(file, name);
    if (local) return { kind: 'decl', decl: local };
    for (const exp of fileIndex(file).exports) {
      const spec = specifierOf(exp.moduleSpecifier);
      if (spec === undefined) continue;
      const named = namedExports(exp, file);
      if (named.length === 0) {
        const r = this.fromModule(spec, name, file, seen);
        if (r.kind !== 'missing') return r;
        continue;
      }
      for (const n of named) if (n.alias === name) return this.fromModule(spec, n.name, file, seen);
    }
    return undefined;
  }
}

function localDeclaration(file: TS.SourceFile, name: string): Declaration | undefined {
  const index = fileIndex(file);
  return index.classByName.get(name) ?? index.interfaces.get(name) ?? index.enums.get(name) ?? index.aliases.get(name);
}
