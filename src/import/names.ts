/**
 * Names for the types `import` declares, chosen as a person would: the kind, then `<Kind>Spec`
 * and `<Kind>Status`, then `<Kind><Field>` for every other object (the field name in PascalCase,
 * singular for list elements: `rules[]` → `HTTPRouteRule`). Where two different schemas would get
 * the same short name, neither does: each is named after its parent type instead
 * (`<Parent><Field>`), so a name does not depend on which of the two came first and stays put
 * when the CRD grows elsewhere.
 */
import { clashesWithGlobal } from '../project/identifiers.js';

/** English singular of a field name for a list's element type, when the plural is regular. */
export function singular(word: string): string {
  if (/ies$/.test(word) && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|z|ias|tus)es$/.test(word)) return word.slice(0, -2);
  if (/(ss|us|is|ics|ous|Status|status|Data|data)$/.test(word)) return word;
  if (/s$/.test(word) && word.length > 3) return word.slice(0, -1);
  return word;
}

/** A type that needs a name, with the short and long names it may take. */
export interface NameRequest {
  /** Fixed names (the kind, its Spec and Status) are not contested. */
  fixed?: string;
  /** The name the type's own description gives it (`AnnotationValue is the value of …`). */
  preferred?: string;
  /** `<Kind><Field>`. */
  short?: string;
  /** The parent's request and the suffix it adds to the parent's name. */
  parent?: NameRequest;
  suffix?: string;
  /** Filled by assignNames. */
  name?: string;
}

/**
 * Names every request: fixed ones as given, then each short name that only one request asks for
 * (and that no fixed name, global or imported name takes), then parent-qualified names for the
 * rest, with a number added in the rare case that still collides. Requests are named in order,
 * parents first (they are created before their children).
 */
export function assignNames(requests: readonly NameRequest[], reserved: ReadonlySet<string>): void {
  const taken = new Set<string>(reserved);
  for (const r of requests) if (r.fixed !== undefined) taken.add((r.name = r.fixed));
  const candidates = (r: NameRequest): string[] => [
    ...new Set([r.preferred, r.short].filter((c): c is string => c !== undefined)),
  ];
  const askers = new Map<string, number>();
  for (const r of requests)
    if (r.fixed === undefined) for (const c of candidates(r)) askers.set(c, (askers.get(c) ?? 0) + 1);
  for (const r of requests) {
    if (r.fixed !== undefined) continue;
    const name = candidates(r).find((c) => askers.get(c) === 1 && !taken.has(c) && !clashesWithGlobal(c));
    if (name !== undefined) taken.add((r.name = name));
  }
  for (const r of requests) {
    if (r.name !== undefined) continue;
    const base = `${r.parent?.name ?? ''}${r.suffix ?? 'Type'}`;
    let name = base;
    for (let i = 2; taken.has(name) || clashesWithGlobal(name); i++) name = `${base}${i}`;
    taken.add((r.name = name));
  }
}

/**
 * The type name a description starts with, as Go doc comments do (`AnnotationValue is the value
 * of an annotation`), or undefined.
 */
/** The verbs a Go doc comment opens with after the type's name ("Foo is …", "Foo defines …"). */
const DOC_VERBS = [
  'is',
  'are',
  'defines',
  'describes',
  'specifies',
  'represents',
  'contains',
  'holds',
  'identifies',
  'configures',
  'references',
  'selects',
  'provides',
  'allows',
  'stores',
  'indicates',
  'maps',
  'matches',
  'wraps',
  'sets',
  'enables',
  'has',
];

export function nameInDoc(doc: string | undefined): string | undefined {
  const m = new RegExp(`^([A-Z][A-Za-z0-9]{2,})\\s+(${DOC_VERBS.join('|')})\\b`).exec(doc ?? '');
  return m?.[1];
}
