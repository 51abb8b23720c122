/**
 * Name resolution without a type checker: a type name is looked up in its own file, then followed
 * through the file's imports. Relative and tsconfig-alias imports are followed into the loaded user files;
 * `@kubernetes/client-node` names become core types and the runtime's scalar names become known
 * types — by name, so their declarations are never loaded (that is what keeps the pass fast).
 */
import { posix } from 'node:path';
import type { SourceFile, ClassDeclaration, InterfaceDeclaration, EnumDeclaration, TypeAliasDeclaration } from 'ts-morph';
import { Node } from './tsmorph.js';
import { moduleFile } from './exports.js';
import { isKnownTypeName, type KnownTypeName } from '../model.js';

export type Declaration = ClassDeclaration | InterfaceDeclaration | EnumDeclaration | TypeAliasDeclaration;

export type Resolved =
  | { kind: 'decl'; decl: Declaration }
  | { kind: 'known'; name: KnownTypeName }
  | { kind: 'core'; name: string }
  | { kind: 'missing'; reason: string };

const CLIENT_NODE = '@kubernetes/client-node';

/** client-node names that stand for one of the known scalar types. */
const CLIENT_NODE_KNOWN: Record<string, KnownTypeName> = { V1ObjectMeta: 'ObjectMeta', V1Condition: 'Condition' };

export class Resolver {
  constructor(private readonly files: ReadonlyMap<string, SourceFile>) {}

  /** Resolves `name` (or `ns.name` when `qualifier` is given) as seen from `from`. */
  resolve(name: string, from: SourceFile, qualifier?: string): Resolved {
    if (qualifier !== undefined) return this.resolveQualified(qualifier, name, from);
    const local = localDeclaration(from, name);
    if (local) return { kind: 'decl', decl: local };
    for (const imp of from.getImportDeclarations()) {
      for (const spec of imp.getNamedImports()) {
        const alias = spec.getAliasNode()?.getText() ?? spec.getName();
        if (alias === name) return this.fromModule(imp.getModuleSpecifierValue(), spec.getName(), from);
      }
      if (imp.getDefaultImport()?.getText() === name) return { kind: 'missing', reason: 'default imports of types are not supported' };
    }
    if (name === 'Date') return { kind: 'known', name: 'Time' };
    return { kind: 'missing', reason: `'${name}' is not declared in ${from.getBaseName()} nor imported` };
  }

  private resolveQualified(ns: string, name: string, from: SourceFile): Resolved {
    for (const imp of from.getImportDeclarations()) {
      if (imp.getNamespaceImport()?.getText() === ns) return this.fromModule(imp.getModuleSpecifierValue(), name, from);
    }
    return { kind: 'missing', reason: `'${ns}' is not a namespace import` };
  }

  private fromModule(specifier: string, name: string, from: SourceFile, seen: ReadonlySet<string> = new Set()): Resolved {
    if (specifier === CLIENT_NODE) {
      const known = CLIENT_NODE_KNOWN[name];
      return known ? { kind: 'known', name: known } : { kind: 'core', name };
    }
    const target = moduleFile(from, specifier);
    if (target && !seen.has(target.getFilePath())) {
      // Each re-export chain carries its own visited set: a dead end through `export *` must
      // not hide the same file behind a later `export { a as b }`.
      const found = this.exported(target, name, new Set([...seen, target.getFilePath()]));
      if (found) return found;
    }
    // Not a loaded user file (the embedded runtime, or a package): the scalar names are known.
    if (isKnownTypeName(name)) return { kind: 'known', name };
    return {
      kind: 'missing',
      reason: `'${name}' from '${specifier}' is neither a type in the API files, a @kubernetes/client-node type, nor a known tsop type`,
    };
  }

  /** `name` as exported by `file`, following `export { a as b } from` and `export * from`. */
  private exported(file: SourceFile, name: string, seen: ReadonlySet<string>): Resolved | undefined {
    const local = localDeclaration(file, name);
    if (local) return { kind: 'decl', decl: local };
    for (const exp of file.getExportDeclarations()) {
      const spec = exp.getModuleSpecifierValue();
      if (spec === undefined) continue;
      const named = exp.getNamedExports();
      if (named.length === 0) {
        const r = this.fromModule(spec, name, file, seen);
        if (r.kind !== 'missing') return r;
        continue;
      }
      for (const n of named) {
        const alias = n.getAliasNode()?.getText() ?? n.getName();
        if (alias === name) return this.fromModule(spec, n.getName(), file, seen);
      }
    }
    return undefined;
  }

}

function localDeclaration(file: SourceFile, name: string): Declaration | undefined {
  return file.getClass(name) ?? file.getInterface(name) ?? file.getEnum(name) ?? file.getTypeAlias(name);
}

export function isClassOrInterface(decl: Declaration): decl is ClassDeclaration | InterfaceDeclaration {
  return Node.isClassDeclaration(decl) || Node.isInterfaceDeclaration(decl);
}
