/**
 * One version's schema → the TypeScript types that say it: a class per object shape (shared by
 * every place the same shape stands), a type alias where a list element or map value needs a
 * description or validations of its own, tsop's known and core types where a sub-schema is
 * exactly one of them, and for every other keyword the marker decorator that writes it. What no
 * TypeScript can say is recorded as a Loss at its path, with the closest type written instead.
 *
 * Where a keyword can go depends on where its node stands: a field takes any marker; the elements
 * of an array field take the `@Items…` markers; deeper nodes (map values, lists in lists) only
 * what a type alias carries (a description and the JSDoc tags of codegen/reader); an object's
 * class takes its own markers, so one class serves every use of the same shape.
 */
import { QUANTITY_PATTERN } from '../codegen/known.js';
import type { JSONSchemaProps } from '../codegen/jsonschema.js';
import { sameSchema } from './compare.js';
import type { CoreTypeMatcher } from './core-types.js';
import { describedAs, describedBy, docProblem, tagProblem } from './doc-text.js';
import type { Decorator, Loss, TsAlias, TsClass, TsField, TsType } from './model.js';
import { pascal } from '../project/naming.js';
import { nameInDoc, singular, type NameRequest } from './names.js';
import { ALIAS_TAGS, markersFor, type MarkerSite } from './schema-markers.js';
import { bodyHash, fullHash } from './schema-hash.js';

type Site = 'field' | 'items' | 'nested';

/** Where a node stands, for naming the type it may need. */
interface Hint {
  /** The nearest field name above the node. */
  field: string;
  parent: NameRequest;
  /** The node is a list element (named in the singular) or a map value (`…Value`). */
  element?: 'items' | 'value';
}

interface Expressed {
  type: TsType;
  decorators: Decorator[];
}

/** A declared type with its name to be assigned (names.ts) once every type is known. */
export interface Planned {
  request: NameRequest;
  /** The TsType other declarations refer to it by; its name is filled in with the request's. */
  ref: { kind: 'named'; name: string };
  decl: TsClass | TsAlias;
  /** The JSON path where it was first needed. */
  path: string;
}

export interface TypesOptions {
  kind: string;
  version: string;
  matcher: CoreTypeMatcher;
  /** The project generates embedded ObjectMeta (manifests' generateEmbeddedObjectMeta). */
  embeddedObjectMeta: boolean;
  /** The project's maxDescLen, which cuts every description the files give. */
  maxDescLen?: number;
}

const INT_OR_STRING: JSONSchemaProps[] = [{ type: 'integer' }, { type: 'string' }];
const COMPOSITIONS = ['allOf', 'oneOf', 'not'] as const;

export class TypeWriter {
  /** Every class and alias, in the order they were first met (parents before children). */
  readonly planned: Planned[] = [];
  private readonly classesByBody = new Map<string, Planned[]>();
  private readonly aliasesByNode = new Map<string, Planned>();
  /** Paths where a class or alias made for an earlier path stands again: [later, first]. */
  readonly sharedPaths: Array<[string, string]> = [];

  constructor(private readonly o: TypesOptions) {}

  private loss(losses: Loss[], path: string, what: string): void {
    losses.push({ version: this.o.version, path, what });
  }

  /** The fields of an object node (its properties, required unless listed otherwise). */
  fields(node: JSONSchemaProps, path: string, parent: NameRequest, losses: Loss[]): TsField[] {
    const props = node.properties ?? {};
    const required = new Set(node.required ?? []);
    for (const name of required) {
      if (!(name in props))
        this.loss(
          losses,
          path,
          `required lists '${name}', which is not a field (a TypeScript field is required only where it is declared)`,
        );
    }
    return Object.entries(props).map(([name, child]) =>
      this.field(name, child, required.has(name), `${path}.${name}`, parent),
    );
  }

  field(name: string, node: JSONSchemaProps, required: boolean, path: string, parent: NameRequest): TsField {
    const losses: Loss[] = [];
    const r = this.express(node, 'field', path, { field: name, parent }, losses);
    const field: TsField = { name, path, type: r.type, optional: !required, decorators: r.decorators, losses };
    // A kind's own fields (spec, status) are not checked: only fields of its classes.
    if (!required && r.type.kind === 'named' && path.split('.').length > 2 && defaultsOnlyWhenPresent(node))
      field.decorators = [...r.decorators, { name: 'DefaultsWhenPresent', args: [] }];
    if (node.description !== undefined) {
      const d = describedAs(node.description, this.o.maxDescLen);
      if ('doc' in d) field.doc = d.doc;
      else if ('marker' in d) field.decorators = [...field.decorators, d.marker];
      else this.loss(losses, path, d.problem);
    }
    return field;
  }

  /** The class-level markers and doc of an object node; the caller owns its fields. */
  classMarkers(node: JSONSchemaProps, path: string, losses: Loss[], skip: ReadonlySet<string>): Decorator[] {
    const out: Decorator[] = [];
    for (const [key, value] of Object.entries(node)) {
      if (skip.has(key) || key === 'type' || key === 'properties' || key === 'required' || key === 'description')
        continue;
      if (key === 'additionalProperties') {
        this.loss(
          losses,
          path,
          'additionalProperties beside properties (a TypeScript type has either fields or an index signature)',
        );
        continue;
      }
      const m = markersFor(key, value, 'class');
      if (typeof m === 'string') this.loss(losses, path, m);
      else out.push(...m);
    }
    return out;
  }

  private express(node: JSONSchemaProps, site: Site, path: string, hint: Hint, losses: Loss[]): Expressed {
    const known = this.o.matcher.match(node, site === 'field', hint.field);
    if (known) return { type: known, decorators: [] };
    if (node.type === 'object' && node.properties !== undefined)
      return { type: this.classFor(node, site, path, hint), decorators: [] };

    const rest = new Set(Object.keys(node));
    const core = this.typeCore(node, rest, site, path, hint, losses);
    let type = core.type;
    const decorators = [...core.decorators];
    // A phase-0 marker (@Type, @Schemaless) empties the node first: nullable then goes by marker.
    if (node.nullable === true && core.decorators.length === 0) {
      rest.delete('nullable');
      if (node.enum !== undefined)
        this.loss(
          losses,
          path,
          'a nullable enum (tsop writes its values as a CEL rule, since the API server never lets null through an enum)',
        );
      type = { kind: 'nullable', type };
    }
    const tags: TsAlias['tags'] = [];
    const siteOfMarkers: MarkerSite = site === 'field' ? 'field' : 'items';
    for (const key of rest) {
      if (key === 'description') continue;
      const value = (node as Record<string, unknown>)[key];
      if (site === 'nested' || (site === 'items' && ALIAS_TAGS[key] !== undefined && !markerOk(key, value))) {
        const tag = ALIAS_TAGS[key];
        const problem =
          tag === undefined
            ? `${key} on a value inside a list or map (only a type alias's description and @${Object.keys(ALIAS_TAGS).join('/@')} tags reach there)`
            : tagProblem(String(value));
        if (problem) this.loss(losses, path, problem);
        else tags.push({ tag: tag!, value: value as string | number });
        continue;
      }
      const m = markersFor(key, value, siteOfMarkers);
      if (typeof m === 'string') this.loss(losses, path, m);
      else decorators.push(...m);
    }
    if (site !== 'field' && (node.description !== undefined || tags.length > 0))
      type = this.aliasFor(node, type, tags, path, hint, losses);
    return { type, decorators };
  }

  /** The TypeScript type of a node that is not a class, and the keywords it says by itself. */
  private typeCore(
    node: JSONSchemaProps,
    rest: Set<string>,
    site: Site,
    path: string,
    hint: Hint,
    losses: Loss[],
  ): Expressed {
    const take = (...keys: string[]): void => {
      for (const k of keys) rest.delete(k);
    };
    for (const k of COMPOSITIONS) {
      if (k in node) {
        take(k);
        this.loss(losses, path, `${k} (no tsop marker writes it)`);
      }
    }
    if (node['x-kubernetes-int-or-string'] === true) {
      take('x-kubernetes-int-or-string', 'anyOf', 'type');
      if (node.type !== undefined)
        this.loss(losses, path, `type: ${node.type} on an int-or-string (tsop writes none: the value is either)`);
      if (node.anyOf === undefined)
        this.loss(losses, path, 'int-or-string without anyOf (tsop writes anyOf: [integer, string] with it)');
      else if (!sameSchema({ anyOf: node.anyOf }, { anyOf: INT_OR_STRING }))
        this.loss(losses, path, 'anyOf other than [integer, string] on an int-or-string');
      if (node.pattern === QUANTITY_PATTERN) {
        take('pattern');
        return plainType({ kind: 'known', name: 'Quantity' });
      }
      return plainType({ kind: 'known', name: 'IntOrString' });
    }
    if ('anyOf' in node) {
      take('anyOf');
      this.loss(losses, path, 'anyOf (no tsop marker writes it)');
    }
    const phase0 = (name: string, arg: string, closest: TsType): Expressed => {
      if (site === 'nested') {
        this.loss(
          losses,
          path,
          `${arg} with no format as a map value or in a nested list (Go's plain int; tsop writes int32 or int64 there, each with its format, and @ItemsType reaches only a list's own elements)`,
        );
        return plainType(closest);
      }
      return {
        type: { kind: 'primitive', name: 'number' },
        decorators: [{ name: site === 'field' ? name : `Items${name}`, args: [arg] }],
      };
    };
    switch (node.type) {
      case 'string':
        take('type');
        if (node.format === 'date-time') {
          take('format');
          return plainType({ kind: 'known', name: 'Time' });
        }
        if (isLiteralEnum(node.enum, 'string')) {
          take('enum');
          return plainType({ kind: 'literals', values: node.enum as string[] });
        }
        return plainType({ kind: 'primitive', name: 'string' });
      case 'integer':
        take('type');
        if (node.format === 'int32' || node.format === 'int64') {
          take('format');
          return plainType({ kind: 'known', name: node.format });
        }
        if (node.format === undefined && isLiteralEnum(node.enum, 'integer')) {
          take('enum');
          return plainType({ kind: 'literals', values: node.enum as number[] });
        }
        return phase0('Type', 'integer', { kind: 'known', name: 'int64' });
      case 'number':
        take('type');
        // Plain `number` reads as a float by accident to tsop manifests, which warns; this CRD means one.
        if (site === 'nested') return plainType({ kind: 'primitive', name: 'number' });
        return {
          type: { kind: 'primitive', name: 'number' },
          decorators: [{ name: site === 'field' ? 'Type' : 'ItemsType', args: ['number'] }],
        };
      case 'boolean':
        take('type');
        return plainType({ kind: 'primitive', name: 'boolean' });
      case 'array': {
        take('type', 'items');
        if (node.items === undefined) {
          this.loss(losses, path, 'a list without items');
          return plainType({ kind: 'array', items: { kind: 'known', name: 'JSONValue' } });
        }
        const items = this.express(
          node.items,
          site === 'field' ? 'items' : 'nested',
          `${path}[*]`,
          { ...hint, element: 'items' },
          losses,
        );
        return { type: { kind: 'array', items: items.type }, decorators: items.decorators };
      }
      case 'object': {
        take('type');
        const ap = node.additionalProperties;
        if (ap !== undefined) {
          take('additionalProperties');
          if (typeof ap === 'object') {
            const values = this.express(ap, 'nested', `${path}[*]`, { ...hint, element: 'value' }, losses);
            return plainType({ kind: 'map', values: values.type });
          }
          this.loss(losses, path, `additionalProperties: ${String(ap)}`);
          return plainType({ kind: 'map', values: { kind: 'known', name: 'JSONValue' } });
        }
        if (node['x-kubernetes-preserve-unknown-fields'] === true) {
          take('x-kubernetes-preserve-unknown-fields');
          return plainType({ kind: 'known', name: 'RawExtension' });
        }
        if (site === 'field' && hint.field === 'metadata' && !this.o.embeddedObjectMeta)
          return plainType({ kind: 'known', name: 'ObjectMeta' });
        // `{type: object}` alone: any JSON value, typed object by the marker.
        if (site === 'nested') {
          this.loss(losses, path, 'an object with no fields inside a list or map');
          return plainType({ kind: 'known', name: 'RawExtension' });
        }
        return {
          type: { kind: 'known', name: 'JSONValue' },
          decorators: [{ name: site === 'field' ? 'Type' : 'ItemsType', args: ['object'] }],
        };
      }
      case undefined:
        if (node['x-kubernetes-preserve-unknown-fields'] === true) {
          take('x-kubernetes-preserve-unknown-fields');
          return plainType({ kind: 'known', name: 'JSONValue' });
        }
        if (site === 'field')
          return { type: { kind: 'known', name: 'JSONValue' }, decorators: [{ name: 'Schemaless', args: [] }] };
        this.loss(losses, path, 'a schema without a type inside a list or map');
        return plainType({ kind: 'known', name: 'JSONValue' });
      default:
        take('type');
        this.loss(losses, path, `type ${JSON.stringify(node.type)}`);
        return plainType({ kind: 'known', name: 'JSONValue' });
    }
  }

  /** The class for an object node: one per shape (and description, where the class carries it). */
  private classFor(node: JSONSchemaProps, site: Site, path: string, hint: Hint): TsType {
    const body = bodyHash(node);
    // At a field the field's doc comment carries the description, so any class of the shape will do.
    const doc = site === 'field' ? undefined : node.description;
    const same = this.classesByBody.get(body) ?? [];
    const found =
      site === 'field' && node.description !== undefined
        ? same[0]
        : same.find(
            (p) => (p.decl.doc ?? (p.decl.kind === 'class' ? describedBy(p.decl.decorators) : undefined)) === doc,
          );
    if (found) {
      this.sharedPaths.push([path, found.path]);
      return found.ref;
    }
    const request = this.request(hint, doc);
    const losses: Loss[] = [];
    const cls: TsClass = { kind: 'class', name: '', path, decorators: [], fields: [], losses };
    const described = doc === undefined ? undefined : describedAs(doc, this.o.maxDescLen);
    if (described && 'doc' in described) cls.doc = described.doc;
    else if (described && 'problem' in described) this.loss(losses, path, described.problem);
    const planned: Planned = { request, ref: { kind: 'named', name: '' }, decl: cls, path };
    this.planned.push(planned);
    this.classesByBody.set(body, [...same, planned]);
    cls.decorators = this.classMarkers(node, path, losses, new Set());
    if (described && 'marker' in described) cls.decorators.push(described.marker);
    cls.fields = this.fields(node, path, request, losses);
    return planned.ref;
  }

  /** A type alias carrying a list element's or map value's description and validation tags. */
  private aliasFor(
    node: JSONSchemaProps,
    type: TsType,
    tags: TsAlias['tags'],
    path: string,
    hint: Hint,
    losses: Loss[],
  ): TsType {
    const key = fullHash(node);
    const found = this.aliasesByNode.get(key);
    if (found) {
      this.sharedPaths.push([path, found.path]);
      return found.ref;
    }
    const alias: TsAlias = { kind: 'alias', name: '', tags, type, losses: [] };
    if (node.description !== undefined) {
      alias.doc = node.description;
      const problem = docProblem(node.description, this.o.maxDescLen);
      if (problem) this.loss(losses, path, problem);
    }
    const planned: Planned = {
      request: this.request(hint, node.description),
      ref: { kind: 'named', name: '' },
      decl: alias,
      path,
    };
    this.planned.push(planned);
    this.aliasesByNode.set(key, planned);
    return planned.ref;
  }

  private request(hint: Hint, doc: string | undefined): NameRequest {
    const word =
      pascal(hint.element === 'items' ? singular(hint.field) : hint.field) + (hint.element === 'value' ? 'Value' : '');
    if (
      hint.parent.fixed === this.rootName &&
      hint.element === undefined &&
      (hint.field === 'spec' || hint.field === 'status')
    ) {
      return { fixed: `${this.o.kind}${pascal(hint.field)}` };
    }
    const preferred = nameInDoc(doc);
    return {
      ...(preferred !== undefined ? { preferred } : {}),
      short: `${this.o.kind}${word}`,
      parent: hint.parent,
      suffix: word,
    };
  }

  /** The kind class's fixed name (set by the caller before the root's fields are read). */
  rootName = '';
}

function plainType(type: TsType): Expressed {
  return { type, decorators: [] };
}

/** Values a TypeScript literal union says exactly: distinct strings, or distinct whole numbers. */
function isLiteralEnum(values: unknown, type: 'string' | 'integer'): boolean {
  if (!Array.isArray(values) || values.length === 0) return false;
  const ok = type === 'string' ? values.every((v) => typeof v === 'string') : values.every((v) => Number.isInteger(v));
  return ok && new Set(values).size === values.length;
}

/** Whether an element's keyword has an `@Items…` marker (else a type alias's tag may carry it). */
function markerOk(key: string, value: unknown): boolean {
  return typeof markersFor(key, value, 'items') !== 'string';
}

/**
 * An optional object without a default of its own whose fields have defaults: they apply only
 * when it is present. The CRD says so as written, so the field records it is intended
 * (@DefaultsWhenPresent) and `tsop manifests` does not warn of it.
 */
function defaultsOnlyWhenPresent(node: JSONSchemaProps): boolean {
  return (
    node.default === undefined &&
    node.properties !== undefined &&
    Object.values(node.properties).some((p) => p.default !== undefined)
  );
}
