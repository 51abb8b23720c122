/**
 * Finding and reading the PROJECT file of the project a command runs in (the I/O edge of the
 * model in config.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { parseProject, PROJECT_FILE, type ProjectConfig } from './config.js';

export async function loadProject(root: string, command: string): Promise<ProjectConfig> {
  let text: string;
  try {
    text = await readFile(join(root, PROJECT_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new UserError(`${command}: ${root} is not a tsop project (no PROJECT file); run 'tsop init' first, or run this command in the project's directory`);
    }
    throw error;
  }
  return parseProject(text, PROJECT_FILE);
}
