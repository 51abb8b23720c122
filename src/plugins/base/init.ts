/**
 * The base project (`tsop init`): PROJECT, package.json, tsconfig, src/main.ts with its scaffold
 * markers, the embedded runtime, the container build, the README, the license header, and the
 * kustomize tree under config/. Pure apart from reading templates: it records into a Tree.
 *
 * How the generated project reaches tsop: tsop is a devDependency (see tsopDependencySpec in
 * src/version.ts: `^<version>` from a registry install, `file:<path>` from a checkout, or
 * TSOP_DEPENDENCY), so `npm run manifests` is
 * `tsop manifests` from node_modules/.bin. The runtime is not a dependency but embedded source
 * (see scaffold/embedded-runtime.ts); its npm dependencies are listed in package.json.
 */
import { createHash } from 'node:crypto';
import { LAYOUT, renderProject, withTsopSettings, type ProjectConfig } from '../../project/config.js';
import { renderSet } from '../../scaffold/render.js';
import type { Tree } from '../../scaffold/tree.js';
import { boilerplate, BOILERPLATE_FILE, withHeader } from '../../scaffold/boilerplate.js';
import { copyControlPlaneScript, embedRuntime } from '../../scaffold/embedded-runtime.js';
import type { InitOptions } from '../plugin.js';

/** Records the project into `tree`; `layout` is what PROJECT's layout lists (the catalog's layout plugin). */
export function scaffoldInit(tree: Tree, o: InitOptions, layout: readonly string[] = [LAYOUT]): ProjectConfig {
  let config: ProjectConfig = {
    version: '3',
    cliVersion: o.tsopVersion,
    domain: o.domain,
    layout: [...layout],
    projectName: o.projectName,
    repo: o.repo,
    resources: [],
    plugins: {},
  };
  if (o.multigroup) config.multigroup = true;
  if (o.namespaced) config.namespaced = true;
  config = withTsopSettings(config, o.owner ? { license: o.license, owner: o.owner } : { license: o.license });

  const header = o.header ?? boilerplate(o.license, o.owner, o.year);
  const data = {
    projectName: o.projectName,
    domain: o.domain,
    repo: o.repo,
    owner: o.owner ?? '',
    license: o.license,
    namespaced: o.namespaced,
    multigroup: o.multigroup,
    tsopDependency: o.tsopDependency,
    year: String(o.year),
    nodeVersion: '20.19',
    leaderElectionId: leaderElectionId(o.repo, o.domain),
  };
  for (const f of renderSet('base', data)) {
    const content = f.path.endsWith('.ts') && !f.path.startsWith('vitest') ? withHeader(header, f.content) : f.content;
    const current = tree.read(f.path);
    if (current !== undefined && o.keepExisting) {
      o.onKept?.(f.path);
      continue;
    }
    // `npm i -D tsop && npx tsop init`: the package.json npm wrote gets the project's fields.
    const merged =
      f.path === 'package.json' && current !== undefined && !o.force ? mergePackageJson(current, content) : undefined;
    if (merged !== undefined) tree.overwrite(f.path, merged);
    else tree.create(f.path, content, { force: o.force });
  }
  tree.create(BOILERPLATE_FILE, header, { force: o.force });
  if (o.keepExisting) {
    const theirs = tree.read('PROJECT');
    if (theirs !== undefined) tree.create('PROJECT.kubebuilder', theirs);
    tree.create('PROJECT', renderProject(config), { force: true });
  } else {
    tree.create('PROJECT', renderProject(config), { force: o.force });
  }
  embedRuntime(tree, o.tsopVersion, o.force);
  copyControlPlaneScript(tree, o.force);
  return config;
}

/**
 * The scaffold's package.json laid over one that is there already (as `npm init -y` or
 * `npm i -D tsop` leave it): the user's values stay — name, version, a dependency's version (the
 * tsop they installed) — and what the project needs is added: its scripts, dependencies,
 * `"type": "module"`. Undefined when the file is not a JSON object (then it is a conflict).
 */
function mergePackageJson(current: string, scaffold: string): string | undefined {
  let theirs: unknown;
  try {
    theirs = JSON.parse(current);
  } catch {
    return undefined;
  }
  if (typeof theirs !== 'object' || theirs === null || Array.isArray(theirs)) return undefined;
  const user = theirs as Record<string, unknown>;
  const ours = JSON.parse(scaffold) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...ours, ...user };
  for (const key of ['scripts', 'dependencies', 'devDependencies']) {
    const mine = { ...((user[key] ?? {}) as Record<string, unknown>) };
    // `npm init`'s placeholder is no test of the user's.
    if (key === 'scripts' && typeof mine['test'] === 'string' && mine['test'].includes('no test specified'))
      delete mine['test'];
    out[key] = { ...(ours[key] as Record<string, unknown>), ...mine };
  }
  // The project's code is ES modules; the runtime and the generated files need it.
  out['type'] = 'module';
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** `<8 hex>.<domain>`: stable per project, unique enough across operators in one namespace. */
function leaderElectionId(repo: string, domain: string): string {
  const hash = createHash('sha256').update(repo).digest('hex').slice(0, 8);
  return domain ? `${hash}.${domain}` : hash;
}
