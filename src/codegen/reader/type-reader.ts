/**
 * TypeScript syntax → TypeRef, and classes/interfaces → TypeDefs (registered once, by id). Works
 * on type annotations only; there is no type checker, so every type must be spelled out (a field
 * without an annotation is an error, not an inference).
 */
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import type { Diagnostic, FieldDef, MarkerUse, TypeDef, TypeRef } from '../model.js';
import { collectMarkers, type ForeignDecorator } from '../collector.js';
import { jsDocMarkers } from './jsdoc-markers.js';
import { constValues, enumOf, typeofScalar } from './consts.js';
import { LiteralError, literalValue } from '../literal.js';
import { cleanDescription } from '../description.js';
import { type Resolver, hasNoJsonForm, type Declaration } from './resolve.js';
import { discriminatedUnion, type UnionMember } from './unions.js';
import { enumValues } from './enums.js';
import { tupleRef } from './tuples.js';
import { mapKeyProblem } from './map-keys.js';
import { heritage, isToJson, membersOf } from './members.js';
import { isBrand, isScalar } from './brands.js';
import {
  fileOf,
  hasModifier,
  mergedDeclarations,
  jsDocDescription,
  lastJsDocOf,
  lineOf,
  nameOf,
  numericValue,
  rawTextOf,
} from './syntax.js';

type SourceFile = TS.SourceFile;
type TypeNode = TS.TypeNode;
type ClassOrInterface = TS.ClassDeclaration | TS.InterfaceDeclaration;
type FieldNode = TS.PropertyDeclaration | TS.PropertySignature | TS.ParameterDeclaration;

const NO_TYPES: readonly TypeNode[] = [];

export class TypeReader {
  readonly types: Record<string, TypeDef> = {};
  /** Warnings: what the reader found but cannot honour without stopping generation. */
  readonly warnings: Diagnostic[] = [];
  /** Decorators from other packages on API types (checked for misspelt markers). */
  readonly foreign: ForeignDecorator[] = [];
  private readonly aliasStack: string[] = [];

  constructor(
    private readonly resolver: Resolver,
    private readonly relPath: (file: SourceFile) => string,
    readonly diagnostics: Diagnostic[],
    /** Whether fields declared in this project file are optional by default (its group-version says `fields: 'optional'`). */
    private readonly optionalByDefault: (file: string) => boolean = () => false,
  ) {}

  private readonly optionalFiles = new Map<string, boolean>();

  private fieldsOptionalIn(file: string): boolean {
    let v = this.optionalFiles.get(file);
    if (v === undefined) this.optionalFiles.set(file, (v = this.optionalByDefault(file)));
    return v;
  }

  /** The id of each declaration read without type arguments: most are referred to many times. */
  private readonly plainIds = new Map<ClassOrInterface, string>();

  /** Registers a class or interface (and, lazily, what its fields use); returns its id. */
  typeDef(
    decl: ClassOrInterface,
    typeArgs?: { env: ReadonlyMap<string, TypeRef>; key: string; shown: string },
  ): string {
    if (!typeArgs) {
      const known = this.plainIds.get(decl);
      if (known !== undefined) return known;
    }
    const sf = fileOf(decl);
    const file = this.relPath(sf);
    const plain = decl.name?.text ?? 'default';
    const name = typeArgs ? `${plain}<${typeArgs.shown}>` : plain;
    const id = typeArgs ? `${file}#${plain}<${typeArgs.key}>` : `${file}#${plain}`;
    if (!typeArgs) this.plainIds.set(decl, id);
    if (this.types[id]) return id;
    const def: TypeDef = { id, name, fields: [], markers: [], pos: { file, line: lineOf(decl, sf) } };
    this.types[id] = def; // registered first, so recursive references terminate
    // Merged declarations (a class and interfaces of its name) are one type: the first doc found wins, markers add up.
    const parts = mergedDeclarations(decl);
    const description = parts.map((p) => docOf(p, sf)).find((d) => d !== undefined);
    if (description !== undefined) def.description = description;
    def.markers = parts.flatMap((p) => [
      ...collectMarkers(p, sf, file, this.diagnostics, this.foreign),
      ...this.docMarkers(p, sf, file, plain),
    ]);
    // A declaration's type parameters are in scope in its own fields only.
    const outer = this.env;
    this.env = typeArgs?.env ?? new Map();
    try {
      def.fields = this.fieldsOf(decl, def);
    } finally {
      this.env = outer;
    }
    return id;
  }

  /** Type parameter → the concrete type it stands for, while a generic declaration's fields are read. */
  private env: ReadonlyMap<string, TypeRef> = new Map();

  /**
   * `Page<Item>`: the generic declaration with its type parameters bound to the arguments (or
   * their defaults), as its own type; the same arguments give the same type.
   */
  private instantiate(decl: Declaration, args: readonly TypeNode[], file: SourceFile, text: string): TypeRef {
    const declName = decl.name?.text;
    const params = ts.isEnumDeclaration(decl) ? [] : (decl.typeParameters ?? []);
    if (params.length === 0)
      return { kind: 'unsupported', text, reason: `${declName ?? 'it'} takes no type arguments` };
    if (args.length > params.length)
      return {
        kind: 'unsupported',
        text,
        reason: `${declName ?? 'it'} takes ${params.length} type argument${params.length === 1 ? '' : 's'}, got ${args.length}`,
      };
    const env = new Map<string, TypeRef>();
    const keys: string[] = [];
    const shown: string[] = [];
    for (const [i, p] of params.entries()) {
      const arg = args[i];
      const def = p.default;
      if (!arg && !def)
        return {
          kind: 'unsupported',
          text,
          reason: `type parameter ${p.name.text} of ${declName ?? 'it'} has no argument and no default`,
        };
      // Arguments are written in the using file; defaults in the declaring one, and may use earlier parameters.
      const ref = arg ? this.typeRef(arg, file) : this.withEnv(env, () => this.typeRef(def, fileOf(decl)));
      env.set(p.name.text, ref);
      keys.push(refKey(ref, true));
      shown.push(refKey(ref));
    }
    const key = keys.join(', ');
    if (ts.isClassDeclaration(decl) || ts.isInterfaceDeclaration(decl)) {
      return {
        kind: 'named',
        id: this.typeDef(decl, { env, key, shown: shown.join(', ') }),
        name: `${declName ?? text}<${shown.join(', ')}>`,
      };
    }
    return this.withEnv(env, () => this.declaration(decl, text, key));
  }

  private withEnv<T>(env: ReadonlyMap<string, TypeRef>, f: () => T): T {
    const outer = this.env;
    this.env = env;
    try {
      return f();
    } finally {
      this.env = outer;
    }
  }

  /**
   * The fields of a class or interface and of every declaration merged with it (an interface of
   * the same name in the same file: TypeScript's declaration merging, which loses nothing), bases
   * first so a redeclared field wins; and, from a `toJSON()` method, what it serialises as.
   */
  private fieldsOf(decl: ClassOrInterface, def: TypeDef): FieldDef[] {
    const fields = new Map<string, FieldDef>();
    const sf = fileOf(decl);
    const declName = decl.name?.text ?? 'class';
    const parts = mergedDeclarations(decl);
    for (const part of parts) for (const base of heritage(part, sf)) this.embedBase(base, sf, def, declName, fields);
    for (const part of parts) {
      const own = new Map<string, FieldDef>();
      for (const [m, ctor] of membersOf(part)) {
        if (isToJson(m)) {
          this.readToJson(m, sf, def, declName);
          continue;
        }
        const field = this.field(m, sf, ctor);
        if (!field) continue;
        this.checkDeclaredOnce(own, field, declName);
        fields.set(field.name, field);
      }
    }
    return [...fields.values()];
  }

  /**
   * One base of a class or interface (Go's embedded struct): a class, an interface, an alias of
   * one (or of an object type, or an instantiation), or a core type. Its fields join the type's;
   * a base that is no object type is an error that says what it is.
   */
  private embedBase(
    base: { name: string; qualifier?: string; text: string; args: readonly TypeNode[] },
    sf: SourceFile,
    def: TypeDef,
    declName: string,
    fields: Map<string, FieldDef>,
  ): void {
    const fail = (why: string): void => {
      this.diagnostics.push({
        pos: def.pos,
        message: `${declName}: cannot extend '${base.text}': ${why}; extend a class, an interface, an object type (or an alias of one) or a @kubernetes/client-node type`,
      });
    };
    const r = this.resolver.resolve(base.name, sf, base.qualifier);
    if (r.kind === 'core') {
      (def.coreBases ??= []).push(r.name);
      return;
    }
    if (r.kind === 'missing') {
      fail(r.reason);
      return;
    }
    if (r.kind === 'known') {
      fail(`${r.name} is one of tsop's scalar types, not an object type`);
      return;
    }
    if (ts.isEnumDeclaration(r.decl)) {
      fail(`${base.name} is an enum, not an object type`);
      return;
    }
    const generic = (r.decl.typeParameters?.length ?? 0) > 0;
    // `extends Base<int32>`: the instantiation, read with this declaration's own type parameters in scope.
    const ref =
      base.args.length > 0 || generic
        ? this.instantiate(r.decl, base.args, sf, base.text)
        : this.declaration(r.decl, base.text);
    if (ref.kind === 'unsupported') {
      fail(ref.reason);
      return;
    }
    // An alias's own markers (`/** @XValidation(…) */ type Base = Embedded`) hold for the type, as its base's do.
    const aliasMarkers = (ref.markers ?? []).filter((m) => m.via !== undefined);
    if (ref.kind === 'named') {
      (def.bases ??= []).push(ref.id);
      const baseDef = this.types[ref.id];
      for (const f of baseDef?.fields ?? []) fields.set(f.name, f);
      if (baseDef?.serialisesAs && !def.serialisesAs) def.serialisesAs = baseDef.serialisesAs;
    } else if (ref.kind === 'object') {
      for (const f of ref.fields) fields.set(f.name, f);
    } else if (ref.kind === 'core') {
      (def.coreBases ??= []).push(ref.name);
    } else {
      fail(`it is ${kindText(ref)}, not an object type`);
      return;
    }
    def.markers.unshift(...aliasMarkers);
  }

  /**
   * `toJSON(): string`: JSON.stringify writes what it returns, so that is the type's schema.
   * `toJSON(): this` is the object itself; without a return type the fields stay the schema, and
   * a warning asks for the type (a project that had such a method keeps generating).
   */
  private readToJson(m: TS.MethodDeclaration | TS.MethodSignature, sf: SourceFile, def: TypeDef, owner: string): void {
    if (m.type?.kind === ts.SyntaxKind.ThisType) return;
    if (!m.type) {
      this.warnings.push({
        pos: { file: this.relPath(sf), line: lineOf(m, sf) },
        message:
          `${owner}.toJSON() has no return type, so the schema is built from ${owner}'s fields; ` +
          `JSON.stringify writes what toJSON() returns, so declare it (toJSON(): string for a type ` +
          `that serialises as text)`,
      });
      return;
    }
    def.serialisesAs = this.typeRef(m.type, sf);
  }

  /**
   * The same field twice in one class or object type (TypeScript's "Duplicate identifier", which
   * the reader would otherwise settle silently by keeping the last); a subclass redeclaring a
   * base's field is fine.
   */
  private checkDeclaredOnce(own: Map<string, FieldDef>, field: FieldDef, owner: string): void {
    const first = own.get(field.name);
    if (first) {
      this.diagnostics.push({
        pos: field.pos,
        message: `${owner}.${field.name} is declared twice (also at line ${first.pos.line}); keep one declaration`,
      });
    } else own.set(field.name, field);
  }

  /** A field from a property (of a class, interface or `{ … }` type in `sf`) or a parameter property of `ctor`. */
  private field(node: TS.Node, sf: SourceFile, ctor?: TS.ConstructorDeclaration): FieldDef | undefined {
    if (!ts.isPropertyDeclaration(node) && !ts.isPropertySignature(node) && !ts.isParameter(node)) return undefined;
    const m: FieldNode = node;
    if (ts.isPropertyDeclaration(m) && hasModifier(m, ts.SyntaxKind.StaticKeyword)) return undefined;
    if (
      !ts.isPropertySignature(m) &&
      (hasModifier(m, ts.SyntaxKind.PrivateKeyword) || hasModifier(m, ts.SyntaxKind.ProtectedKeyword))
    )
      return undefined;
    const nameNode = m.name;
    if (ts.isPrivateIdentifier(nameNode)) return undefined;
    const file = this.relPath(sf);
    const name = ts.isComputedPropertyName(nameNode)
      ? this.computedKey(nameNode, sf, file)
      : ts.isStringLiteral(nameNode)
        ? nameNode.text
        : nameOf(nameNode, sf);
    if (name === undefined) return undefined;
    let optional = m.questionToken !== undefined;
    const typeNode = m.type;
    let type = typeNode
      ? this.typeRef(typeNode, sf)
      : this.inferred(ts.isPropertySignature(m) ? undefined : m.initializer, sf);
    if (type.kind === 'unsupported' && type.text === '')
      type = { kind: 'unsupported', text: name, reason: 'the field has no type annotation; declare its type' };
    if (typeIncludesUndefined(typeNode) || this.fieldsOptionalIn(file)) optional = true;
    const markers = [
      ...collectMarkers(m, sf, file, this.diagnostics, this.foreign),
      ...(ts.isParameter(m) ? [] : this.docMarkers(m, sf, file, name)),
    ];
    const field: FieldDef = { name, type, optional, markers, pos: { file, line: lineOf(m, sf) } };
    const description = ts.isParameter(m) ? (ctor ? paramDocOf(m, ctor, sf) : undefined) : docOf(m, sf);
    if (description !== undefined) field.description = description;
    return field;
  }

  /** `[KEY]` naming a string (or number) const is that value; another computed key cannot be read. */
  private computedKey(key: TS.ComputedPropertyName, sf: SourceFile, file: string): string | undefined {
    try {
      const v = literalValue(key.expression, sf);
      if (typeof v === 'string' || typeof v === 'number') return String(v);
    } catch (error) {
      if (!(error instanceof LiteralError)) throw error;
    }
    this.diagnostics.push({
      pos: { file, line: lineOf(key, sf) },
      message: `computed property name '${rawTextOf(key, sf)}' is not a const string; write the name, or [NAME] for a const NAME = '…' declared in the API files`,
    });
    return undefined;
  }

  typeRef(node: TypeNode | undefined, file: SourceFile): TypeRef {
    if (!node) return { kind: 'unsupported', text: '', reason: 'missing type annotation' };
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { kind: 'primitive', name: 'string' };
      case ts.SyntaxKind.BooleanKeyword:
        return { kind: 'primitive', name: 'boolean' };
      case ts.SyntaxKind.NumberKeyword:
        return { kind: 'primitive', name: 'number' };
      case ts.SyntaxKind.TypeReference:
        return this.reference(node as TS.TypeReferenceNode, file);
      case ts.SyntaxKind.ArrayType:
        return { kind: 'array', items: this.typeRef((node as TS.ArrayTypeNode).elementType, file) };
      case ts.SyntaxKind.AnyKeyword:
      case ts.SyntaxKind.UnknownKeyword:
      case ts.SyntaxKind.ObjectKeyword: {
        const text = rawTextOf(node, file);
        return {
          kind: 'unsupported',
          text,
          reason: `'${text}' has no schema; use JSONValue (any JSON) or RawExtension (any object), or declare the shape`,
        };
      }
    }
    // The source text is sliced only where a type needs it (an error, a union, an object type).
    if (ts.isParenthesizedTypeNode(node)) return this.typeRef(node.type, file);
    if (ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.ReadonlyKeyword)
      return this.typeRef(node.type, file);
    if (ts.isLiteralTypeNode(node)) {
      const v = literalOf(node, file);
      return v === undefined
        ? {
            kind: 'unsupported',
            text: rawTextOf(node, file),
            reason: 'only string, number and boolean literals have a JSON form (a bigint does not)',
          }
        : enumOf([v]);
    }
    if (ts.isTypeQueryNode(node) || ts.isIndexedAccessTypeNode(node)) return constValues(node, file);
    if (ts.isUnionTypeNode(node)) return this.union(node.types, file, node);
    if (ts.isTypeLiteralNode(node)) return this.typeLiteral(node.members, file, node);
    if (ts.isIntersectionTypeNode(node)) return this.intersection(node.types, file, rawTextOf(node, file));
    if (ts.isTupleTypeNode(node)) return tupleRef(node, rawTextOf(node, file), (n) => this.typeRef(n, file));
    return {
      kind: 'unsupported',
      text: rawTextOf(node, file),
      reason:
        'this kind of type has no schema mapping; use a class, interface, literal union, array or Record<string, T>',
    };
  }

  /** The type of an unannotated field from its initializer: a literal or `new SomeClass()`. */
  private inferred(init: TS.Expression | undefined, file: SourceFile): TypeRef {
    const none: TypeRef = { kind: 'unsupported', text: '', reason: 'missing type annotation' };
    if (!init) return none;
    if (ts.isStringLiteral(init) || ts.isNoSubstitutionTemplateLiteral(init))
      return { kind: 'primitive', name: 'string' };
    if (ts.isNumericLiteral(init)) return { kind: 'primitive', name: 'number' };
    if (init.kind === ts.SyntaxKind.TrueKeyword || init.kind === ts.SyntaxKind.FalseKeyword)
      return { kind: 'primitive', name: 'boolean' };
    if (ts.isNewExpression(init) && ts.isIdentifier(init.expression)) {
      const name = nameOf(init.expression, file);
      const r = this.resolver.resolve(name, file);
      if (r.kind === 'decl' && ts.isClassDeclaration(r.decl)) return this.declaration(r.decl, name);
    }
    return none;
  }

  private union(parts: readonly TypeNode[], file: SourceFile, node: TypeNode): TypeRef {
    const kept = parts.filter((p) => p.kind !== ts.SyntaxKind.UndefinedKeyword && !isNullLiteral(p));
    const nullable = kept.length < parts.length && parts.some(isNullLiteral);
    let ref: TypeRef;
    if (kept.length === 1 && kept[0]) {
      ref = this.typeRef(kept[0], file);
    } else {
      const values = kept.map((p) =>
        ts.isLiteralTypeNode(p) ? literalOf(p, file) : ts.isTypeQueryNode(p) ? typeofScalar(p, file) : undefined,
      );
      if (values.every((v) => typeof v === 'boolean') && values.length === 2)
        ref = { kind: 'primitive', name: 'boolean' };
      else if (values.every((v): v is string | number | boolean => v !== undefined)) ref = enumOf(values);
      else
        ref = this.objectUnion(kept, file, rawTextOf(node, file)) ?? {
          kind: 'unsupported',
          text: rawTextOf(node, file),
          reason:
            'unions are supported only of literals (an enum) or of object types with a discriminator, with null/undefined; use IntOrString for int-or-string',
        };
    }
    return nullable ? { kind: 'nullable', type: ref } : ref;
  }

  /** A union whose every part is an object type: a discriminated union (unions.ts), else undefined. */
  private objectUnion(parts: readonly TypeNode[], file: SourceFile, text: string): TypeRef | undefined {
    const members: UnionMember[] = [];
    for (const part of parts) {
      const ref = this.typeRef(part, file);
      const def = ref.kind === 'named' ? this.types[ref.id] : undefined;
      const fields = ref.kind === 'object' ? ref.fields : def?.fields;
      if (fields === undefined) return undefined;
      members.push({ text: rawTextOf(part, file), fields, markers: [...(ref.markers ?? []), ...(def?.markers ?? [])] });
    }
    const first = parts[0];
    const problems: Diagnostic[] = [];
    const ref = discriminatedUnion(
      members,
      text,
      { file: this.relPath(file), line: first ? lineOf(first, file) : 1 },
      problems,
    );
    // A union read twice (two fields of one alias) reports once.
    for (const p of problems)
      if (
        !this.diagnostics.some((d) => d.pos.file === p.pos.file && d.pos.line === p.pos.line && d.message === p.message)
      )
        this.diagnostics.push(p);
    return ref;
  }

  /**
   * `A & B & { extra?: string }`: one object with the fields of every part (later parts win a
   * name clash, as a subclass's field does). Each part must be an object type: a class, an
   * interface, an object literal type, or an alias of one.
   */
  private intersection(parts: readonly TypeNode[], file: SourceFile, text: string): TypeRef {
    const refs = new Map<TypeNode, TypeRef>();
    const refOf = (p: TypeNode): TypeRef => {
      let r = refs.get(p);
      if (!r) refs.set(p, (r = this.typeRef(p, file)));
      return r;
    };
    // `string & { readonly __brand: 'URL' }`: a branded scalar (Go's `type URL string`). The brand
    // exists for the type checker only; JSON holds the scalar, so that is the schema.
    const scalars = parts.filter((p) => !ts.isTypeLiteralNode(p) && isScalar(refOf(p)));
    const scalar = scalars.length === 1 ? scalars[0] : undefined;
    if (scalar && parts.every((p) => p === scalar || isBrand(p))) return refOf(scalar);
    const fields = new Map<string, FieldDef>();
    for (const part of parts) {
      const ref = refOf(part);
      const own =
        ref.kind === 'object' ? ref.fields : ref.kind === 'named' ? (this.types[ref.id]?.fields ?? []) : undefined;
      if (own === undefined) {
        return {
          kind: 'unsupported',
          text,
          reason: `'${rawTextOf(part, file)}' in an intersection is not an object type; intersect classes, interfaces or { … } types`,
        };
      }
      for (const f of own) fields.set(f.name, f);
    }
    return { kind: 'object', fields: [...fields.values()] };
  }

  private typeLiteral(members: readonly TS.TypeElement[], file: SourceFile, node: TypeNode): TypeRef {
    const index = members.filter((m) => ts.isIndexSignatureDeclaration(m));
    const props = members.filter((m) => !ts.isIndexSignatureDeclaration(m));
    const sig = index[0];
    if (sig) {
      if (props.length > 0 || index.length > 1)
        return {
          kind: 'unsupported',
          text: rawTextOf(node, file),
          reason: 'an object type with both an index signature and properties has no schema; split it',
        };
      return { kind: 'map', values: this.typeRef(sig.type, file) };
    }
    const fields = new Map<string, FieldDef>();
    for (const m of props) {
      const f = this.field(m, file);
      if (!f) continue;
      this.checkDeclaredOnce(fields, f, '{ … }');
      if (!fields.has(f.name) || fields.get(f.name) === f) fields.set(f.name, f);
    }
    return { kind: 'object', fields: [...fields.values()] };
  }

  private reference(node: TS.TypeReferenceNode, file: SourceFile): TypeRef {
    const nameNode = node.typeName;
    const args = node.typeArguments ?? NO_TYPES;
    const qualified = ts.isQualifiedName(nameNode);
    const name = nameOf(qualified ? nameNode.right : nameNode, file);
    const qualifier = qualified ? nameOf(nameNode.left, file) : undefined;
    // `Name` alone: the node is its name, so its text is the name's.
    const text = !qualified && node.typeArguments === undefined ? name : rawTextOf(node, file);
    const bound = qualifier === undefined && args.length === 0 ? this.env.get(name) : undefined;
    if (bound) return bound;
    if (qualifier === undefined && (name === 'Array' || name === 'ReadonlyArray') && args.length === 1)
      return { kind: 'array', items: this.typeRef(args[0], file) };
    if (qualifier === undefined && name === 'Record' && args.length === 2) {
      const keyNode = args[0] as TypeNode;
      const key = this.typeRef(keyNode, file);
      const problem = mapKeyProblem(key, rawTextOf(keyNode, file));
      if (problem !== undefined) return { kind: 'unsupported', text, reason: problem };
      const keyMarkers = (key.markers ?? []).filter((m) => m.via !== undefined);
      const pos = { file: this.relPath(file), line: lineOf(node, file) };
      // A map in a generic type is read once per instantiation: one warning.
      if (keyMarkers.length > 0 && !this.warnings.some((w) => w.pos.file === pos.file && w.pos.line === pos.line))
        this.warnings.push({
          pos,
          message:
            `${text}: the markers of the key type ` +
            `(${[...new Set(keyMarkers.map((m) => `@${m.name}`))].join(', ')}) do not check a map's ` +
            `keys (controller-gen ignores them too); check the keys with @XValidation({ rule: ` +
            `'self.all(k, …)' }) on the field`,
        });
      return { kind: 'map', values: this.typeRef(args[1], file) };
    }
    const r = this.resolver.resolve(name, file, qualifier);
    if (r.kind === 'missing' && qualifier === undefined && hasNoJsonForm(name))
      return { kind: 'unsupported', text, reason: r.reason };
    // A generic declaration written without arguments still needs its parameters bound (defaults).
    const generic = r.kind === 'decl' && !ts.isEnumDeclaration(r.decl) && (r.decl.typeParameters?.length ?? 0) > 0;
    if (args.length > 0 || generic) {
      if (r.kind === 'decl') return this.instantiate(r.decl, args, file, text);
      return {
        kind: 'unsupported',
        text,
        reason:
          'generic types other than Array<T>, Record<string, T> and your own generic classes, interfaces and aliases are not supported',
      };
    }
    switch (r.kind) {
      case 'known':
        return { kind: 'known', name: r.name };
      case 'core':
        return { kind: 'core', name: r.name };
      case 'missing':
        return { kind: 'unsupported', text, reason: r.reason };
      case 'decl':
        return this.declaration(r.decl, text);
    }
  }

  private declaration(decl: Declaration, text: string, typeArgsKey?: string): TypeRef {
    if (ts.isClassDeclaration(decl) || ts.isInterfaceDeclaration(decl))
      return { kind: 'named', id: this.typeDef(decl), name: decl.name?.text ?? text };
    if (ts.isEnumDeclaration(decl)) {
      const values: Array<string | number> = [];
      const computed = enumValues(decl); // auto-incremented numeric members too
      for (const [i, member] of decl.members.entries()) {
        const v = computed[i];
        if (v === undefined)
          return {
            kind: 'unsupported',
            text,
            reason: `enum member ${rawTextOf(member.name, fileOf(decl))} has a computed value`,
          };
        values.push(v);
      }
      return described(enumOf(values), docOf(decl, fileOf(decl)));
    }
    const sf = fileOf(decl);
    const id = `${this.relPath(sf)}#${decl.name.text}${typeArgsKey === undefined ? '' : `<${typeArgsKey}>`}`;
    if (this.aliasStack.includes(id))
      return {
        kind: 'unsupported',
        text,
        reason: `type alias ${decl.name.text} refers to itself; recursive types have no schema`,
      };
    this.aliasStack.push(id);
    try {
      const ref = described(this.typeRef(decl.type, sf), docOf(decl, sf));
      const via = `${this.relPath(sf)}#${decl.name.text}`;
      const markers = this.docMarkers(decl, sf, this.relPath(sf), `type ${decl.name.text}`).map((m) => ({ ...m, via }));
      // Each alias is one layer over the aliases it refers to (inner layers first).
      return markers.length > 0 ? { ...ref, markers: [...(ref.markers ?? []), ...markers] } : ref;
    } finally {
      this.aliasStack.pop();
    }
  }

  /** The markers written in a declaration's JSDoc (jsdoc-markers.ts); what cannot be honoured goes to the warnings. */
  private docMarkers(node: TS.Node, sf: SourceFile, file: string, owner: string): MarkerUse[] {
    const found = jsDocMarkers(node, sf, file, owner, this.diagnostics);
    this.warnings.push(...found.notes);
    return found.markers;
  }
}

/** A short, stable text for a type argument, used in the id and name of an instantiation. */
function refKey(t: TypeRef, unique = false): string {
  const k = (x: TypeRef): string => refKey(x, unique);
  switch (t.kind) {
    case 'primitive':
    case 'known':
    case 'core':
      return t.name;
    case 'named':
      return unique ? t.id : t.name; // two files may each declare an Item
    case 'array':
      return `${k(t.items)}[]`;
    case 'map':
      return `Record<string, ${k(t.values)}>`;
    case 'nullable':
      return `${k(t.type)} | null`;
    case 'enum':
      return t.values.map((v) => JSON.stringify(v)).join(' | ');
    case 'object':
      return `{ ${t.fields.map((f) => `${f.name}${f.optional ? '?' : ''}: ${k(f.type)}`).join('; ')} }`;
    case 'unsupported':
      return t.text;
  }
}

/** The ref with the alias's or enum's doc: the outer alias's replaces one it refers to, as in Go. */
function described(ref: TypeRef, doc: string | undefined): TypeRef {
  return doc === undefined ? ref : { ...ref, description: doc };
}

function literalOf(node: TypeNode, file: SourceFile): string | number | boolean | undefined {
  if (!ts.isLiteralTypeNode(node)) return undefined;
  const lit = node.literal;
  if (ts.isStringLiteral(lit)) return lit.text;
  if (ts.isNumericLiteral(lit)) return numericValue(lit);
  if (lit.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (lit.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isPrefixUnaryExpression(lit) && ts.isNumericLiteral(lit.operand)) return -Number(rawTextOf(lit.operand, file));
  return undefined;
}

function isNullLiteral(node: TypeNode): boolean {
  return ts.isLiteralTypeNode(node) && node.literal.kind === ts.SyntaxKind.NullKeyword;
}

function typeIncludesUndefined(node: TypeNode | undefined): boolean {
  return (
    node !== undefined && ts.isUnionTypeNode(node) && node.types.some((t) => t.kind === ts.SyntaxKind.UndefinedKeyword)
  );
}

/** The cleaned description of the last JSDoc block on a declaration. */
function docOf(node: TS.Node, sf: SourceFile): string | undefined {
  const last = lastJsDocOf(node, sf);
  return last ? cleanDescription(jsDocDescription(last, sf)) : undefined;
}

/** A parameter property's description: its `@param name …` in the constructor's last JSDoc block. */
function paramDocOf(
  param: TS.ParameterDeclaration,
  ctor: TS.ConstructorDeclaration,
  sf: SourceFile,
): string | undefined {
  const last = lastJsDocOf(ctor, sf);
  for (const tag of last?.tags() ?? []) {
    if (tag.paramName !== undefined && tag.paramName === rawTextOf(param.name, sf)) {
      const text = tag.comment?.replace(/^\s*-\s*/, '');
      return text ? cleanDescription(text) : undefined;
    }
  }
  return undefined;
}

/** What a type is, in a user's words. */
function kindText(ref: TypeRef): string {
  switch (ref.kind) {
    case 'primitive':
      return `a ${ref.name}`;
    case 'known':
      return `tsop's scalar type ${ref.name}`;
    case 'array':
      return 'an array';
    case 'map':
      return 'a map (Record)';
    case 'enum':
      return 'a literal union or enum';
    case 'nullable':
      return 'nullable (| null)';
    default:
      return `a ${ref.kind} type`;
  }
}
