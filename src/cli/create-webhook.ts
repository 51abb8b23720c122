/**
 * `tsop create webhook`: scaffold a defaulting and/or validating admission webhook, or a
 * conversion webhook (this version the hub, `--spoke` the others), for a kind of the project, a
 * built-in kind (`--group core --version v1 --kind Pod`) or another project's kind
 * (`--external-api-path`). Every check runs before anything is
 * written; then `tsop manifests` writes config/webhook/manifests.yaml (unless --make=false), and
 * if that fails the scaffold is undone too.
 */
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import { loadProject } from '../project/load.js';
import { checkGroup } from '../project/naming.js';
import { CORE_API_GROUPS } from '../plugins/base/api-kind.js';
import type { WebhookOptions } from '../plugins/plugin.js';
import { pluginChain, runChain } from '../plugins/catalog.js';
import { describeChanges, validatePlan } from '../scaffold/commit.js';
import { diskSource, Tree, type Change } from '../scaffold/tree.js';
import { stdio, type CommandIO } from './io.js';
import { commitScaffold } from './commit-scaffold.js';
import { nextStepsLine, REGENERATE_AND_TEST } from './next-steps.js';
import { checkFlags, type FlagsOf } from '../flag.js';
import { CREATE_WEBHOOK_FLAGS } from '../plugins/command-flags.js';
import { spokeVersions } from '../plugins/base/flags.js';

export type CreateWebhookFlags = FlagsOf<typeof CREATE_WEBHOOK_FLAGS>;

export async function runCreateWebhook(given: CreateWebhookFlags, io: CommandIO = stdio): Promise<void> {
  const flags = checkFlags(CREATE_WEBHOOK_FLAGS, given);
  const root = resolve(flags.dir ?? process.cwd());
  for (const f of ['group', 'version', 'kind'] as const) {
    if (flags[f] === undefined)
      throw new UserError(
        `--${f} is required; e.g. tsop create webhook --group batch --version v1 --kind CronJob --defaulting`,
      );
  }
  const { group = '', version = '', kind = '' } = flags;
  const config = await loadProject(root, 'create webhook', io.err);
  // The group's rule needs PROJECT's domain; every other flag was checked by its declaration.
  if (flags.externalApiPath !== undefined) checkGroup(group, flags.externalApiDomain ?? '');
  else if (!(group in CORE_API_GROUPS)) checkGroup(group, config.domain);
  const spokes = spokeVersions(flags.spoke ?? '');

  const tree = new Tree(diskSource(root));
  const options: WebhookOptions = {
    group,
    version,
    kind,
    defaulting: flags.defaulting === true,
    validation: flags.programmaticValidation === true,
    conversion: flags.conversion === true,
    spokes,
    force: flags.force === true,
    defaultingPath: flags.defaultingPath,
    validationPath: flags.validationPath,
    plural: flags.plural,
    externalApiPath: flags.externalApiPath,
    externalApiDomain: flags.externalApiDomain,
    externalApiModule: flags.externalApiModule,
  };
  // The command takes no --plugins: its chain is the base layout.
  await runChain(
    pluginChain('createWebhook', undefined),
    'createWebhook',
    (current) => ({ tree, config: current, options, flags: { ...flags } }),
    config,
  );
  if (flags.dryRun) {
    io.out(describeChanges(validatePlan(tree)));
    return;
  }
  const changes = await commitScaffold(root, tree, io, flags.make === false ? undefined : { say: io });
  io.err(`${webhookNextSteps(changes, flags.make !== false)}\n`);
}

/**
 * What to do next, as kubebuilder ends `create webhook` ("implement your new Webhook and generate
 * the manifests"): install what --external-api-module added, fill in the webhook file, regenerate
 * unless that already ran, and test.
 */
function webhookNextSteps(changes: readonly Change[], generated: boolean): string {
  const fillIn = changes
    .filter((c) => /^src\/(webhooks\/.*-webhook|api\/.*-conversion)\.ts$/.test(c.path))
    .map((c) => c.path);
  return nextStepsLine(changes, fillIn, generated ? "run 'npm test'" : REGENERATE_AND_TEST);
}
