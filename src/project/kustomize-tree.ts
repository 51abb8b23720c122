/**
 * Which files under config/ a kustomize build of config/default reads: the kustomizations it
 * reaches through `resources` and `components`, and the files they name as resources, patches,
 * replacements, CRDs and configurations. The scaffold keeps alternatives (self-provisioned
 * certificates, metrics auth, network policies) commented out in those kustomizations; a file only
 * such a line names is not part of the build until the user enables it.
 */
import { readFile, stat } from 'node:fs/promises';
import { join, normalize, relative, sep } from 'node:path';
import { yamlLibrary } from '../yaml/library.js';

const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** The keys of a kustomization whose values name files (a string, or an entry with `path`). */
const FILE_KEYS = [
  'resources',
  'components',
  'crds',
  'configurations',
  'patchesStrategicMerge',
  'patches',
  'patchesJson6902',
  'replacements',
];

/**
 * The files (relative to `configDir`, `/`-separated) that `kustomize build <configDir>/<entry>`
 * reads; undefined when the entry has no kustomization, or one cannot be read as YAML, so the
 * caller cannot tell what is in use.
 */
export async function kustomizeBuildFiles(configDir: string, entry = 'default'): Promise<Set<string> | undefined> {
  const files = new Set<string>();
  const key = (path: string): string => relative(configDir, path).split(sep).join('/');
  const visit = async (dir: string): Promise<boolean> => {
    const kustomization = await kustomizationIn(dir);
    if (kustomization === undefined) return false;
    if (files.has(key(kustomization))) return true;
    files.add(key(kustomization));
    let doc: unknown;
    try {
      doc = yamlLibrary().parse(await readFile(kustomization, 'utf8'));
    } catch {
      return false;
    }
    for (const ref of namedFiles(doc)) {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(ref) || ref.startsWith('git@')) continue; // remote: nothing of ours
      const target = normalize(join(dir, ref));
      const isDir = await stat(target).then(
        (s) => s.isDirectory(),
        () => false,
      );
      if (isDir) {
        if (!(await visit(target))) return false;
      } else files.add(key(target));
    }
    return true;
  };
  return (await visit(join(configDir, entry))) ? files : undefined;
}

async function kustomizationIn(dir: string): Promise<string | undefined> {
  for (const name of KUSTOMIZATION_NAMES) {
    const file = join(dir, name);
    if (
      await stat(file).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return file;
  }
  return undefined;
}

/** The file references of one parsed kustomization. */
function namedFiles(doc: unknown): string[] {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return [];
  const out: string[] = [];
  for (const key of FILE_KEYS) {
    const value = (doc as Record<string, unknown>)[key];
    if (!Array.isArray(value)) continue;
    for (const item of value) {
      if (typeof item === 'string') out.push(item);
      else if (item !== null && typeof item === 'object' && typeof (item as { path?: unknown }).path === 'string')
        out.push((item as { path: string }).path);
    }
  }
  return out;
}
