/**
 * A reader following the tutorial or Getting started never has to guess where code goes: every
 * code block that writes a file carries a title naming it (VitePress's `[path]`, drawn above the
 * block by docs/.vitepress/markdown/code-titles.ts). A block writes a file when it includes one
 * of the tutorial project's files (`<<< @/tutorial/project/<chapter>/files/<path>`), whose title
 * must be that path, or when it is a fence of anything but shell commands or their output.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TSOP } from './tutorial/chapters.js';

/** What a reader types or reads back, not what they save: these fences need no file name. */
const SHELL = new Set(['sh', 'bash', 'shell', 'console', 'text', '']);

/** One line per code block of `markdown` that writes a file without naming it in its title. */
function untitledFiles(markdown: string, page: string): string[] {
  const problems: string[] = [];
  let inFence = false;
  markdown.split('\n').forEach((line, i) => {
    const where = `${page}:${i + 1}`;
    const fence = /^(`{3,}|~{3,})\s*([\w-]*)[^[]*(?:\[([^\]]*)\])?/.exec(line);
    if (fence) {
      if (!inFence && !SHELL.has(fence[2] ?? '') && !fence[3])
        problems.push(`${where}: a ${fence[2]} block with no [file path] title`);
      inFence = !inFence;
      return;
    }
    if (inFence) return;
    const include = /^<<< @\/tutorial\/project\/[\w-]+\/files\/(\S+?)(?:#[\w-]+)?(?:\{\w+\})?(?: \[([^\]]+)\])?$/.exec(
      line,
    );
    if (include && include[2] !== include[1])
      problems.push(`${where}: shows ${include[1]} ${include[2] ? `titled [${include[2]}]` : 'with no title'}`);
  });
  return problems;
}

const pages = (): string[] => [
  'getting-started.md',
  ...readdirSync(join(TSOP, 'docs/tutorial'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `tutorial/${f}`),
];

describe('code blocks that write a file name it', () => {
  it('in the tutorial and Getting started', () => {
    const problems = pages().flatMap((p) => untitledFiles(readFileSync(join(TSOP, 'docs', p), 'utf8'), `docs/${p}`));
    expect(problems).toEqual([]);
  });

  it('finds a block that names no file, or the wrong one', () => {
    const page = [
      '```ts',
      'export const a = 1;',
      '```',
      '```ts [src/a.ts]',
      '```',
      '```sh',
      'npm test',
      '```',
      '<<< @/tutorial/project/02-api/files/src/api/v1/cronjob.ts{ts}',
      '<<< @/tutorial/project/02-api/files/src/api/v1/cronjob.ts#spec{ts} [src/api/v1/other.ts]',
      '<<< @/tutorial/project/02-api/files/src/api/v1/cronjob.ts#spec{ts} [src/api/v1/cronjob.ts]',
      '<<< @/tutorial/project/02-api/commands.sh{sh}',
    ].join('\n');
    expect(untitledFiles(page, 'p.md')).toEqual([
      'p.md:1: a ts block with no [file path] title',
      'p.md:9: shows src/api/v1/cronjob.ts with no title',
      'p.md:10: shows src/api/v1/cronjob.ts titled [src/api/v1/other.ts]',
    ]);
  });
});
