/**
 * The tsop command line. Each command lives in its own module and is imported only when it runs,
 * so `--version` and `--help` stay fast (ts-morph alone takes 0.3 s to load).
 */
import { constants } from 'node:os';
import { Command, CommanderError } from 'commander';
import { UsageError, UserError, UserErrors } from '../errors.js';
import { TSOP_VERSION } from '../version.js';
import { registerCommands } from './commands.js';
import { EXIT_CODES_HELP, ExitCode } from './exit-codes.js';
import { registerHelp } from './help.js';
import { INTERRUPTED_EXIT_CODE, PromptInterrupted, StoppedBySignal } from './io.js';
import { didYouMean } from './suggest.js';

export function buildProgram(): Command {
  const program = new Command('tsop')
    .description(
      'The TypeScript operator toolkit: scaffold operators, generate CRDs and RBAC, reconcile with controller-runtime semantics',
    )
    .version(TSOP_VERSION, '-v, --version', 'print the tsop version')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`tsop: ${commanderLine(text)}\n`) });
  registerCommands(program);
  registerHelp(program, buildProgram);
  program.addHelpText('after', EXIT_CODES_HELP);
  // Without a known subcommand: bare `tsop` shows help, anything else is an unknown command.
  program
    .usage('[options] <command>')
    .allowExcessArguments(true)
    .argument('[command]')
    .action((command: string | undefined) => {
      if (command === undefined) return program.help();
      throw unknownCommand(program, command);
    });
  return program;
}

/**
 * A mistyped command is named before any option is looked at (`tsop craete api --group x` is
 * about 'craete', not '--group'), at whatever depth it is (`tsop create apii`).
 */
function checkCommandPath(program: Command, args: readonly string[]): void {
  let cmd = program;
  for (const arg of args) {
    // An option ends the command path; commander checks options against the command reached.
    if (arg.startsWith('-') || cmd.commands.length === 0) return;
    const sub = cmd.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (!sub) throw unknownCommand(cmd, arg);
    // `help` takes command names as its arguments.
    if (sub.name() === 'help') return;
    cmd = sub;
  }
}

function unknownCommand(parent: Command, typed: string): UserError {
  const path = commandPath(parent);
  const names = parent.commands.map((c) => c.name());
  return new UserError(
    `unknown command '${typed}'${path === 'tsop' ? '' : ` for '${path}'`}${didYouMean(typed, names)}; run '${path} --help' for the list of commands`,
  );
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

let pipeGuarded = false;
/**
 * A reader that stops early (`tsop create api --help | head`) closes the pipe; writes after that
 * fail with EPIPE. They are dropped quietly and the command ends with its own exit code.
 */
function ignoreClosedPipes(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
      throw error;
    });
  }
}

/**
 * Runs the CLI and returns the exit code of the table in exit-codes.ts (shown by `tsop --help`);
 * bugs are rethrown with their stack.
 */
export async function run(argv: readonly string[]): Promise<number> {
  ignoreClosedPipes();
  try {
    const program = buildProgram();
    checkCommandPath(program, argv.slice(2));
    await program.parseAsync([...argv]);
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version "errors" are successful exits; anything else was already printed.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.problem;
    }
    if (error instanceof StoppedBySignal) return 128 + (constants.signals[error.signal] ?? 0);
    if (error instanceof PromptInterrupted) {
      process.stderr.write(`tsop: ${error.message}\n`);
      return INTERRUPTED_EXIT_CODE;
    }
    if (error instanceof UserError) {
      // One line per problem, each with the prefix, so every line can be read on its own.
      const lines = error instanceof UserErrors ? error.errors.map((e) => e.message) : [error.message];
      process.stderr.write(lines.map((line) => `tsop: ${oneLine(line)}\n`).join(''));
      return error instanceof UsageError ? ExitCode.cannotRun : ExitCode.problem;
    }
    throw error;
  }
}

/**
 * commander's message as one line: its 'error: ' prefix dropped and a second line (the
 * '(Did you mean --force?)' suggestion) joined to the first; a flag value in it is escaped.
 */
function commanderLine(text: string): string {
  const lines = text
    .replace(/^error: /, '')
    .split('\n')
    .filter((l) => l.trim() !== '');
  return oneLine(lines.map((l, i) => (i > 0 ? l.replace(/^\(Did you mean/, '(did you mean') : l)).join(' '));
}

const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A message with any control character or line separator escaped JSON-style: a flag value with a
 * newline in it (`--project-name $'a\nb'`) must not split the one line a problem gets.
 */
function oneLine(message: string): string {
  return message.replace(
    /[\p{Cc}\u2028\u2029]/gu,
    (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export { useImporter } from '../esm-import.js';
