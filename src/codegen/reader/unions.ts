/**
 * Discriminated unions, beyond controller-gen: `{ type: 'ConfigMap'; configMap: … } | { type:
 * 'Secret'; secret: … }` becomes the Kubernetes union pattern — one object whose discriminator is
 * a required enum of the members' tags, whose other fields are all optional, and one CEL rule per
 * member field that requires it exactly when the discriminator names a member that declares it
 * (and forbids it otherwise). Pure: works on the members' fields as the reader found them.
 */
import type { FieldDef, MarkerUse, SourcePos, TypeRef } from '../model.js';

/** One union member: its fields (from a `{ … }` type, an interface or a class). */
export interface UnionMember {
  text: string;
  fields: FieldDef[];
}

/** CEL's reserved words: a field with one of these names is `__name__` in a rule (Kubernetes' escaping). */
const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

function celName(name: string): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return undefined;
  return CEL_RESERVED.has(name) ? `__${name}__` : name;
}

const tagOf = (f: FieldDef | undefined): string | undefined =>
  f && !f.optional && f.type.kind === 'enum' && f.type.type === 'string' && f.type.values.length === 1 ? String(f.type.values[0]) : undefined;

/** The same field in two members must have one schema; positions and docs may differ. */
const sameType = (a: TypeRef, b: TypeRef): boolean => JSON.stringify(a, (k, v: unknown) => (k === 'pos' || k === 'description' ? undefined : v)) === JSON.stringify(b, (k, v: unknown) => (k === 'pos' || k === 'description' ? undefined : v));

export function discriminatedUnion(members: UnionMember[], text: string, pos: SourcePos): TypeRef {
  const unsupported = (reason: string): TypeRef => ({ kind: 'unsupported', text, reason });
  const first = members[0];
  if (!first) return unsupported('empty union');
  // The discriminator: a required field every member has, with a different string literal in each.
  const disc = first.fields.map((f) => f.name).find((name) => {
    const tags = members.map((m) => tagOf(m.fields.find((f) => f.name === name)));
    return tags.every((t) => t !== undefined) && new Set(tags).size === tags.length;
  });
  if (disc === undefined) {
    return unsupported("a union of object types needs a discriminator: a required field every member has, with a different string literal in each (e.g. type: 'ConfigMap' | … )");
  }
  const discCel = celName(disc);
  if (discCel === undefined) return unsupported(`the discriminator '${disc}' is not a name CEL can use; rename it`);
  const tags = members.map((m) => tagOf(m.fields.find((f) => f.name === disc)) as string);
  const discField = first.fields.find((f) => f.name === disc) as FieldDef;

  const merged = new Map<string, { field: FieldDef; declaredBy: string[]; requiredBy: string[] }>();
  for (const [i, m] of members.entries()) {
    const tag = tags[i] as string;
    for (const f of m.fields) {
      if (f.name === disc) continue;
      const seen = merged.get(f.name);
      if (seen && !sameType(seen.field.type, f.type)) {
        return unsupported(`'${f.name}' has a different type in the members for '${seen.declaredBy[0]}' and '${tag}'; give it one type or another name`);
      }
      const entry = seen ?? { field: { ...f, optional: true }, declaredBy: [], requiredBy: [] };
      entry.declaredBy.push(tag);
      if (!f.optional) entry.requiredBy.push(tag);
      merged.set(f.name, entry);
    }
  }

  const quote = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const isOneOf = (vals: string[]): string => (vals.length === 1 ? `self.${discCel} == ${quote(vals[0] as string)}` : `self.${discCel} in [${vals.map(quote).join(', ')}]`);
  const said = (vals: string[]): string => vals.map((v) => `'${v}'`).join(' or ');
  const markers: MarkerUse[] = [];
  for (const [name, { declaredBy, requiredBy }] of merged) {
    const field = celName(name);
    if (field === undefined) return unsupported(`the member field '${name}' is not a name CEL can use; rename it`);
    const has = `has(self.${field})`;
    let rule: string;
    let message: string;
    if (requiredBy.length === declaredBy.length) {
      rule = `${isOneOf(declaredBy)} ? ${has} : !${has}`;
      message = `${name} is required when ${disc} is ${said(declaredBy)}, and forbidden otherwise`;
    } else {
      rule = `${has} ? ${isOneOf(declaredBy)} : ${requiredBy.length > 0 ? `!(${isOneOf(requiredBy)})` : 'true'}`;
      message = requiredBy.length > 0 ? `${name} is required when ${disc} is ${said(requiredBy)}, and allowed only when it is ${said(declaredBy)}` : `${name} is allowed only when ${disc} is ${said(declaredBy)}`;
    }
    markers.push({ name: 'XValidation', args: [{ rule, message }], pos });
  }
  const discriminator: FieldDef = { ...discField, optional: false, type: { kind: 'enum', type: 'string', values: tags } };
  return { kind: 'object', fields: [discriminator, ...[...merged.values()].map((e) => e.field)], markers };
}
