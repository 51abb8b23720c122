/**
 * `tsop generate kustomize manifests`: the CSV base in config/manifests/bases (a new one with
 * operator-sdk's placeholders, or the existing one with its owned CRD descriptions regenerated
 * from the API's decorators) and, when missing, the overlay that builds the bundle from it and the
 * scorecard configuration. A pure plan over the Tree; the command commits it.
 */
import { UserError } from '../errors.js';
import type { ApiModel } from '../codegen/model.js';
import type { Tree } from '../scaffold/tree.js';
import { CSV_KIND, csvFileName, newBaseCsv, type Csv } from './csv.js';
import { csvVersionMessage, csvVersionProblem, csvVersionText } from './csv-version.js';
import { crdDescriptions, mergeDescriptions } from './descriptors.js';
import { scaffoldOlmConfig } from '../plugins/olm/scaffold.js';
import { isObj } from './objects.js';
import { parseDocuments } from '../yaml/documents-reader.js';
import { toYaml } from '../yaml/sorted-writer.js';

export interface KustomizeManifestsOptions {
  packageName: string;
  /** Where the base is read from and written to, relative to the project (config/manifests). */
  inputDir: string;
  outputDir: string;
  /** The project has admission webhooks: the overlay's certificate patch is written enabled. */
  webhooks: boolean;
}

export function planKustomizeManifests(tree: Tree, model: ApiModel, opts: KustomizeManifestsOptions): string[] {
  const basePath = `${opts.inputDir}/bases/${csvFileName(opts.packageName)}`;
  const existing = tree.read(basePath);
  const base = existing === undefined ? newBaseCsv(opts.packageName) : readBase(existing, basePath, opts.packageName);
  const owned = mergeDescriptions(base.spec.customresourcedefinitions?.owned ?? [], crdDescriptions(model));
  base.spec.customresourcedefinitions = { ...(base.spec.customresourcedefinitions ?? {}), owned };
  if (owned.length === 0) delete base.spec.customresourcedefinitions.owned;
  const outPath = `${opts.outputDir}/bases/${csvFileName(opts.packageName)}`;
  const text = toYaml(base);
  if (tree.exists(outPath)) tree.overwrite(outPath, text);
  else tree.create(outPath, text);
  const overlay =
    opts.outputDir === 'config/manifests'
      ? scaffoldOlmConfig(tree, opts.packageName, opts.webhooks, { manifests: true, scorecard: true })
      : [];
  return [outPath, ...overlay];
}

/** The first ClusterServiceVersion document of a base file; a base named `<pkg>.vX.Y.Z` gets its real version. */
export function readBase(text: string, path: string, packageName: string): Csv {
  const csv = parseDocuments(text, path).find((d) => d['kind'] === CSV_KIND);
  if (!csv)
    throw new UserError(`${path}: no ClusterServiceVersion in it; fix the file or delete it to start from a new base`);
  if (!isObj(csv['metadata'])) csv['metadata'] = {};
  if (!isObj(csv['spec'])) csv['spec'] = {};
  const base = csv as Csv;
  const problem = csvVersionProblem(base.spec.version);
  if (problem !== undefined) throw new UserError(csvVersionMessage(path, base.spec.version, problem));
  if (base.metadata.name === `${packageName}.vX.Y.Z`)
    base.metadata.name = `${packageName}.v${csvVersionText(base.spec.version)}`;
  return base;
}
