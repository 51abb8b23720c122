/**
 * TypeScript syntax → TypeRef, and classes/interfaces → TypeDefs (registered once, by id). Works
 * on type annotations only; there is no type checker, so every type must be spelled out (a field
 * without an annotation is an error, not an inference).
 */
import type { SourceFile, TypeNode, ClassDeclaration, InterfaceDeclaration, TypeElementTypes, ClassMemberTypes, ParameterDeclaration, TypeAliasDeclaration } from 'ts-morph';
import { Node, SyntaxKind, ts } from './tsmorph.js';
import type { Diagnostic, FieldDef, MarkerUse, SourcePos, TypeDef, TypeRef } from '../model.js';
import { collectMarkers } from '../collector.js';
import { cleanDescription } from '../description.js';
import { Resolver, isClassOrInterface, type Declaration } from './resolve.js';
import { discriminatedUnion, type UnionMember } from './unions.js';

export class TypeReader {
  readonly types: Record<string, TypeDef> = {};
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

  /** Registers a class or interface (and, lazily, what its fields use); returns its id. */
  typeDef(decl: ClassDeclaration | InterfaceDeclaration, typeArgs?: { env: ReadonlyMap<string, TypeRef>; key: string; shown: string }): string {
    const file = this.relPath(decl.getSourceFile());
    const plain = decl.getName() ?? 'default';
    const name = typeArgs ? `${plain}<${typeArgs.shown}>` : plain;
    const id = typeArgs ? `${file}#${plain}<${typeArgs.key}>` : `${file}#${plain}`;
    if (this.types[id]) return id;
    const def: TypeDef = { id, name, fields: [], markers: [], pos: { file, line: decl.getStartLineNumber() } };
    this.types[id] = def; // registered first, so recursive references terminate
    const description = docOf(decl);
    if (description !== undefined) def.description = description;
    def.markers = collectMarkers(decl, file, this.diagnostics);
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
  private instantiate(decl: Declaration, args: TypeNode[], file: SourceFile, text: string): TypeRef {
    const params = Node.isEnumDeclaration(decl) ? [] : decl.getTypeParameters();
    if (params.length === 0) return { kind: 'unsupported', text, reason: `${decl.getName() ?? 'it'} takes no type arguments` };
    if (args.length > params.length) return { kind: 'unsupported', text, reason: `${decl.getName() ?? 'it'} takes ${params.length} type argument${params.length === 1 ? '' : 's'}, got ${args.length}` };
    const env = new Map<string, TypeRef>();
    const keys: string[] = [];
    const shown: string[] = [];
    for (const [i, p] of params.entries()) {
      const arg = args[i];
      const def = p.getDefault();
      if (!arg && !def) return { kind: 'unsupported', text, reason: `type parameter ${p.getName()} of ${decl.getName() ?? 'it'} has no argument and no default` };
      // Arguments are written in the using file; defaults in the declaring one, and may use earlier parameters.
      const ref = arg ? this.typeRef(arg, file) : this.withEnv(env, () => this.typeRef(def, decl.getSourceFile()));
      env.set(p.getName(), ref);
      keys.push(refKey(ref, true));
      shown.push(refKey(ref));
    }
    const key = keys.join(', ');
    if (Node.isClassDeclaration(decl) || Node.isInterfaceDeclaration(decl)) {
      return { kind: 'named', id: this.typeDef(decl, { env, key, shown: shown.join(', ') }), name: `${decl.getName() ?? text}<${shown.join(', ')}>` };
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

  private fieldsOf(decl: ClassDeclaration | InterfaceDeclaration, def: TypeDef): FieldDef[] {
    const fields = new Map<string, FieldDef>();
    // Base types first, so a redeclared field in the subclass wins.
    for (const base of heritage(decl)) {
      const r = this.resolver.resolve(base.name, decl.getSourceFile(), base.qualifier);
      if (r.kind === 'decl' && isClassOrInterface(r.decl)) {
        // `extends Base<int32>`: the instantiation, read with this declaration's own type parameters in scope.
        const inst = base.args.length > 0 ? this.instantiate(r.decl, base.args, decl.getSourceFile(), base.text) : undefined;
        if (inst && inst.kind !== 'named') {
          this.diagnostics.push({ pos: this.pos(decl), message: `${decl.getName() ?? 'class'}: cannot read base type '${base.text}' (${inst.kind === 'unsupported' ? inst.reason : 'not a class'})` });
          continue;
        }
        const baseId = inst?.kind === 'named' ? inst.id : this.typeDef(r.decl);
        (def.bases ??= []).push(baseId);
        for (const f of this.types[baseId]?.fields ?? []) fields.set(f.name, f);
      } else if (r.kind === 'core') {
        (def.coreBases ??= []).push(r.name);
      } else {
        this.diagnostics.push({
          pos: this.pos(decl),
          message: `${decl.getName() ?? 'class'}: cannot read base type '${base.text}' (${r.kind === 'missing' ? r.reason : `a ${r.kind} type`}); API types may only extend API classes, interfaces or @kubernetes/client-node types`,
        });
      }
    }
    const members: Array<ClassMemberTypes | TypeElementTypes | ParameterDeclaration> = Node.isClassDeclaration(decl) ? decl.getMembers() : decl.getMembers();
    // `constructor(public replicas: int32)` declares a field too.
    if (Node.isClassDeclaration(decl) && hasParameterProperties(decl)) {
      for (const ctor of decl.getConstructors()) members.unshift(...ctor.getParameters().filter((p) => p.isParameterProperty()));
    }
    const own = new Map<string, FieldDef>();
    for (const m of members) {
      const field = this.field(m);
      if (!field) continue;
      this.checkDeclaredOnce(own, field, decl.getName() ?? 'class');
      fields.set(field.name, field);
    }
    return [...fields.values()];
  }

  /**
   * The same field twice in one class or object type (TypeScript's "Duplicate identifier", which
   * the reader would otherwise settle silently by keeping the last); a subclass redeclaring a
   * base's field is fine.
   */
  private checkDeclaredOnce(own: Map<string, FieldDef>, field: FieldDef, owner: string): void {
    const first = own.get(field.name);
    if (first) {
      this.diagnostics.push({ pos: field.pos, message: `${owner}.${field.name} is declared twice (also at line ${first.pos.line}); keep one declaration` });
    } else own.set(field.name, field);
  }

  private field(m: Node): FieldDef | undefined {
    if (!Node.isPropertyDeclaration(m) && !Node.isPropertySignature(m) && !Node.isParameterDeclaration(m)) return undefined;
    if (Node.isPropertyDeclaration(m) && m.isStatic()) return undefined;
    if (!Node.isPropertySignature(m) && (m.hasModifier(SyntaxKind.PrivateKeyword) || m.hasModifier(SyntaxKind.ProtectedKeyword))) return undefined;
    const nameNode = m.getNameNode();
    if (Node.isPrivateIdentifier(nameNode)) return undefined;
    const name = Node.isStringLiteral(nameNode) ? nameNode.getLiteralValue() : nameNode.getText();
    const file = this.relPath(m.getSourceFile());
    let optional = m.hasQuestionToken();
    const typeNode = m.getTypeNode();
    let type = typeNode ? this.typeRef(typeNode, m.getSourceFile()) : this.inferred(Node.isPropertySignature(m) ? undefined : m.getInitializer(), m.getSourceFile());
    if (type.kind === 'unsupported' && type.text === '') type = { kind: 'unsupported', text: name, reason: 'the field has no type annotation; declare its type' };
    if (typeIncludesUndefined(m.getTypeNode()) || this.fieldsOptionalIn(file)) optional = true;
    const field: FieldDef = { name, type, optional, markers: collectMarkers(m, file, this.diagnostics), pos: { file, line: m.getStartLineNumber() } };
    const description = Node.isParameterDeclaration(m) ? paramDocOf(m) : docOf(m);
    if (description !== undefined) field.description = description;
    return field;
  }

  typeRef(node: TypeNode | undefined, file: SourceFile): TypeRef {
    if (!node) return { kind: 'unsupported', text: '', reason: 'missing type annotation' };
    const text = node.getText();
    switch (node.getKind()) {
      case SyntaxKind.StringKeyword:
        return { kind: 'primitive', name: 'string' };
      case SyntaxKind.BooleanKeyword:
        return { kind: 'primitive', name: 'boolean' };
      case SyntaxKind.NumberKeyword:
        return { kind: 'primitive', name: 'number' };
      case SyntaxKind.AnyKeyword:
      case SyntaxKind.UnknownKeyword:
      case SyntaxKind.ObjectKeyword:
        return { kind: 'unsupported', text, reason: `'${text}' has no schema; use JSONValue (any JSON) or RawExtension (any object), or declare the shape` };
    }
    if (Node.isParenthesizedTypeNode(node)) return this.typeRef(node.getTypeNode(), file);
    if (Node.isTypeOperatorTypeNode(node) && node.getOperator() === SyntaxKind.ReadonlyKeyword) return this.typeRef(node.getTypeNode(), file);
    if (Node.isArrayTypeNode(node)) return { kind: 'array', items: this.typeRef(node.getElementTypeNode(), file) };
    if (Node.isLiteralTypeNode(node)) {
      const v = literalOf(node);
      return v === undefined ? { kind: 'unsupported', text, reason: 'unsupported literal type' } : enumOf([v]);
    }
    if (Node.isUnionTypeNode(node)) return this.union(node.getTypeNodes(), file, text);
    if (Node.isTypeLiteral(node)) return this.typeLiteral(node.getMembers(), file, text);
    if (Node.isIntersectionTypeNode(node)) return this.intersection(node.getTypeNodes(), file, text);
    if (Node.isTypeReference(node)) return this.reference(node, file);
    return { kind: 'unsupported', text, reason: 'this kind of type has no schema mapping; use a class, interface, literal union, array or Record<string, T>' };
  }

  /** The type of an unannotated field from its initializer: a literal or `new SomeClass()`. */
  private inferred(init: Node | undefined, file: SourceFile): TypeRef {
    const none: TypeRef = { kind: 'unsupported', text: '', reason: 'missing type annotation' };
    if (!init) return none;
    if (Node.isStringLiteral(init) || Node.isNoSubstitutionTemplateLiteral(init)) return { kind: 'primitive', name: 'string' };
    if (Node.isNumericLiteral(init)) return { kind: 'primitive', name: 'number' };
    if (init.getKind() === SyntaxKind.TrueKeyword || init.getKind() === SyntaxKind.FalseKeyword) return { kind: 'primitive', name: 'boolean' };
    if (Node.isNewExpression(init) && Node.isIdentifier(init.getExpression())) {
      const name = init.getExpression().getText();
      const r = this.resolver.resolve(name, file);
      if (r.kind === 'decl' && Node.isClassDeclaration(r.decl)) return this.declaration(r.decl, name);
    }
    return none;
  }

  private union(parts: TypeNode[], file: SourceFile, text: string): TypeRef {
    const kept = parts.filter((p) => p.getKind() !== SyntaxKind.UndefinedKeyword && !isNullLiteral(p));
    const nullable = kept.length < parts.length && parts.some(isNullLiteral);
    let ref: TypeRef;
    if (kept.length === 1 && kept[0]) {
      ref = this.typeRef(kept[0], file);
    } else {
      const values = kept.map((p) => (Node.isLiteralTypeNode(p) ? literalOf(p) : undefined));
      if (values.every((v) => typeof v === 'boolean') && values.length === 2) ref = { kind: 'primitive', name: 'boolean' };
      else if (values.every((v): v is string | number | boolean => v !== undefined)) ref = enumOf(values);
      else ref = this.objectUnion(kept, file, text) ?? { kind: 'unsupported', text, reason: 'unions are supported only of literals (an enum) or of object types with a discriminator, with null/undefined; use IntOrString for int-or-string' };
    }
    return nullable ? { kind: 'nullable', type: ref } : ref;
  }

  /** A union whose every part is an object type: a discriminated union (unions.ts), else undefined. */
  private objectUnion(parts: TypeNode[], file: SourceFile, text: string): TypeRef | undefined {
    const members: UnionMember[] = [];
    for (const part of parts) {
      const ref = this.typeRef(part, file);
      const fields = ref.kind === 'object' ? ref.fields : ref.kind === 'named' ? this.types[ref.id]?.fields : undefined;
      if (fields === undefined) return undefined;
      members.push({ text: part.getText(), fields });
    }
    return discriminatedUnion(members, text, { file: this.relPath(file), line: parts[0]?.getStartLineNumber() ?? 1 });
  }

  /**
   * `A & B & { extra?: string }`: one object with the fields of every part (later parts win a
   * name clash, as a subclass's field does). Each part must be an object type: a class, an
   * interface, an object literal type, or an alias of one.
   */
  private intersection(parts: TypeNode[], file: SourceFile, text: string): TypeRef {
    const fields = new Map<string, FieldDef>();
    for (const part of parts) {
      const ref = this.typeRef(part, file);
      const own = ref.kind === 'object' ? ref.fields : ref.kind === 'named' ? (this.types[ref.id]?.fields ?? []) : undefined;
      if (own === undefined) {
        return { kind: 'unsupported', text, reason: `'${part.getText()}' in an intersection is not an object type; intersect classes, interfaces or { … } types` };
      }
      for (const f of own) fields.set(f.name, f);
    }
    return { kind: 'object', fields: [...fields.values()] };
  }

  private typeLiteral(members: TypeElementTypes[], file: SourceFile, text: string): TypeRef {
    const index = members.filter((m) => Node.isIndexSignatureDeclaration(m));
    const props = members.filter((m) => !Node.isIndexSignatureDeclaration(m));
    const sig = index[0];
    if (sig && Node.isIndexSignatureDeclaration(sig)) {
      if (props.length > 0 || index.length > 1) return { kind: 'unsupported', text, reason: 'an object type with both an index signature and properties has no schema; split it' };
      return { kind: 'map', values: this.typeRef(sig.getReturnTypeNode(), file) };
    }
    const fields = new Map<string, FieldDef>();
    for (const m of props) {
      const f = this.field(m);
      if (!f) continue;
      this.checkDeclaredOnce(fields, f, '{ … }');
      if (!fields.has(f.name) || fields.get(f.name) === f) fields.set(f.name, f);
    }
    return { kind: 'object', fields: [...fields.values()] };
  }

  private reference(node: Node, file: SourceFile): TypeRef {
    if (!Node.isTypeReference(node)) throw new Error('not a type reference');
    const nameNode = node.getTypeName();
    const text = node.getText();
    const args = node.getTypeArguments();
    const [name, qualifier] = Node.isQualifiedName(nameNode) ? [nameNode.getRight().getText(), nameNode.getLeft().getText()] : [nameNode.getText(), undefined];
    const bound = qualifier === undefined && args.length === 0 ? this.env.get(name) : undefined;
    if (bound) return bound;
    if (qualifier === undefined && (name === 'Array' || name === 'ReadonlyArray') && args.length === 1) return { kind: 'array', items: this.typeRef(args[0], file) };
    if (qualifier === undefined && name === 'Record' && args.length === 2) {
      const key = args[0]?.getKind();
      if (key !== SyntaxKind.StringKeyword) return { kind: 'unsupported', text, reason: 'map keys must be string (Record<string, T>)' };
      return { kind: 'map', values: this.typeRef(args[1], file) };
    }
    const r = this.resolver.resolve(name, file, qualifier);
    // A generic declaration written without arguments still needs its parameters bound (defaults).
    const generic = r.kind === 'decl' && !Node.isEnumDeclaration(r.decl) && r.decl.getTypeParameters().length > 0;
    if (args.length > 0 || generic) {
      if (r.kind === 'decl') return this.instantiate(r.decl, args, file, text);
      return { kind: 'unsupported', text, reason: 'generic types other than Array<T>, Record<string, T> and your own generic classes, interfaces and aliases are not supported' };
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
    if (Node.isClassDeclaration(decl) || Node.isInterfaceDeclaration(decl)) return { kind: 'named', id: this.typeDef(decl), name: decl.getName() ?? text };
    if (Node.isEnumDeclaration(decl)) {
      const values: Array<string | number> = [];
      for (const member of decl.getMembers()) {
        const v = member.getValue(); // ts-morph computes auto-incremented numeric members
        if (v === undefined) return { kind: 'unsupported', text, reason: `enum member ${member.getName()} has a computed value` };
        values.push(v);
      }
      return described(enumOf(values), docOf(decl));
    }
    const id = `${this.relPath(decl.getSourceFile())}#${decl.getName()}${typeArgsKey === undefined ? '' : `<${typeArgsKey}>`}`;
    if (this.aliasStack.includes(id)) return { kind: 'unsupported', text, reason: `type alias ${decl.getName()} refers to itself; recursive types have no schema` };
    this.aliasStack.push(id);
    try {
      const ref = described(this.typeRef(decl.getTypeNode(), decl.getSourceFile()), docOf(decl));
      const markers = aliasMarkers(decl, this.relPath(decl.getSourceFile()), this.diagnostics);
      // The alias's own tags come after those of an alias it refers to, so they win a conflict.
      return markers.length > 0 ? { ...ref, markers: [...(ref.markers ?? []), ...markers] } : ref;
    } finally {
      this.aliasStack.pop();
    }
  }

  private pos(node: Node): SourcePos {
    return { file: this.relPath(node.getSourceFile()), line: node.getStartLineNumber() };
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

/** The ref with the alias's or enum's doc, unless it already has a closer one. */
function described(ref: TypeRef, doc: string | undefined): TypeRef {
  return doc === undefined || ref.description !== undefined ? ref : { ...ref, description: doc };
}

function enumOf(values: Array<string | number | boolean>): TypeRef {
  const kinds = new Set(values.map((v) => typeof v));
  if (kinds.size !== 1) return { kind: 'unsupported', text: values.join(' | '), reason: 'enum values must all be strings or all numbers' };
  const type = typeof values[0] === 'string' ? 'string' : typeof values[0] === 'number' ? 'number' : 'boolean';
  return { kind: 'enum', type, values: [...new Set(values)] };
}

function literalOf(node: TypeNode): string | number | boolean | undefined {
  if (!Node.isLiteralTypeNode(node)) return undefined;
  const lit = node.getLiteral();
  if (Node.isStringLiteral(lit) || Node.isNumericLiteral(lit)) return lit.getLiteralValue();
  if (lit.getKind() === SyntaxKind.TrueKeyword) return true;
  if (lit.getKind() === SyntaxKind.FalseKeyword) return false;
  if (Node.isPrefixUnaryExpression(lit) && Node.isNumericLiteral(lit.getOperand())) return -Number(lit.getOperand().getText());
  return undefined;
}

function isNullLiteral(node: TypeNode): boolean {
  return Node.isLiteralTypeNode(node) && node.getLiteral().getKind() === SyntaxKind.NullKeyword;
}

function typeIncludesUndefined(node: TypeNode | undefined): boolean {
  return node !== undefined && Node.isUnionTypeNode(node) && node.getTypeNodes().some((t) => t.getKind() === SyntaxKind.UndefinedKeyword);
}

function heritage(decl: ClassDeclaration | InterfaceDeclaration): Array<{ name: string; qualifier?: string; text: string; args: TypeNode[] }> {
  const exprs = Node.isClassDeclaration(decl) ? [decl.getExtends()].filter((e) => e !== undefined) : decl.getExtends();
  return exprs.map((e) => {
    const expr = e.getExpression();
    const args = e.getTypeArguments();
    if (Node.isPropertyAccessExpression(expr)) return { name: expr.getName(), qualifier: expr.getExpression().getText(), text: e.getText(), args };
    return { name: expr.getText(), text: e.getText(), args };
  });
}

/** The cleaned description of the last JSDoc block on a declaration. */
export function docOf(node: Node): string | undefined {
  if (!Node.isJSDocable(node)) return undefined;
  const docs = node.getJsDocs();
  const last = docs[docs.length - 1];
  if (!last) return undefined;
  return cleanDescription(last.getDescription());
}

/** A parameter property's description: its `@param name …` in the constructor's last JSDoc block. */
function paramDocOf(param: ParameterDeclaration): string | undefined {
  const ctor = param.getParent();
  if (!Node.isJSDocable(ctor)) return undefined;
  const last = ctor.getJsDocs().slice(-1)[0];
  for (const tag of last?.getTags() ?? []) {
    if (Node.isJSDocParameterTag(tag) && tag.getName() === param.getName()) {
      const text = tag.getCommentText()?.replace(/^\s*-\s*/, '');
      return text ? cleanDescription(text) : undefined;
    }
  }
  return undefined;
}

/** A cheap look at the raw syntax before asking ts-morph: most API classes have no constructor. */
function hasParameterProperties(decl: ClassDeclaration): boolean {
  return decl.compilerNode.members.some((m) => ts.isConstructorDeclaration(m) && m.parameters.some((p) => (p.modifiers?.length ?? 0) > 0));
}

/** JSDoc tags a validated scalar alias may carry, and the marker each one is. */
const ALIAS_TAGS: Record<string, { marker: string; arg: 'string' | 'number' }> = {
  pattern: { marker: 'Pattern', arg: 'string' },
  minLength: { marker: 'MinLength', arg: 'number' },
  maxLength: { marker: 'MaxLength', arg: 'number' },
  minimum: { marker: 'Minimum', arg: 'number' },
  maximum: { marker: 'Maximum', arg: 'number' },
  multipleOf: { marker: 'MultipleOf', arg: 'number' },
  format: { marker: 'Format', arg: 'string' },
};

/**
 * `/** @pattern ^[a-z0-9-]+$ *\/ type DNSName = string`: the validation tags of a type alias as
 * markers, so every field of that type gets them (the TypeScript form of a Go named type with
 * markers). Other tags (`@deprecated`, `@see`, …) are documentation and ignored.
 */
function aliasMarkers(decl: TypeAliasDeclaration, file: string, diagnostics: Diagnostic[]): MarkerUse[] {
  const out: MarkerUse[] = [];
  for (const doc of decl.getJsDocs()) {
    for (const tag of doc.getTags()) {
      const known = ALIAS_TAGS[tag.getTagName()];
      if (!known) continue;
      const text = (tag.getCommentText() ?? '').trim();
      const pos = { file, line: tag.getStartLineNumber() };
      const value = known.arg === 'number' ? Number(text) : text;
      if (text === '' || (typeof value === 'number' && !Number.isFinite(value))) {
        diagnostics.push({ pos, message: `@${tag.getTagName()} on type ${decl.getName()}: needs a ${known.arg} value, got '${text}'` });
        continue;
      }
      out.push({ name: known.marker, args: [value], pos });
    }
  }
  return out;
}
