/**
 * The tsop command line. Each command lives in its own module and is imported only when it runs,
 * so `--version` and `--help` stay fast (ts-morph alone takes 0.3 s to load).
 */
import { Command, CommanderError } from 'commander';
import { UsageError, UserError, UserErrors } from '../errors.js';
import { TSOP_VERSION } from '../version.js';
import { registerCommands } from './commands.js';
import { registerHelp } from './help.js';
import { INTERRUPTED_EXIT_CODE, PromptInterrupted } from './io.js';

export function buildProgram(): Command {
  const program = new Command('tsop')
    .description('The TypeScript operator toolkit: scaffold operators, generate CRDs and RBAC, reconcile with controller-runtime semantics')
    .version(TSOP_VERSION, '-v, --version', 'print the tsop version')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`tsop: ${commanderLine(text)}\n`) });
  registerCommands(program);
  registerHelp(program, buildProgram);
  // Without a known subcommand: bare `tsop` shows help, anything else is an unknown command.
  program.usage('[options] <command>').allowExcessArguments(true).argument('[command]').action((command: string | undefined) => {
    if (command === undefined) program.help();
    throw new UserError(`unknown command '${command}'; run 'tsop --help' for the list of commands`);
  });
  return program;
}

/**
 * Runs the CLI and returns the exit code: 0 ok, 1 user error, 2 cannot run here (UsageError), 130 stopped at a prompt (Ctrl-C,
 * Ctrl-D); bugs are rethrown with their stack.
 */
export async function run(argv: readonly string[]): Promise<number> {
  try {
    await buildProgram().parseAsync([...argv]);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version "errors" are successful exits; anything else was already printed.
      return error.exitCode === 0 ? 0 : 1;
    }
    if (error instanceof PromptInterrupted) {
      process.stderr.write(`tsop: ${error.message}\n`);
      return INTERRUPTED_EXIT_CODE;
    }
    if (error instanceof UserError) {
      // One line per problem, each with the prefix, so every line can be read on its own.
      const lines = error instanceof UserErrors ? error.errors.map((e) => e.message) : [error.message];
      process.stderr.write(lines.map((line) => `tsop: ${oneLine(line)}\n`).join(''));
      return error instanceof UsageError ? 2 : 1;
    }
    throw error;
  }
}

/**
 * commander's message as one line: its 'error: ' prefix dropped and a second line (the
 * '(Did you mean --force?)' suggestion) joined to the first; a flag value in it is escaped.
 */
function commanderLine(text: string): string {
  const lines = text.replace(/^error: /, '').split('\n').filter((l) => l.trim() !== '');
  return oneLine(lines.map((l, i) => (i > 0 ? l.replace(/^\(Did you mean/, '(did you mean') : l)).join(' '));
}

const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A message with any control character or line separator escaped JSON-style: a flag value with a
 * newline in it (`--project-name $'a\nb'`) must not split the one line a problem gets.
 */
function oneLine(message: string): string {
  return message.replace(/[\p{Cc}\u2028\u2029]/gu, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
