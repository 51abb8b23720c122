/**
 * The CLI reference, read from the commander definitions tsop itself runs (`buildProgram()`):
 * per command its usage, description, arguments, flags with their defaults, subcommands and the
 * examples its `--help` prints. A command added to src/cli appears here without an edit.
 */
import type { Command, Option } from 'commander';
import { buildProgram } from '../../../src/cli/main.js';
import { allCommands, commandPath } from '../../../src/cli/help.js';

export interface CliCommand {
  /** 'create api' */
  path: string;
  /** The file stem of its page: 'create-api'. */
  slug: string;
  markdown: string;
}

export const slugOf = (path: string): string => path.replace(/\s+/g, '-');

/** Text for Markdown that VitePress also compiles as a Vue template: no raw `<`, `>`, `{{` or `|`. */
export const escapeText = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\{\{/g, '&#123;&#123;');
const cell = (text: string): string => escapeText(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function flagRow(o: Option): string {
  const def = o.defaultValue === undefined ? '' : `\`${JSON.stringify(o.defaultValue)}\``;
  return `| \`${o.flags.replace(/\|/g, '\\|')}\` | ${cell(o.description)} | ${def} |`;
}

/** The text `--help` prints after the flags (the Examples section), captured from commander. */
function examples(cmd: Command): Array<{ comment: string; line: string }> {
  let text = '';
  cmd.configureOutput({ writeOut: (s) => void (text += s), writeErr: (s) => void (text += s) });
  cmd.outputHelp();
  const at = text.indexOf('\nExamples:\n');
  if (at < 0) return [];
  const out: Array<{ comment: string; line: string }> = [];
  const lines = text
    .slice(at + '\nExamples:\n'.length)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (l.startsWith('# ')) out.push({ comment: l.slice(2), line: lines[i + 1] ?? '' }), i++;
  }
  return out;
}

function render(cmd: Command, path: string): string {
  const md: string[] = [];
  const args = cmd.registeredArguments.map((a) =>
    a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}${a.variadic ? '...' : ''}]`,
  );
  md.push(
    '```sh',
    `tsop ${path}${cmd.options.length > 0 ? ' [flags]' : ''}${args.length ? ` ${args.join(' ')}` : ''}${cmd.commands.length ? ' <command>' : ''}`,
    '```',
    '',
  );
  md.push(escapeText(cmd.description()), '');
  if (cmd.commands.length > 0) {
    md.push('| command | what it does |', '|---|---|');
    for (const sub of cmd.commands)
      md.push(
        `| [\`tsop ${path} ${sub.name()}\`](./${slugOf(`${path} ${sub.name()}`)}) | ${cell(sub.description())} |`,
      );
    md.push('');
  }
  if (cmd.registeredArguments.length > 0) {
    md.push('| argument | description |', '|---|---|');
    for (const a of cmd.registeredArguments) md.push(`| \`${a.name()}\` | ${cell(a.description)} |`);
    md.push('');
  }
  const flags = cmd.options.filter((o) => !o.hidden);
  if (flags.length > 0) {
    md.push('### Flags', '', '| flag | description | default |', '|---|---|---|');
    for (const o of flags) md.push(flagRow(o));
    md.push('', "Boolean flags take Go's spellings: `--force`, `--force=false`, `=0`, `=F`, `=TRUE`.", '');
  }
  const ex = examples(cmd);
  if (ex.length > 0) {
    md.push('### Examples', '', '```sh');
    for (const e of ex) md.push(`# ${e.comment}`, e.line, '');
    md.pop();
    md.push('```', '');
  }
  return md.join('\n');
}

/** Every command and command group below `tsop`, in the order `tsop --help` lists them. */
export function cliCommands(): CliCommand[] {
  const program = buildProgram();
  return allCommands(program).map((cmd) => {
    const path = commandPath(cmd);
    return { path, slug: slugOf(path), markdown: render(cmd, path) };
  });
}

/** The global line: `tsop --help` and `--version`. */
export function programSummary(): string {
  const program = buildProgram();
  const rows = allCommands(program)
    .filter((c) => c.parent === program)
    .map((c) => `| [\`tsop ${c.name()}\`](./${slugOf(commandPath(c))}) | ${cell(c.description())} |`);
  return ['| command | what it does |', '|---|---|', ...rows, ''].join('\n');
}
