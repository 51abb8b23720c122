/**
 * The shapes of marker decorators. Markers are read by `tsop manifests` from the source; at run
 * time they do nothing, so they cost nothing in a running operator.
 */

/** A marker on a class field (standard TC39 decorator). */
export type FieldMarker = (value: undefined, context: ClassFieldDecoratorContext) => void;
/** A marker on a class (an API kind, a nested type, or a controller). */
export type ClassMarker = (value: abstract new (...args: never) => unknown, context: ClassDecoratorContext) => void;
/** A marker that may stand on a field or on a class. */
export type FieldOrClassMarker = FieldMarker & ClassMarker;

function noop(): void {}

/** The one run-time implementation every marker shares. */
export const marker = noop as FieldOrClassMarker;
