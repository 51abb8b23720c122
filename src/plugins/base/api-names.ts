/**
 * The names a new kind's CRD asks for must be free in its API group, or the API server leaves the
 * CRD unestablished (NamesAccepted=False, "… is already in use"): its plural and singular among
 * the other kinds' plurals and singulars, its kind and list kind among their kinds and list kinds;
 * and a new version of a kind keeps the kind's plural (its versions are one CRD). The group itself
 * must have a dot, which only the project's domain can give it.
 * `create api` checks this while planning, against PROJECT and the CRD file the plural would take
 * (whose kind may have had its plural set in source), so nothing is written for a kind that could
 * never be served.
 */
import { parse as parseYaml } from 'yaml';
import type { ProjectConfig } from '../../project/config.js';
import { fullGroup, InvalidFlagError } from '../../project/naming.js';
import { pluralOfKind } from '../../project/plural.js';
import type { ResourceNames } from '../../project/resource.js';
import type { Tree } from '../../scaffold/tree.js';

/** What a CRD claims in its group. */
interface CrdNames {
  kind: string;
  plural: string;
  singular: string;
  listKind: string;
  /** The PROJECT entry's version (absent for a CRD on disk). */
  version?: string;
}

const WHY = 'names in a group must differ, or the API server does not serve the CRD';

/** Throws the one-line refusal when the kind's names are taken by another kind of its group. */
export function checkNamesFree(
  tree: Tree,
  config: ProjectConfig,
  n: ResourceNames,
  pluralGiven: string | undefined,
): void {
  // The API server's CRD validation: spec.group "should be a domain with at least one dot".
  if (!n.fullGroup.includes('.')) {
    throw new InvalidFlagError(
      'group',
      n.group,
      `makes the API group '${n.fullGroup}' (PROJECT has no domain), and a CRD's group needs at least one dot`,
      "add a domain to PROJECT (e.g. 'domain: example.com')",
    );
  }
  const mine = namesOf(n.kind, n.plural);
  for (const other of otherKinds(tree, config, n)) {
    if (other.kind === n.kind) {
      // One CRD per kind: its versions share the plural (manifests would rename the CRD otherwise).
      if (
        pluralGiven !== undefined &&
        other.version !== undefined &&
        other.version !== n.version &&
        other.plural !== mine.plural
      ) {
        throw new InvalidFlagError(
          'plural',
          pluralGiven,
          `differs from '${other.plural}', the plural of ${n.kind} ${other.version} (the versions of a kind are one CRD with one plural)`,
          `leave --plural out or pass '${other.plural}'`,
        );
      }
      continue;
    }
    const resourceClash = (name: string): string | undefined =>
      name === other.plural
        ? `${other.kind}'s plural`
        : name === other.singular
          ? `${other.kind}'s singular`
          : undefined;
    const pluralTaken = resourceClash(mine.plural);
    if (pluralTaken !== undefined) {
      const taken = `is already ${pluralTaken} in ${n.fullGroup} (${WHY})`;
      if (pluralGiven !== undefined) throw new InvalidFlagError('plural', pluralGiven, taken, 'pass another --plural');
      throw new InvalidFlagError(
        'kind',
        n.kind,
        `derives the CRD plural '${mine.plural}', which ${taken}`,
        'pass --plural with another plural',
      );
    }
    const singularTaken = resourceClash(mine.singular);
    if (singularTaken !== undefined) {
      throw new InvalidFlagError(
        'kind',
        n.kind,
        `has the singular '${mine.singular}', which is already ${singularTaken} in ${n.fullGroup} (${WHY})`,
        'choose another kind',
      );
    }
    const kindClash = (name: string): string | undefined =>
      name === other.kind
        ? `the kind ${other.kind}`
        : name === other.listKind
          ? `${other.kind}'s list kind`
          : undefined;
    const kindTaken = kindClash(mine.kind) ?? kindClash(mine.listKind);
    if (kindTaken !== undefined) {
      const what = kindClash(mine.kind) !== undefined ? 'is' : `has the list kind '${mine.listKind}', which is`;
      throw new InvalidFlagError(
        'kind',
        n.kind,
        `${what} already ${kindTaken} in ${n.fullGroup} (${WHY})`,
        'choose another kind',
      );
    }
  }
}

function namesOf(kind: string, plural: string): CrdNames {
  return { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` };
}

/** The project's other kinds of the group: from PROJECT, and from the CRDs on disk. */
function otherKinds(tree: Tree, config: ProjectConfig, n: ResourceNames): CrdNames[] {
  const out: CrdNames[] = config.resources
    .filter((r) => !r.core && !r.external && r.api !== undefined && fullGroup(r.group, r.domain) === n.fullGroup)
    .map((r) => ({ ...namesOf(r.kind, r.plural ?? pluralOfKind(r.kind)), version: r.version }));
  // The CRD file this kind's plural would take: its kind there may be one whose plural was set in source.
  const onDisk = crdNames(tree.read(n.paths.crd));
  if (onDisk) out.push(onDisk);
  return out;
}

/** The names a CRD file on disk claims, or undefined when it is not a readable CRD. */
function crdNames(text: string | undefined): CrdNames | undefined {
  if (text === undefined) return undefined;
  try {
    const doc = parseYaml(text) as { spec?: { names?: Partial<Record<keyof CrdNames, unknown>> } } | null;
    const names = doc?.spec?.names;
    if (typeof names?.kind !== 'string' || typeof names.plural !== 'string') return undefined;
    const base = namesOf(names.kind, names.plural);
    return {
      ...base,
      ...(typeof names.singular === 'string' ? { singular: names.singular } : {}),
      ...(typeof names.listKind === 'string' ? { listKind: names.listKind } : {}),
    };
  } catch {
    return undefined; // not ours to judge here; manifests rewrites it
  }
}
