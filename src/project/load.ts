/**
 * Finding and reading the PROJECT file of the project a command runs in (the I/O edge of the
 * model in config.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { PROJECT_FILE, readProject, type ProjectConfig } from './config.js';

/**
 * The project's PROJECT, parsed. `warn` hears of each key tsop does not read (kubebuilder drops
 * such keys silently when it writes PROJECT; these commands write it too).
 */
export async function loadProject(
  root: string,
  command: string,
  warn?: (line: string) => void,
): Promise<ProjectConfig> {
  let text: string;
  try {
    text = await readFile(join(root, PROJECT_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      // Exit 2 as for every command that cannot run here (src/cli/exit-codes.ts).
      throw new UsageError(
        `${command}: ${root} is not a tsop project (no PROJECT file); run 'tsop init' first, or run this command in the project's directory`,
      );
    }
    throw error;
  }
  const { config, unknownKeys } = readProject(text, PROJECT_FILE);
  if (warn) for (const line of unknownKeys) warn(`tsop: warning: ${line}; ${command} writes PROJECT without it\n`);
  return config;
}
