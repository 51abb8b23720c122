/**
 * `tsop create api`: scaffold a kind and/or its controller in an existing tsop project. Asks
 * "Create Resource [y/n]" / "Create Controller [y/n]" only when the flag is absent and stdin is
 * a terminal (otherwise both default to yes). With --make (default) it runs `tsop manifests`
 * afterwards so the CRD and role exist at once, parsing with a reader the caller may have
 * started early on a worker thread (codegen/reader/background.ts).
 */
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import type { ProjectConfig } from '../project/config.js';
import { loadProject } from '../project/load.js';
import { resourceNames } from '../project/resource.js';
import { BOILERPLATE_FILE } from '../scaffold/boilerplate.js';
import { checkGroup } from '../project/naming.js';
import { checkPluginFlags, pluginChain, runChain } from '../plugins/catalog.js';
import type { ApiOptions, CreateApiContext, Flags } from '../plugins/plugin.js';
import { describeChanges, validatePlan } from '../scaffold/commit.js';
import { diskSource, Tree, type Change } from '../scaffold/tree.js';
import { stdio, terminalAsk, type CommandIO } from './io.js';
import { commitScaffold } from './commit-scaffold.js';
import { nextStepsLine, REGENERATE_AND_TEST } from './next-steps.js';
import type { BackgroundReader } from '../codegen/reader/background.js';
import { checkFlags, type FlagsOf } from '../flag.js';
import { type CREATE_API_FLAGS, CREATE_API_OWN_FLAGS } from '../plugins/command-flags.js';

export type CreateApiFlags = FlagsOf<typeof CREATE_API_FLAGS>;

export async function runCreateApi(
  given: CreateApiFlags,
  io: CommandIO = stdio,
  reader?: BackgroundReader,
): Promise<void> {
  try {
    // The command's own flags here; the plugins' once the chain is known (checkPluginFlags).
    await scaffold(checkFlags(CREATE_API_OWN_FLAGS, given) as CreateApiFlags, io, reader);
  } finally {
    reader?.cancel(); // a no-op once it replied; stops a worker whose scaffold failed
  }
}

async function scaffold(flags: CreateApiFlags, io: CommandIO, reader: BackgroundReader | undefined): Promise<void> {
  const root = resolve(flags.dir ?? process.cwd());
  for (const f of ['group', 'version', 'kind'] as const) {
    if (flags[f] === undefined)
      throw new UserError(`--${f} is required; e.g. tsop create api --group batch --version v1 --kind CronJob`);
  }
  const { group = '', version = '', kind = '' } = flags;
  // The base layout, then the plugins named (deploy-image), each checking its flags.
  const chain = pluginChain('createApi', flags.plugins);
  checkPluginFlags('createApi', chain, flags);
  const scaffoldsBoth = chain.some((p) => p.createApi?.scaffoldsBoth === true);
  const config = await loadProject(root, 'create api', io.err);
  // The group's rule needs PROJECT's domain; every other flag was checked by its declaration.
  checkGroup(group, config.domain);

  // A plugin that always scaffolds both (deploy-image, as kubebuilder's) leaves nothing to ask.
  const resource = flags.resource ?? (scaffoldsBoth || (await confirm(io, 'Create Resource [y/n]')));
  const controller = flags.controller ?? (scaffoldsBoth || (await confirm(io, 'Create Controller [y/n]')));
  if (!resource && !controller) throw new UserError('--resource=false and --controller=false: nothing to scaffold');

  const tree = new Tree(diskSource(root));
  const options: ApiOptions = {
    group,
    version,
    kind,
    ...(flags.plural !== undefined ? { plural: flags.plural } : {}),
    resource,
    controller,
    namespaced: flags.namespaced ?? true,
    namespacedGiven: flags.namespaced !== undefined,
    force: flags.force === true,
    ...(flags.externalApiPath !== undefined ? { externalApiPath: flags.externalApiPath } : {}),
    ...(flags.externalApiDomain !== undefined ? { externalApiDomain: flags.externalApiDomain } : {}),
    ...(flags.controllerName !== undefined ? { controllerName: flags.controllerName } : {}),
    ...(flags.externalApiModule !== undefined ? { externalApiModule: flags.externalApiModule } : {}),
  };
  await runChain(chain, 'createApi', (current) => apiContext(tree, current, options, { ...flags }), config);
  if (flags.dryRun) {
    io.out(describeChanges(validatePlan(tree)));
    return;
  }
  const manifests = flags.make === false || flags.manifests === false ? undefined : { say: io, readApi: reader?.read };
  const changes = await commitScaffold(root, tree, io, manifests);
  io.err(`${nextSteps(changes)}\n`);
}

/**
 * What to do next, as kubebuilder ends `create api`: the files to fill in, then regenerate and
 * test through the project's scripts (tsop is the project's devDependency: `npx tsop`, not `tsop`).
 */
function nextSteps(changes: readonly Change[]): string {
  const fillIn = changes
    .filter(
      (c) =>
        c.kind === 'create' &&
        /^src\/(api|controllers)\/.*\.ts$/.test(c.path) &&
        !/(\.test|groupversion)\.ts$/.test(c.path),
    )
    .map((c) => c.path);
  return nextStepsLine(changes, fillIn, REGENERATE_AND_TEST);
}

/**
 * What a step of create api sees. The kind's entry, its names and the header are read when a
 * step asks, so the plugins after the base layout find what it recorded.
 */
function apiContext(tree: Tree, config: ProjectConfig, options: ApiOptions, flags: Flags): CreateApiContext {
  return {
    tree,
    config,
    options,
    flags,
    get resource() {
      return config.resources.find(
        (r) => r.group === options.group && r.version === options.version && r.kind === options.kind,
      )!;
    },
    get names() {
      return resourceNames(config, this.resource);
    },
    get header() {
      return tree.read(BOILERPLATE_FILE) ?? '';
    },
  };
}

/** y/n on a terminal; yes when nobody can answer. */
async function confirm(io: CommandIO, question: string): Promise<boolean> {
  if (!io.interactive) return true;
  const ask = io.ask ?? terminalAsk;
  for (;;) {
    const answer = (await ask(`${question}\n`)).trim().toLowerCase();
    if (answer === 'y' || answer === 'yes') return true;
    if (answer === 'n' || answer === 'no') return false;
    io.err("please answer 'y' or 'n'\n");
  }
}
