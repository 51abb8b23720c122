/**
 * The reference's hand-written pages and the generated parts they include. Each page under
 * docs/reference/cli/ names the commands it documents in its front matter (`commands: [create
 * api]`) and includes their generated part; each page under docs/reference/markers/ names its
 * markers (`markers: [Minimum, Maximum]`) and includes theirs. `checkPages` is what makes a
 * missing page fail the build: every command of the CLI and every marker of the catalog must be
 * named by exactly one page, and a page may name nothing that is gone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export interface ReferencePage {
  /** Relative to docs/: 'reference/cli/create-api.md'. */
  file: string;
  /** The page's file stem: 'create-api'. */
  stem: string;
  names: string[];
  body: string;
}

/** The front matter list `key` of every Markdown page in `dir` (index.md aside). */
export function readPages(docsDir: string, dir: string, key: 'commands' | 'markers'): ReferencePage[] {
  const full = join(docsDir, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full)
    .filter((f) => f.endsWith('.md') && f !== 'index.md')
    .sort()
    .map((f) => {
      const text = readFileSync(join(full, f), 'utf8');
      const fm = /^---\n([\s\S]*?)\n---\n/.exec(text);
      const data = (fm ? parse(fm[1] ?? '') : {}) as Record<string, unknown>;
      const list = data[key];
      const names = Array.isArray(list) ? list.map(String) : [];
      return { file: `${dir}/${f}`, stem: f.replace(/\.md$/, ''), names, body: fm ? text.slice(fm[0].length) : text };
    });
}

export const includeLine = (kind: 'cli' | 'markers', stem: string): string =>
  `<!--@include: ../../.generated/${kind}/${stem}.md-->`;

/** One line per problem, each saying what to add or remove; empty when every name has its page. */
export function checkPages(opts: {
  kind: 'cli' | 'markers';
  pages: ReferencePage[];
  names: string[];
  includeStem: (name: string, page: ReferencePage) => string;
}): string[] {
  const what = opts.kind === 'cli' ? 'command' : 'marker';
  const shown = (n: string): string => (opts.kind === 'cli' ? `'tsop ${n}'` : `@${n}`);
  const dir = opts.kind === 'cli' ? 'docs/reference/cli' : 'docs/reference/markers';
  const key = opts.kind === 'cli' ? 'commands' : 'markers';
  const problems: string[] = [];
  const owner = new Map<string, string>();
  for (const page of opts.pages) {
    for (const name of page.names) {
      if (!opts.names.includes(name))
        problems.push(
          `docs/${page.file}: names the ${what} ${shown(name)}, which no longer exists; remove it from its '${key}:' list (or the page)`,
        );
      const other = owner.get(name);
      if (other)
        problems.push(
          `docs/${page.file}: the ${what} ${shown(name)} is already documented by docs/${other}; keep it on one page`,
        );
      owner.set(name, page.file);
      const line = includeLine(opts.kind, opts.includeStem(name, page));
      if (opts.names.includes(name) && !page.body.includes(line))
        problems.push(
          `docs/${page.file}: does not include the generated reference of ${shown(name)}; add the line ${line}`,
        );
    }
  }
  for (const name of opts.names) {
    if (owner.has(name)) continue;
    problems.push(
      opts.kind === 'cli'
        ? `the command ${shown(name)} has no page in the book: add ` +
            `${dir}/${name.replace(/\s+/g, '-')}.md with '${key}: [${name}]' in its front matter, a ` +
            `sentence on when to use it, and the line ${includeLine('cli', name.replace(/\s+/g, '-'))} ` +
            `(see docs/contributing.md)`
        : `the marker ${shown(name)} has no page in the book: add '${name}' to the '${key}:' list of the page under ${dir}/ it belongs with (or a new page there) (see docs/contributing.md)`,
    );
  }
  return problems;
}
