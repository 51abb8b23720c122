/**
 * Validation and topology markers for fields and nested types — the `+kubebuilder:validation:*`,
 * `+listType`, `+mapType` and `+structType` markers of controller-gen, in camel case. Each is a
 * no-op at run time; `tsop manifests` reads them (run `tsop manifests --help` for the full table).
 */
import { marker, type FieldMarker, type FieldOrClassMarker, type ClassMarker } from './decorator.js';
import type { JSONValue, ValidationRule } from '../shapes/index.js';

export type { ValidationRule };

type Scalar = string | number | boolean;

/** `@Minimum(1)`: the number must be ≥ 1 (> 1 with `@ExclusiveMinimum()`). */
export const Minimum = (_value: number): FieldOrClassMarker => marker;
/** `@Maximum(10)`: the number must be ≤ 10. */
export const Maximum = (_value: number): FieldOrClassMarker => marker;
/** `@ExclusiveMinimum()`: make `@Minimum` exclusive. */
export const ExclusiveMinimum = (_value = true): FieldOrClassMarker => marker;
/** `@ExclusiveMaximum()`: make `@Maximum` exclusive. */
export const ExclusiveMaximum = (_value = true): FieldOrClassMarker => marker;
/** `@MultipleOf(5)`. */
export const MultipleOf = (_value: number): FieldOrClassMarker => marker;
/** `@MinLength(1)`: strings of at least 1 character. */
export const MinLength = (_value: number): FieldOrClassMarker => marker;
/** `@MaxLength(63)`. */
export const MaxLength = (_value: number): FieldOrClassMarker => marker;
/** `@Pattern('^[a-z]+$')`: a regular expression the string must match, in RE2 syntax (the API server's: no lookaround, no back-references). */
export const Pattern = (_regex: string): FieldOrClassMarker => marker;
/** `@Enum('Allow', 'Forbid')`: the allowed values. */
export const Enum = (..._values: Scalar[]): FieldOrClassMarker => marker;
/** `@Format('date-time')`: an OpenAPI format. */
export const Format = (_format: string): FieldOrClassMarker => marker;
/** `@Type('string')`: override the schema type. */
export const Type = (_type: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean'): FieldOrClassMarker =>
  marker;
/** `@MinItems(1)`. */
export const MinItems = (_value: number): FieldOrClassMarker => marker;
/** `@MaxItems(10)`. */
export const MaxItems = (_value: number): FieldOrClassMarker => marker;
/** `@UniqueItems()`: rewritten to `@ListType('set')`, since the API server forbids uniqueItems. */
export const UniqueItems = (_value = true): FieldOrClassMarker => marker;
/** `@MinProperties(1)`. */
export const MinProperties = (_value: number): FieldOrClassMarker => marker;
/** `@MaxProperties(10)`. */
export const MaxProperties = (_value: number): FieldOrClassMarker => marker;
/** `@Required()`: required even though declared with `?`. */
export const Required = (): FieldMarker => marker;
/** `@Optional()`: optional even though declared without `?`. */
export const Optional = (): FieldMarker => marker;
/** `@Nullable()`: `null` is an accepted value. */
export const Nullable = (): FieldOrClassMarker => marker;
/** `@Default(3)` or `@Default({})`: the value the API server fills in when the field is absent. */
export const Default = (_value: JSONValue): FieldOrClassMarker => marker;
/** `@KubernetesDefault(3)`: Kubernetes' `+default` (the JSDoc tag `@default 3` is the same); `@Default` wins over it. */
export const KubernetesDefault = (_value: JSONValue): FieldOrClassMarker => marker;
/** `@Example('10m')`. */
export const Example = (_value: JSONValue): FieldOrClassMarker => marker;
/** `@Title('Replicas')`. */
export const Title = (_title: string): FieldOrClassMarker => marker;
/** `@ExternalDocs({ url: 'https://example.com/docs', description: 'Guide' })`: a link to documentation outside the CRD. */
export const ExternalDocs = (_docs: { url: string; description?: string }): FieldOrClassMarker => marker;
/** `@XValidation({ rule: 'self.min <= self.max', message: 'min must not exceed max' })`. */
export const XValidation = (_rule: ValidationRule): FieldOrClassMarker => marker;
/** `@PreserveUnknownFields()`: keep fields the schema does not name. */
export const PreserveUnknownFields = (): FieldOrClassMarker => marker;
/** `@XEmbeddedResource()`: the object is a full Kubernetes object (apiVersion, kind, metadata). */
export const XEmbeddedResource = (): FieldOrClassMarker => marker;
/** `@XIntOrString()`: accept an integer or a string. */
export const XIntOrString = (): FieldOrClassMarker => marker;
/** `@Schemaless()`: emit no schema for this field (with `@PreserveUnknownFields()` usually). */
export const Schemaless = (): FieldMarker => marker;
/** `@Description('text')`: the description exactly as given, where a doc comment cannot carry it. */
export const Description = (_text: string): FieldOrClassMarker => marker;
/** `@DefaultsWhenPresent()`: the defaults inside this optional object apply only when it is present, as intended. */
export const DefaultsWhenPresent = (): FieldMarker => marker;
/** `@Immutable()`: the value cannot change once set (`self == oldSelf`); an optional field cannot be removed once set either. */
export const Immutable = (): FieldMarker => marker;
/** `@ExactlyOneOf('a', 'b')`: exactly one of the listed optional fields is set. */
export const ExactlyOneOf = (..._fields: string[]): ClassMarker => marker;
/** `@AtMostOneOf('a', 'b')`: at most one of the listed optional fields is set. */
export const AtMostOneOf = (..._fields: string[]): ClassMarker => marker;
/** `@AtLeastOneOf('a', 'b')`: at least one of the listed optional fields is set. */
export const AtLeastOneOf = (..._fields: string[]): ClassMarker => marker;

/** `@ListType('map')`: `atomic`, `set` or `map` (server-side apply merge semantics). */
export const ListType = (_type: 'atomic' | 'set' | 'map'): FieldMarker => marker;
/** `@ListMapKey('name')` (or several keys): the keys of a `@ListType('map')` list. */
export const ListMapKey = (..._keys: string[]): FieldMarker => marker;
/** `@MapType('atomic')`: `atomic` or `granular`. */
export const MapType = (_type: 'atomic' | 'granular'): FieldOrClassMarker => marker;
/** `@StructType('atomic')`: `atomic` or `granular`. */
export const StructType = (_type: 'atomic' | 'granular'): FieldOrClassMarker => marker;

// The same validations for the elements of an array field (`+kubebuilder:validation:items:*`).
/** `@ItemsMinimum(0)`. */
export const ItemsMinimum = (_value: number): FieldMarker => marker;
/** `@ItemsMaximum(100)`. */
export const ItemsMaximum = (_value: number): FieldMarker => marker;
/** `@ItemsExclusiveMinimum()`. */
export const ItemsExclusiveMinimum = (_value = true): FieldMarker => marker;
/** `@ItemsExclusiveMaximum()`. */
export const ItemsExclusiveMaximum = (_value = true): FieldMarker => marker;
/** `@ItemsMultipleOf(2)`. */
export const ItemsMultipleOf = (_value: number): FieldMarker => marker;
/** `@ItemsMinLength(1)`. */
export const ItemsMinLength = (_value: number): FieldMarker => marker;
/** `@ItemsMaxLength(63)`. */
export const ItemsMaxLength = (_value: number): FieldMarker => marker;
/** `@ItemsPattern('^[a-z]+$')`. */
export const ItemsPattern = (_regex: string): FieldMarker => marker;
/** `@ItemsEnum('a', 'b')`. */
export const ItemsEnum = (..._values: Scalar[]): FieldMarker => marker;
/** `@ItemsFormat('uri')`. */
export const ItemsFormat = (_format: string): FieldMarker => marker;
/** `@ItemsType('string')`. */
export const ItemsType = (_type: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean'): FieldMarker =>
  marker;
/** `@ItemsMinItems(1)` (for arrays of arrays). */
export const ItemsMinItems = (_value: number): FieldMarker => marker;
/** `@ItemsMaxItems(10)`. */
export const ItemsMaxItems = (_value: number): FieldMarker => marker;
/** `@ItemsUniqueItems()`. */
export const ItemsUniqueItems = (_value = true): FieldMarker => marker;
/** `@ItemsMinProperties(1)`. */
export const ItemsMinProperties = (_value: number): FieldMarker => marker;
/** `@ItemsMaxProperties(10)`. */
export const ItemsMaxProperties = (_value: number): FieldMarker => marker;
/** `@ItemsNullable()`. */
export const ItemsNullable = (): FieldMarker => marker;
/** `@ItemsXValidation({ rule: 'self.size() > 0' })`. */
export const ItemsXValidation = (_rule: ValidationRule): FieldMarker => marker;
/** `@ItemsPreserveUnknownFields()`: each element keeps fields its schema does not name. */
export const ItemsPreserveUnknownFields = (): FieldMarker => marker;
/** `@ItemsXEmbeddedResource()`: each element is a whole Kubernetes object. */
export const ItemsXEmbeddedResource = (): FieldMarker => marker;
/** `@ItemsXIntOrString()`: each element is an integer or a string. */
export const ItemsXIntOrString = (): FieldMarker => marker;
