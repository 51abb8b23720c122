/**
 * The CronJob tutorial's chapters as data: docs/tutorial/project/<NN-name>/ holds the commands a
 * reader runs in that chapter (commands.sh, one per line, shown on the page as they are) and the
 * files the reader writes (files/, laid out like the project; the page includes them), and what
 * the commands print (output.txt, shown on the page and checked against what they did print). A chapter's
 * project is the previous chapter's, then its commands, then its files. Nothing else goes in:
 * what the book shows is what the test builds.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TSOP = fileURLToPath(new URL('../../../', import.meta.url));
export const TUTORIAL = join(TSOP, 'docs/tutorial/project');

/** A line of commands.sh that keeps running (a reader starts it in a second terminal). */
export const BACKGROUND_MARK = '# in a second terminal';

export interface Chapter {
  /** '03-controller' */
  name: string;
  dir: string;
  /** The command lines, comments and blank lines left out. */
  commands: string[];
  /** Paths under files/, relative to the project root. */
  files: string[];
  /** What the page says the commands print (output.txt): one pattern per line, `…` matching anything. */
  output: RegExp[];
}

/**
 * output.txt's lines as patterns: `…` stands for any text, a line of `…` alone for lines left out,
 * and a run of spaces (a table's column gap, which depends on the widest cell) for one or more.
 */
export function outputPatterns(text: string): RegExp[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && l !== '…')
    .map(
      (l) =>
        new RegExp(
          l
            .split('…')
            .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ {2,}/g, ' +'))
            .join('.*'),
        ),
    );
}

function listFiles(root: string, dir = root): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = join(dir, name);
      return statSync(full).isDirectory() ? listFiles(root, full) : [relative(root, full)];
    });
}

/** The commands of a commands.sh: every line that is not blank or a comment, trailing comments kept (they carry the background mark). */
export function commandLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

export function readChapters(root = TUTORIAL): Chapter[] {
  return readdirSync(root)
    .filter((d) => /^\d\d-/.test(d) && statSync(join(root, d)).isDirectory())
    .sort()
    .map((name) => {
      const dir = join(root, name);
      const script = join(dir, 'commands.sh');
      const output = join(dir, 'output.txt');
      return {
        name,
        dir,
        commands: existsSync(script) ? commandLines(readFileSync(script, 'utf8')) : [],
        files: listFiles(join(dir, 'files')),
        output: existsSync(output) ? outputPatterns(readFileSync(output, 'utf8')) : [],
      };
    });
}

/** The page's ```text [what it prints]``` blocks, in page order, each as output.txt's patterns. */
export function printedBlocks(markdown: string): RegExp[][] {
  return [...markdown.matchAll(/^```text \[what it prints\]\n([\s\S]*?)^```$/gm)].map((m) =>
    outputPatterns(m[1] ?? ''),
  );
}

/** The command lines of a page's ```sh blocks, in page order (what the page asks a reader to type). */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((m) => commandLines(m[1] ?? ''));
}
