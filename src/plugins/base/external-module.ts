/**
 * The flags that name another project's kind, for `create api` and `create webhook` alike:
 * `--external-api-path`, `--external-api-domain`, and `--external-api-module` (kubebuilder's flag
 * for the Go module that provides the kind, `go get` at scaffold time): here the npm package that
 * does, optionally with a version, added to package.json's dependencies and recorded as the
 * resource's `module` in PROJECT.
 */
import { UserError } from '../../errors.js';
import { InvalidFlagError } from '../../project/naming.js';
import type { Tree } from '../../scaffold/tree.js';
import { checkExternalApiPath, checkExternalDomain, isProjectFile } from './api-kind.js';

export interface ExternalFlags {
  externalApiPath?: string;
  externalApiDomain?: string;
  externalApiModule?: string;
}

export interface ExternalModule {
  /** As given: `@acme/cert-manager-api@1.18.2`. */
  spec: string;
  name: string;
  /** The dependency's version range in package.json; `latest` when none was given. */
  range: string;
}

const PACKAGE = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** Checks the flag against --external-api-path, whose module must come from this package. */
function parseExternalModule(spec: string, apiPath: string | undefined): ExternalModule {
  const at = spec.indexOf('@', 1);
  const name = at < 0 ? spec : spec.slice(0, at);
  const range = at < 0 ? 'latest' : spec.slice(at + 1);
  if (!PACKAGE.test(name) || range === '' || /\s/.test(range)) {
    throw new InvalidFlagError(
      'external-api-module',
      spec,
      'is not an npm package with an optional version',
      "use e.g. '@acme/cert-manager-api@1.18.2' or 'cert-manager-api'",
    );
  }
  if (apiPath === undefined)
    throw new UserError(
      `--external-api-module: '${spec}' provides another project's kind; pass --external-api-path too (the module of that package that exports its type)`,
    );
  if (isProjectFile(apiPath))
    throw new UserError(
      `--external-api-module: '${spec}' is a package, but --external-api-path '${apiPath}' is a file of this project; drop --external-api-module, or import the type from the package`,
    );
  if (apiPath !== name && !apiPath.startsWith(`${name}/`)) {
    throw new UserError(
      `--external-api-module: --external-api-path '${apiPath}' is not in the package '${name}'; pass the package the path starts with`,
    );
  }
  return { spec, name, range };
}

/**
 * The three flags checked together; `known` is the path PROJECT already records for the kind (a
 * domain or module needs a path, given or known). Returns the module, parsed, when one was given.
 */
export function checkExternalFlags(o: ExternalFlags, known?: string): ExternalModule | undefined {
  const path = o.externalApiPath ?? known;
  if (path === undefined) {
    if (o.externalApiModule !== undefined) parseExternalModule(o.externalApiModule, undefined);
    if (o.externalApiDomain !== undefined) {
      throw new UserError(
        `--external-api-domain: '${o.externalApiDomain}' names the domain of another project's kind; pass --external-api-path too (the module that exports its type)`,
      );
    }
    return undefined;
  }
  if (o.externalApiPath !== undefined) checkExternalApiPath(o.externalApiPath);
  if (o.externalApiDomain !== undefined) checkExternalDomain(o.externalApiDomain);
  return o.externalApiModule === undefined ? undefined : parseExternalModule(o.externalApiModule, path);
}

/** The package in package.json's dependencies (kept sorted, as npm writes them); one that disagrees is an error. */
export function addDependency(tree: Tree, module: ExternalModule): void {
  const text = tree.read('package.json');
  if (text === undefined)
    throw new UserError('--external-api-module: package.json is missing; the dependency cannot be added');
  const pkg = JSON.parse(text) as { dependencies?: Record<string, string> };
  const current = pkg.dependencies?.[module.name];
  if (current === module.range) return;
  if (current !== undefined) {
    throw new UserError(
      `--external-api-module: package.json already depends on ${module.name} '${current}'; pass --external-api-module ${module.name}@${current}, or change package.json first`,
    );
  }
  const deps = { ...pkg.dependencies, [module.name]: module.range };
  pkg.dependencies = Object.fromEntries(Object.entries(deps).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  tree.overwrite('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
}
