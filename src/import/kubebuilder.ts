/**
 * Reading a kubebuilder project for `tsop import kubebuilder`: its PROJECT file (domain, repo,
 * project name, multigroup, namespaced, and the resources it owns), the CRDs controller-gen
 * wrote to config/crd/bases/, and the Go files whose logic the user rewrites in TypeScript
 * (controllers, webhooks, main.go), each with the tsop command that scaffolds its counterpart.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { UserError } from '../errors.js';
import { checkProjectName, checkRepo, fullGroup } from '../project/naming.js';
import { yamlLibrary } from '../yaml/library.js';
import type { CrdSource } from './crd.js';
import { readCrds } from './documents.js';
import { readInputs } from './input.js';

export interface KubebuilderResource {
  group: string;
  version: string;
  kind: string;
  domain: string;
  plural?: string;
  /** The project defines the kind (kubebuilder's `api:`). */
  owned: boolean;
  namespaced: boolean;
  controller: boolean;
  /** PROJECT's `controllers` list (kubebuilder v4.15's `create api --controller-name`): the names as kubebuilder records them. */
  controllerNames?: string[];
  /** Another project's kind (kubebuilder's `external: true`), its Go package in `path`. */
  external: boolean;
  /** A built-in kind (`core: true`, or a `k8s.io/api` package without `api:`). */
  core: boolean;
  /** The Go package of its types. */
  path?: string;
  webhooks?: {
    defaulting?: boolean;
    validation?: boolean;
    conversion?: boolean;
    spoke?: string[];
    defaultingPath?: string;
    validationPath?: string;
  };
}

export interface KubebuilderProject {
  domain: string;
  /** The Go module path. */
  repo: string;
  projectName: string;
  multigroup: boolean;
  namespaced: boolean;
  resources: KubebuilderResource[];
  /** PROJECT's `plugins:` (each plugin's key → its settings). */
  plugins: Record<string, Record<string, unknown>>;
}

/** Where the migration guide says how to move each kind of Go file. */
export const MIGRATION_GUIDE = 'docs/migrating/import.md#rewrite-controllers-and-webhooks';

export async function readKubebuilderProject(dir: string): Promise<KubebuilderProject> {
  let text: string;
  try {
    text = await readFile(join(dir, 'PROJECT'), 'utf8');
  } catch {
    throw new UserError(
      `import kubebuilder: ${dir} has no PROJECT file, so it is not a kubebuilder project; pass the directory of one (where 'kubebuilder init' ran)`,
    );
  }
  let raw: unknown;
  try {
    raw = yamlLibrary().parse(text);
  } catch (error) {
    throw new UserError(
      `import kubebuilder: ${join(dir, 'PROJECT')} is not YAML (${(error as Error).message.split('\n')[0]}); fix it or regenerate it with kubebuilder`,
    );
  }
  const p = (raw ?? {}) as Record<string, unknown>;
  const layout = ([] as unknown[]).concat(p['layout'] ?? []).map(String);
  if (layout.some((l) => l.startsWith('typescript.tsop.dev')))
    throw new UserError(
      `import kubebuilder: ${dir} is a tsop project already; import CRDs into it with 'tsop import crd'`,
    );
  if (String(p['version']) !== '3')
    throw new UserError(
      `import kubebuilder: ${join(dir, 'PROJECT')} has version ${JSON.stringify(p['version'])}; ` +
        `tsop reads kubebuilder's version 3 PROJECT (kubebuilder v3 and v4): run 'kubebuilder ` +
        `alpha migrate' first`,
    );
  const domain = typeof p['domain'] === 'string' ? p['domain'] : '';
  const resources = (Array.isArray(p['resources']) ? p['resources'] : []).map((r: Record<string, unknown>) => {
    const api = r['api'] as Record<string, unknown> | undefined;
    const res: KubebuilderResource = {
      group: String(r['group'] ?? ''),
      version: String(r['version'] ?? ''),
      kind: String(r['kind'] ?? ''),
      domain: typeof r['domain'] === 'string' ? r['domain'] : domain,
      owned: api !== undefined && r['external'] !== true && r['core'] !== true,
      namespaced: api?.['namespaced'] === true,
      controller: r['controller'] === true || Array.isArray(r['controllers']),
      external: r['external'] === true,
      core: r['core'] === true || (api === undefined && String(r['path'] ?? '').startsWith('k8s.io/api/')),
    };
    if (Array.isArray(r['controllers']))
      res.controllerNames = (r['controllers'] as unknown[]).flatMap((c) =>
        c !== null && typeof c === 'object' && typeof (c as { name?: unknown }).name === 'string'
          ? [(c as { name: string }).name]
          : [],
      );
    if (typeof r['plural'] === 'string') res.plural = r['plural'];
    if (typeof r['path'] === 'string') res.path = r['path'];
    if (r['webhooks'] && typeof r['webhooks'] === 'object')
      res.webhooks = r['webhooks'] as KubebuilderResource['webhooks'];
    return res;
  });
  const projectName = typeof p['projectName'] === 'string' ? p['projectName'] : '';
  checkProjectName(projectName, 'projectName (from the kubebuilder PROJECT)');
  return {
    domain,
    repo: typeof p['repo'] === 'string' ? p['repo'] : '',
    projectName,
    multigroup: p['multigroup'] === true,
    namespaced: p['namespaced'] === true,
    resources,
    plugins: Object.fromEntries(Object.entries(mapping(p['plugins'])).map(([k, v]) => [k, mapping(v)])),
  };
}

function mapping(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The npm package name for a Go module path: `github.com/acme/memcached-operator` → `@acme/memcached-operator`. */
export function npmName(goRepo: string, projectName: string): string {
  const parts = goRepo
    .toLowerCase()
    .split('/')
    .filter((s) => s !== '');
  const clean = (s: string): string => s.replace(/[^a-z0-9-._~]/g, '-').replace(/^[-._]+/, '');
  const name =
    parts.length >= 3 && parts[0]!.includes('.')
      ? `@${clean(parts[parts.length - 2]!)}/${clean(parts[parts.length - 1]!)}`
      : clean(parts[parts.length - 1] ?? '');
  try {
    checkRepo(name);
    return name;
  } catch {
    return projectName;
  }
}

/** The CRDs of the kinds the project owns, from config/crd/bases/ (one per kind, whatever its versions). */
export async function ownedCrds(
  dir: string,
  project: KubebuilderProject,
): Promise<{ crds: CrdSource[]; notOwned: string[] }> {
  const bases = join(dir, 'config/crd/bases');
  const owned = project.resources.filter((r) => r.owned);
  if (owned.length === 0) return { crds: [], notOwned: [] };
  let inputs: Awaited<ReturnType<typeof readInputs>>;
  try {
    inputs = await readInputs(bases);
  } catch {
    throw new UserError(
      `import kubebuilder: ${bases} has no CRDs; run 'make manifests' in the kubebuilder project first, so controller-gen writes them`,
    );
  }
  const { crds } = readCrds(inputs);
  const wanted = new Map<string, KubebuilderResource>();
  for (const r of owned) wanted.set(`${fullGroup(r.group, r.domain)}/${r.kind}`, r);
  const out: CrdSource[] = [];
  for (const [key, r] of wanted) {
    const found = crds.find((c) => `${c.crd.spec.group}/${c.crd.spec.names.kind}` === key);
    if (!found)
      throw new UserError(
        `import kubebuilder: PROJECT lists ${fullGroup(r.group, r.domain)}/${r.version}, ` +
          `Kind=${r.kind}, but no CRD of config/crd/bases is that kind; run 'make manifests' in the ` +
          `kubebuilder project and import again`,
      );
    out.push(found);
  }
  const notOwned = crds.filter((c) => !out.includes(c)).map((c) => c.origin);
  return { crds: out, notOwned };
}

export interface GoFile {
  path: string;
  role: 'controller' | 'webhook' | 'main';
  /** The tsop command that scaffolds its TypeScript counterpart. */
  command: string;
  /** The PROJECT resource it belongs to, when found. */
  resource?: KubebuilderResource;
  /** A controller other than the kind's default one: the `--controller-name` tsop scaffolds it under. */
  controllerName?: string;
}

/** The Go files whose logic now moves to TypeScript, each with what to run in the tsop project. */
export async function goFilesToRewrite(dir: string, project: KubebuilderProject): Promise<GoFile[]> {
  const files = await goFiles(dir);
  const out: GoFile[] = [];
  for (const path of files) {
    const text = await readFile(join(dir, path), 'utf8');
    const base = path.split('/').pop()!;
    if (path === 'cmd/main.go' || path === 'main.go') {
      out.push({
        path,
        role: 'main',
        command: 'src/main.ts (each controller and webhook tsop scaffolds registers itself there)',
      });
    } else if (/\bReconcile\s*\(/.test(text) && /_controller\.go$/.test(base)) {
      const r = goFileResource(path, project);
      const named = r && namedController(r, base.replace(/_controller\.go$/, ''));
      const controllerName = r && named !== undefined ? tsopControllerName(project, r, named) : undefined;
      out.push({
        path,
        role: 'controller',
        ...(r ? { resource: r } : {}),
        ...(controllerName !== undefined ? { controllerName } : {}),
        command: r
          ? `tsop create api --group ${r.group} --version ${r.version} --kind ${r.kind} --resource=false --controller${controllerName !== undefined ? ` --controller-name ${controllerName}` : ''}`
          : 'tsop create api … --resource=false --controller',
      });
    } else if (
      /_webhook\.go$/.test(base) ||
      /webhook\.CustomDefaulter|webhook\.CustomValidator|admission\.Defaulter|ConvertTo\(/.test(text)
    ) {
      const r = goFileResource(path, project);
      const flags = r?.webhooks
        ? [
            r.webhooks.defaulting ? '--defaulting' : '',
            r.webhooks.validation ? '--programmatic-validation' : '',
            r.webhooks.conversion
              ? `--conversion${r.webhooks.spoke?.length ? ` --spoke ${r.webhooks.spoke.join(',')}` : ''}`
              : '',
          ].filter((f) => f !== '')
        : [];
      out.push({
        path,
        role: 'webhook',
        ...(r ? { resource: r } : {}),
        command: r
          ? `tsop create webhook --group ${r.group} --version ${r.version} --kind ${r.kind} ${flags.join(' ')}`.trim()
          : 'tsop create webhook …',
      });
    }
  }
  return out;
}

/**
 * The PROJECT resource a controller, webhook or conversion file (`<kind>_controller.go`,
 * `<kind>_webhook.go`, `<kind>_conversion.go`) belongs to. Kinds of one name in several groups or
 * versions are told apart by the directories kubebuilder puts them in (`internal/controller/<group>/`,
 * `internal/webhook/[<group>/]<version>/`, `api/[<group>/]<version>/`); a conversion file sits in
 * a spoke's package but belongs to the hub, whose webhook converts.
 */
export function goFileResource(path: string, project: KubebuilderProject): KubebuilderResource | undefined {
  const segments = path.split('/');
  const file = segments.pop()!;
  const [, stem, role] = /^(.*)_(controller|webhook|conversion)\.go$/.exec(file) ?? [];
  if (stem === undefined) return undefined;
  const kind = stem.replace(/_/g, '').toLowerCase();
  const matches = project.resources.filter(
    (r) => r.kind.toLowerCase() === kind || (role === 'controller' && namedController(r, stem) !== undefined),
  );
  const pick: (r: KubebuilderResource) => boolean =
    role === 'controller'
      ? (r) => r.controller
      : role === 'conversion'
        ? (r) => r.webhooks?.conversion === true
        : (r) => r.webhooks !== undefined;
  const picked = matches.filter(pick);
  const pool = picked.length > 0 ? picked : matches;
  const versions = (r: KubebuilderResource): string[] =>
    role === 'conversion' ? [r.version, ...(r.webhooks?.spoke ?? [])] : [r.version];
  const score = (r: KubebuilderResource): number =>
    (segments.includes(r.group === '' ? 'core' : r.group) ? 2 : 0) +
    (versions(r).some((v) => segments.includes(v)) ? 1 : 0);
  return pool.reduce<KubebuilderResource | undefined>(
    (best, r) => (best && score(best) >= score(r) ? best : r),
    undefined,
  );
}

/** The controller of `r` a `<stem>_controller.go` is (kubebuilder names its file after it), other than the kind's default one. */
function namedController(r: KubebuilderResource, stem: string): string | undefined {
  return r.controllerNames?.find((n) => n !== r.kind.toLowerCase() && n.replace(/-/g, '_') === stem);
}

/**
 * The `--controller-name` tsop scaffolds a kubebuilder controller under, or undefined for the
 * kind's default one (named after the kind). kubebuilder runs a named controller as
 * `<group>-<name>` in a multigroup project, and tsop's name is the one it runs under.
 */
export function tsopControllerName(
  project: KubebuilderProject,
  r: KubebuilderResource,
  name: string,
): string | undefined {
  if (name === r.kind.toLowerCase()) return undefined;
  return project.multigroup && r.group !== '' ? `${r.group.toLowerCase()}-${name}` : name;
}

const SKIPPED_DIRS = new Set(['vendor', 'bin', 'testdata', '.git', 'node_modules']);

/** The project's Go sources, without generated code, tests and vendored code. */
async function goFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const full = join(d, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) await walk(full);
      } else if (e.name.endsWith('.go') && !e.name.endsWith('_test.go') && !e.name.startsWith('zz_generated')) {
        out.push(relative(dir, full).split(sep).join('/'));
      }
    }
  };
  await walk(dir);
  return out.sort();
}
