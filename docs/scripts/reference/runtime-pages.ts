/**
 * Turns TypeDoc's module pages into pages a reader can use: each opens with what its module is
 * for (the doc comment at the top of runtime/<module>/index.ts), its controller-runtime
 * counterpart and a short example (runtime-examples.ts), lists what you call before what you catch (error classes in an "Errors" section
 * at the end), and says where a declaration is as a path in the repository, never into
 * node_modules (declarations inherited from TypeScript's own lib have no "Defined in" at all).
 * The index page is one line per module.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COUNTERPARTS } from './runtime-counterparts.js';
import { exampleSection, type RuntimeExample } from './runtime-examples.js';

/** The doc comment at the top of runtime/<module>/index.ts, as one paragraph of Markdown. */
export function moduleComment(root: string, module: string): string {
  const text = readFileSync(join(root, 'runtime', module, 'index.ts'), 'utf8');
  const comment = /^\s*\/\*\*([\s\S]*?)\*\//.exec(text)?.[1] ?? '';
  return comment
    .split('\n')
    .map((l) => l.replace(/^\s*\*\s?/, '').trim())
    .filter((l) => l.length > 0)
    .join(' ');
}

/** What a module is for, without the "name: " its comment may start with, as a sentence. */
export function modulePurpose(module: string, comment: string): string {
  const text = comment.replace(new RegExp(`^${module}:\\s*`, 'i'), '');
  // A sentence that opens with a name keeps its case (metav1.Condition, events.k8s.io/v1).
  const opensWithName = /^[a-z][\w-]*[./]\w/.test(text);
  const sentence = opensWithName ? text : text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?)]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** Section order: what you call, what you configure, then what you catch. */
const ORDER = ['Functions', 'Classes', 'Interfaces', 'Type Aliases', 'Variables', 'Enumerations', 'References'];

/** The page's `## ` sections (with the text before the first one as `head`). */
function sections(markdown: string): { head: string; parts: Array<{ title: string; body: string }> } {
  const pieces = markdown.split(/^(?=## )/m);
  const head = pieces[0]?.startsWith('## ') ? '' : (pieces.shift() ?? '');
  return {
    head,
    parts: pieces.map((p) => ({ title: /^## (.*)$/m.exec(p)?.[1] ?? '', body: p.replace(/^## .*\n/, '') })),
  };
}

/** A `## Classes` body split into its classes, each with the anchor TypeDoc puts before it. */
function members(body: string): Array<{ name: string; text: string }> {
  const pieces = body.split(/^(?=(?:<a id="[^"]+"><\/a>\n\n)?### )/m);
  return pieces
    .filter((p) => p.trim().length > 0)
    .map((text) => ({ name: /^### (.*)$/m.exec(text)?.[1]?.trim() ?? '', text }));
}

/** "Defined in" as a repository path; the lines that point into node_modules dropped. */
export function repositoryPaths(markdown: string): string {
  return markdown
    .replace(/^Defined in: .*node\\?_modules.*\n\n?/gm, '')
    .replace(/^Defined in: (?:.*?\/)?(runtime\/\S+)$/gm, 'Defined in: `$1`');
}

/** One module page, rewritten (see the file's comment). */
export function modulePage(markdown: string, module: string, comment: string, example?: RuntimeExample): string {
  const { parts } = sections(repositoryPaths(markdown));
  const errors: string[] = [];
  const kept: Array<{ title: string; body: string }> = [];
  for (const part of parts) {
    if (part.title !== 'Classes') {
      kept.push(part);
      continue;
    }
    const classes = members(part.body);
    const others = classes.filter((c) => !c.name.endsWith('Error'));
    errors.push(...classes.filter((c) => c.name.endsWith('Error')).map((c) => c.text));
    if (others.length > 0) kept.push({ title: part.title, body: others.map((c) => c.text).join('') });
  }
  const rank = (title: string) => (ORDER.indexOf(title) === -1 ? ORDER.length : ORDER.indexOf(title));
  kept.sort((a, b) => rank(a.title) - rank(b.title));
  if (errors.length > 0) kept.push({ title: 'Errors', body: `\n${errors.join('')}` });
  const counterpart = COUNTERPARTS[module];
  const lead = [
    `# ${module}`,
    '',
    modulePurpose(module, comment),
    '',
    counterpart ? `**In controller-runtime:** ${counterpart}` : '',
    '',
    example ? exampleSection(example) : '',
  ].join('\n');
  return `${lead}\n${kept.map((p) => `## ${p.title}\n${p.body}`).join('')}`;
}

/** The first sentence of a module's purpose: its line on the index. */
export function firstSentence(text: string): string {
  const end = /[.;!?](?=\s+[A-Z`(])/.exec(text);
  return end ? `${text.slice(0, end.index)}.` : text;
}

/** The index: one line per module, what it is for and its controller-runtime counterpart. */
export function indexPage(modules: Array<{ name: string; comment: string }>): string {
  const rows = modules.map(
    (m) =>
      `| [${m.name}](./${m.name}) | ${firstSentence(modulePurpose(m.name, m.comment))} | ${COUNTERPARTS[m.name] ?? ''} |`,
  );
  return [
    '# Runtime API',
    '',
    'What `runtime/index.ts` exports, one page per module, written from the doc comments every time',
    'the book is built. Each module keeps the name of the controller-runtime (or client-go) package it',
    'stands for, so a Go reader can go straight to the page they know.',
    '',
    '| module | what it is for | in controller-runtime |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** The module folders runtime/index.ts re-exports whole (`export * from './client/index.js'`). */
export function runtimeModules(root: string): string[] {
  const index = readFileSync(join(root, 'runtime/index.ts'), 'utf8');
  return [...index.matchAll(/^export \* from '\.\/([\w-]+)\/index\.js';$/gm)].map((m) => m[1] ?? '');
}

/** One line per module runtime/index.ts re-exports that the reference's index has no counterpart for. */
export function counterpartCoverage(root: string): string[] {
  return runtimeModules(root)
    .filter((m) => !(m in COUNTERPARTS))
    .map(
      (m) =>
        `runtime/${m} has no line in docs/scripts/reference/runtime-counterparts.ts; add the controller-runtime package it stands for (or 'none: …')`,
    );
}
