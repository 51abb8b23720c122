/**
 * `import kubebuilder --scaffold`: after the kinds are imported, the controllers, webhooks and Helm
 * chart the kubebuilder PROJECT records are scaffolded by the same commands a user would run
 * (src/import/kubebuilder-carry.ts says which), then `tsop manifests` once (unless --make=false).
 * A step that rewrites a kind's types (deploy-image) gets the imported types put back: they are
 * the user's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { commandLine, type CarriedStep } from '../import/kubebuilder-carry.js';
import type { CommandIO } from './io.js';

/** Runs `steps` in the project at `root`; `imported` is each imported types file (project path → text). */
export async function scaffoldCarried(
  root: string,
  steps: readonly CarriedStep[],
  imported: ReadonlyMap<string, string>,
  io: CommandIO,
  make = true,
): Promise<void> {
  const quiet: CommandIO = { out: () => undefined, err: () => undefined, interactive: false };
  for (const step of steps) {
    try {
      await run(root, step, quiet);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      throw new UserError(
        `import kubebuilder --scaffold: '${commandLine(step)}' stopped: ` +
          `${error.message.replace(/^tsop: /, '')}; the kinds are imported and the steps before it ` +
          `done: fix that and run the command in ${root}`,
      );
    }
    if (step.rewritesTypes) restore(root, imported);
    io.err(`scaffolded: ${commandLine(step)}\n`);
  }
  if (make && steps.length > 0) {
    const { runManifests } = await import('./manifests.js');
    await runManifests({ dir: root }, { out: () => undefined, err: (t) => io.err(t) });
  }
}

async function run(dir: string, step: CarriedStep, io: CommandIO): Promise<void> {
  if (step.command === 'create api') {
    const { runCreateApi } = await import('./create-api.js');
    return runCreateApi({ ...step.flags, dir, make: false }, io);
  }
  if (step.command === 'create webhook') {
    const { runCreateWebhook } = await import('./create-webhook.js');
    return runCreateWebhook({ ...step.flags, dir, make: false }, io);
  }
  const { runEdit } = await import('./edit.js');
  return runEdit({ ...step.flags, dir }, io);
}

function restore(root: string, imported: ReadonlyMap<string, string>): void {
  for (const [path, text] of imported) {
    const file = join(root, path);
    if (readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
  }
}
