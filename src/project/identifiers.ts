/**
 * Safe TypeScript names for a kind in generated code. A kind may be named like a JavaScript or
 * TypeScript global (`Promise`, `Function`, `Record`), like a reserved word once lower-cased
 * (`Class` → `class`), or like something a template imports (`Client`, `Condition`, `Resource`):
 * Kubernetes allows all of them. Generated modules then import the kind's type under an alias and
 * name its variable differently, so the project compiles whatever the kind is called. The lists
 * are fixed (not read from the running Node), so the output is the same on every Node version.
 */

/** Globals a generated module might use, as values or types: ES, TypeScript's lib, Node, web. */
const GLOBALS = new Set(
  `Array ArrayBuffer ArrayLike AsyncGenerator AsyncIterable AsyncIterableIterator AsyncIterator Atomics Awaited
  BigInt BigInt64Array BigUint64Array Blob Boolean Buffer BroadcastChannel ByteLengthQueuingStrategy Capitalize
  ConstructorParameters Crypto CryptoKey CustomEvent DataView Date DOMException Error EvalError Event EventTarget
  Exclude Extract File FinalizationRegistry Float32Array Float64Array FormData Function Generator Headers
  InstanceType Int16Array Int32Array Int8Array Intl Iterable IterableIterator Iterator JSON Lowercase Map Math
  MessageChannel MessageEvent MessagePort Navigator NodeJS NoInfer NonNullable Number Object Omit
  OmitThisParameter Parameters Partial Performance Pick Promise PromiseLike PropertyKey Proxy RangeError
  Readonly ReadonlyArray ReadonlyMap ReadonlySet ReadableStream Record ReferenceError Reflect RegExp Request
  Required Response ReturnType Set SharedArrayBuffer String Symbol SyntaxError TemplateStringsArray
  TextDecoder TextEncoder ThisParameterType ThisType TransformStream TypeError Uint16Array Uint32Array
  Uint8Array Uint8ClampedArray Uncapitalize Uppercase URIError URL URLSearchParams WeakMap WeakRef WeakSet
  WebAssembly WebSocket WritableStream AbortController AbortSignal Infinity NaN`.split(/\s+/),
);

/**
 * Names the api, controller and deploy-image templates import or declare next to the kind's
 * type (the kind-scoped ones, like `<Kind>Reconciler`, cannot clash).
 */
const TEMPLATE_NAMES = new Set(
  `Client Condition EventRecorder GroupVersion Kind KindRegistry ListMapKey ListType Manager NewCondition
  ObjectMeta PrintColumn Rbac ReconcileContext Reconciler Request Resource Result SubresourceStatus
  TerminalError KubeConfig`.split(/\s+/),
);

/** Words a `let`/`const` cannot be named in an ES module (strict mode), plus TypeScript's type keywords. */
const RESERVED = new Set(
  `break case catch class const continue debugger default delete do else enum export extends false finally
  for function if import in instanceof new null return super switch this throw true try typeof var void
  while with yield let static implements interface package private protected public await arguments eval
  undefined any unknown never object string number boolean symbol bigint type as async of`.split(/\s+/),
);

/** Variable names the controller templates declare in the same scope as the kind's variable. */
const TEMPLATE_LOCALS = new Set(
  `client recorder kinds req ctx log err conditions changed found dep key latest image labels mgr env obj
  settled again crds reconciler missing created structuredClone process console fetch globalThis
  name deleting desiredReplicas tag cr condition`.split(/\s+/),
);

/** True when a module that imports the kind's type must alias it. */
export function clashesWithGlobal(kind: string): boolean {
  return GLOBALS.has(kind) || TEMPLATE_NAMES.has(kind);
}

/** The name generated modules (controller, its test) give the kind's type: the kind, or `<Kind>Object` where the kind would shadow a global or an import. */
export function typeAlias(kind: string): string {
  return clashesWithGlobal(kind) ? `${kind}Object` : kind;
}

/** A variable name for one object of the kind: `cronJob`, or `classObj` where `class` is reserved or taken. */
export function variableName(camelKind: string): string {
  return RESERVED.has(camelKind) || TEMPLATE_LOCALS.has(camelKind) || GLOBALS.has(camelKind)
    ? `${camelKind}Obj`
    : camelKind;
}

/** `import { X }` or `import { X as Alias }` member text for one name. */
export function importMember(name: string, alias: string, typeOnly = false): string {
  const member = alias === name ? name : `${name} as ${alias}`;
  return typeOnly ? `type ${member}` : member;
}

/**
 * The import members of the types file (markers, with `markers` the template uses beyond the
 * api template's, `Condition`, `ObjectMeta`, `Kind`): each as it is, except the one the kind's own class would redeclare, imported under an alias (`Resource as
 * ResourceMarker`).
 */
export function typesFileImports(kind: string, markers: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['ListMapKey', 'ListType', 'PrintColumn', 'Resource', 'SubresourceStatus', ...markers])
    out[name] = name === kind ? `${name} as ${name}Marker` : name;
  for (const name of ['Condition', 'ObjectMeta', 'Kind']) out[name] = name === kind ? `${name} as ${name}Type` : name;
  return out;
}

/**
 * Globals TypeScript's decorator code (`__esDecorate`, the class's static initializer) reads
 * while a decorated class is being defined (found by compiling one: `Object`, `Symbol`,
 * `TypeError`; `Function`, `Array` or `Reflect` are not read). A module-level class of one of
 * these names would make its module fail as it loads (`Cannot access 'Symbol' before
 * initialization`).
 */
const DECORATOR_RUNTIME_GLOBALS = new Set(['Object', 'Symbol', 'TypeError']);

/**
 * The name the types file declares the kind's class under: the kind, or `<Kind>Object` where the
 * kind is a global the decorator code reads — that class is then exported under the kind's name
 * (`export { ObjectObject as Object }`), which `tsop manifests` takes as the kind.
 */
export function kindClassName(kind: string): string {
  return DECORATOR_RUNTIME_GLOBALS.has(kind) ? `${kind}Object` : kind;
}
