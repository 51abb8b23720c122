/**
 * Discriminated unions, beyond controller-gen: `{ type: 'ConfigMap'; configMap: … } | { type:
 * 'Secret'; secret: … }` becomes the Kubernetes union pattern — one object whose discriminator is
 * a required enum of the members' tags, whose other fields are all optional, and one CEL rule per
 * member field that requires it exactly when the discriminator names a member that declares it
 * (and forbids it otherwise). A member's own rules (`@XValidation`, the one-of markers) hold for
 * that member only. What cannot hold for one member alone is reported at its marker: a default on
 * a field other members lack (the API server would apply it, then refuse the object), another
 * class-level marker of a member, a field two members declare with different markers or docs.
 * Pure: works on the members as the reader found them.
 */
import type { Diagnostic, FieldDef, MarkerUse, SourcePos, TypeRef } from '../model.js';
import type { JSONValue } from '../jsonschema.js';
import { isOneOf, oneOfRule } from '../one-of.js';

/** One union member: its fields (from a `{ … }` type, an interface or a class) and its class-level markers. */
export interface UnionMember {
  text: string;
  fields: FieldDef[];
  markers: MarkerUse[];
}

/** CEL's reserved words: a field with one of these names is `__name__` in a rule (Kubernetes' escaping). */
const CEL_RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

function celName(name: string): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return undefined;
  return CEL_RESERVED.has(name) ? `__${name}__` : name;
}

const tagOf = (f: FieldDef | undefined): string | undefined =>
  f && !f.optional && f.type.kind === 'enum' && f.type.type === 'string' && f.type.values.length === 1
    ? String(f.type.values[0])
    : undefined;

/** The same field in two members must have one schema; positions and docs may differ. */
const sameType = (a: TypeRef, b: TypeRef): boolean =>
  JSON.stringify(a, (k, v: unknown) => (k === 'pos' || k === 'description' ? undefined : v)) ===
  JSON.stringify(b, (k, v: unknown) => (k === 'pos' || k === 'description' ? undefined : v));

/** The union's schema type, and what cannot be honoured (reported at the markers' lines). */
export function discriminatedUnion(
  members: UnionMember[],
  text: string,
  pos: SourcePos,
  problems: Diagnostic[],
): TypeRef {
  const unsupported = (reason: string): TypeRef => ({ kind: 'unsupported', text, reason });
  const first = members[0];
  if (!first) return unsupported('empty union');
  // The discriminator: a required field every member has, with a different string literal in each.
  const disc = first.fields
    .map((f) => f.name)
    .find((name) => {
      const tags = members.map((m) => tagOf(m.fields.find((f) => f.name === name)));
      return tags.every((t) => t !== undefined) && new Set(tags).size === tags.length;
    });
  if (disc === undefined) {
    return unsupported(
      "a union of object types needs a discriminator: a required field every member has, with a different string literal in each (e.g. type: 'ConfigMap' | … )",
    );
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
        return unsupported(
          `'${f.name}' has a different type in the members for '${seen.declaredBy[0]}' and '${tag}'; give it one type or another name`,
        );
      }
      if (
        seen &&
        (markersText(seen.field.markers) !== markersText(f.markers) ||
          (seen.field.description !== undefined &&
            f.description !== undefined &&
            seen.field.description !== f.description))
      ) {
        problems.push({
          pos: f.pos,
          message:
            `'${f.name}' has different markers or docs in the members for '${seen.declaredBy[0]}' and ` +
            `'${tag}', and a union has one schema per field; give it the same in each member, or ` +
            `another name`,
        });
      }
      const entry = seen ?? { field: { ...f, optional: true }, declaredBy: [], requiredBy: [] };
      entry.declaredBy.push(tag);
      if (!f.optional) entry.requiredBy.push(tag);
      merged.set(f.name, entry);
    }
  }

  const quote = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const isOneOf = (vals: string[]): string =>
    vals.length === 1
      ? `self.${discCel} == ${quote(vals[0] as string)}`
      : `self.${discCel} in [${vals.map(quote).join(', ')}]`;
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
      message =
        requiredBy.length > 0
          ? `${name} is required when ${disc} is ${said(requiredBy)}, and allowed only when it is ${said(declaredBy)}`
          : `${name} is allowed only when ${disc} is ${said(declaredBy)}`;
    }
    markers.push({ name: 'XValidation', args: [{ rule, message }], pos });
  }
  for (const [name, { field, declaredBy }] of merged) {
    if (declaredBy.length === members.length) continue;
    for (const d of field.markers.filter((m) => m.name === 'Default' || m.name === 'KubernetesDefault')) {
      problems.push({
        pos: d.pos,
        message:
          `@${d.name} on '${name}', which only the members for ${said(declaredBy)} declare: the API ` +
          `server applies a default before it checks the union, so it would refuse every object of ` +
          `the other members; declare '${name}' with this default in every member, or set it in the controller`,
      });
    }
  }
  markers.push(...memberRules(members, tags, discCel, quote, problems));
  const discriminator: FieldDef = {
    ...discField,
    optional: false,
    type: { kind: 'enum', type: 'string', values: tags },
  };
  return { kind: 'object', fields: [discriminator, ...[...merged.values()].map((e) => e.field)], markers };
}

const markersText = (uses: MarkerUse[]): string => JSON.stringify(uses.map((u) => [u.name, u.args]));

/**
 * A member's class-level rules, each holding only when the discriminator names that member:
 * `@XValidation` and the one-of markers become `self.<disc> != '<tag>' || (<rule>)`. Other
 * class-level schema markers cannot be scoped to one member: reported.
 */
function memberRules(
  members: UnionMember[],
  tags: string[],
  disc: string,
  quote: (s: string) => string,
  problems: Diagnostic[],
): MarkerUse[] {
  const out: MarkerUse[] = [];
  members.forEach((m, i) => {
    const guard = `self.${disc} != ${quote(tags[i] as string)}`;
    for (const use of m.markers) {
      let rule: Record<string, JSONValue> | undefined;
      const arg = use.args[0];
      if (
        use.name === 'XValidation' &&
        arg !== null &&
        typeof arg === 'object' &&
        !Array.isArray(arg) &&
        typeof arg['rule'] === 'string'
      )
        rule = { ...arg };
      else if (isOneOf(use.name) && use.args.every((a): a is string => typeof a === 'string'))
        rule = { ...oneOfRule(use.name, use.args) };
      if (rule) {
        out.push({
          name: 'XValidation',
          args: [{ ...rule, rule: `${guard} || (${String(rule['rule'])})` }],
          pos: use.pos,
        });
      } else if (SCOPED_ELSEWHERE.has(use.name)) {
        problems.push({
          pos: use.pos,
          message:
            `@${use.name} on ${m.text}, a member of the union ` +
            `${tags.map((t) => `'${t}'`).join(' | ')}, cannot hold for that member alone; put it on ` +
            `the union's type alias (for all members), or check it with an @XValidation rule on the member`,
        });
      }
    }
  });
  return out;
}

/** Class-level schema markers that would apply to every member if moved to the union's object. */
const SCOPED_ELSEWHERE = new Set([
  'MinProperties',
  'MaxProperties',
  'Nullable',
  'PreserveUnknownFields',
  'XEmbeddedResource',
  'MapType',
  'StructType',
  'Type',
  'Default',
  'KubernetesDefault',
  'Example',
  'Title',
  'ExternalDocs',
  'Enum',
  'Format',
]);
