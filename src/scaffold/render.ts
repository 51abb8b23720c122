/**
 * Template rendering. A template set is a directory laid out like the project it produces:
 * a file ending in `.hbs` is rendered with handlebars (its suffix dropped), anything else is
 * copied as is; `__name__` in a path is replaced by the value of `name`; a leading `_` in a file
 * name becomes `.` (so `_gitignore` ships in npm packages and yields `.gitignore`).
 * Templates are read once per process and compiled lazily.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';

export type TemplateData = Readonly<Record<string, unknown>>;

export interface RenderedFile {
  path: string;
  content: string;
}

/** tsop's templates/ directory (next to src/ and dist/). */
export const TEMPLATES_ROOT = fileURLToPath(new URL('../../templates', import.meta.url));

const hb = Handlebars.create();
hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
hb.registerHelper('not', (a: unknown) => !a);

const compiled = new Map<string, Handlebars.TemplateDelegate>();
const listings = new Map<string, string[]>();

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? posix.join(prefix, e.name) : e.name;
    if (e.isDirectory()) out.push(...listFiles(dir, rel));
    else if (e.isFile()) out.push(rel);
  }
  return out.sort();
}

/** Renders a single template (`set/relative/path.hbs`) with `data`. */
export function renderTemplate(name: string, data: TemplateData): string {
  let fn = compiled.get(name);
  if (!fn) {
    const text = readFileSync(join(TEMPLATES_ROOT, name), 'utf8');
    fn = name.endsWith('.hbs') ? hb.compile(text, { noEscape: true, strict: true }) : () => text;
    compiled.set(name, fn);
  }
  return fn(data);
}

/** Renders every file of a template set into (output path, content) pairs. */
export function renderSet(set: string, data: TemplateData): RenderedFile[] {
  let files = listings.get(set);
  if (!files) {
    files = listFiles(join(TEMPLATES_ROOT, set));
    listings.set(set, files);
  }
  return files.map((rel) => ({ path: outputPath(rel, data), content: renderTemplate(posix.join(set, rel), data) }));
}

export function outputPath(rel: string, data: TemplateData): string {
  const replaced = rel.replace(/__([a-zA-Z]+)__/g, (_m, key: string) => {
    const v = data[key];
    if (typeof v !== 'string') throw new Error(`template path ${rel}: no string value for '${key}'`);
    return v;
  });
  return replaced
    .replace(/\.hbs$/, '')
    .split('/')
    .map((part) => (part.startsWith('_') ? `.${part.slice(1)}` : part))
    .join('/');
}
