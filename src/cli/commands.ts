/**
 * The list of tsop commands, in the order `tsop --help` shows them. Adding a command is one entry
 * here plus its module in this folder.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { markerHelp } from '../codegen/markers/index.js';

export function registerCommands(program: Command): void {
  program
    .command('manifests')
    .description('generate CRDs (config/crd/bases) and RBAC (config/rbac/role.yaml) from decorated API classes and controllers')
    .option('--dir <path>', 'project root', '.')
    .option('--output-dir <path>', 'directory to write into, relative to --dir', 'config')
    .option('--check', 'write nothing; print a diff of out-of-date files and breaking schema changes, exit 1 if any')
    .option('--max-desc-len <n>', 'shorten descriptions to n characters (0 removes them)', wholeNumber)
    .addHelpText('after', () => `\nAPI conventions: a class decorated @Resource(...) under src/api/ is a kind; its group and version come from\n\`export const groupVersion = { group, version }\` in its directory; classes with @Rbac(...) are controllers.\nTypeScript number becomes 'type: number'; use int32/int64 for integers.\n${markerHelp()}\n`)
    .action(async (opts: { dir: string; outputDir: string; check?: boolean; maxDescLen?: number }) => {
      const { runManifests } = await import('./manifests.js');
      await runManifests(opts);
    });
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number, 0 or more');
  return Number(value);
}
