/**
 * The list of tsop commands, in the order `tsop --help` shows them. Adding a command is one entry
 * here plus its module in this folder.
 */
import type { Command } from 'commander';

export function registerCommands(program: Command): void {
  void program;
}
