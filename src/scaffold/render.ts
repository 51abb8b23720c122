/**
 * Template rendering. A template set is a directory laid out like the project it produces:
 * a file ending in `.hbs` is rendered with handlebars (its suffix dropped), anything else is
 * copied as is; `__name__` in a path is replaced by the value of `name`; a leading `_` in a file
 * name becomes `.` (so `_gitignore` ships in npm packages and yields `.gitignore`).
 * The built CLI uses the templates precompiled by `npm run build` (precompile.ts); from source
 * they are read once per process and compiled on first use.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  COMPILE_OPTIONS,
  HELPERS,
  isHandlebars,
  listTemplateFiles,
  PRECOMPILED_MODULE,
  TEMPLATES_ROOT,
} from './templates.js';

export type TemplateData = Readonly<Record<string, unknown>>;

export interface RenderedFile {
  path: string;
  content: string;
}

type Template = (data: TemplateData) => string;
type HandlebarsApi = Pick<typeof import('handlebars'), 'create'>;

/** Where templates come from: their names, and each one ready to render (loaded once, below). */
interface TemplateSource {
  names(): readonly string[];
  load(name: string): Template | undefined;
}

const PRECOMPILED = new URL(`./${PRECOMPILED_MODULE}`, import.meta.url);
const source: TemplateSource = existsSync(PRECOMPILED) ? precompiledSource() : fileSource();
const loaded = new Map<string, Template>();

/** An isolated handlebars environment with tsop's helpers. */
function withHelpers(handlebars: HandlebarsApi): ReturnType<HandlebarsApi['create']> {
  const hb = handlebars.create();
  for (const [name, fn] of Object.entries(HELPERS)) hb.registerHelper(name, fn);
  return hb;
}

function precompiledSource(): TemplateSource {
  // handlebars ships no types for its runtime entry; it is the full API minus the compiler.
  const runtime = createRequire(import.meta.url)('handlebars/runtime.js') as HandlebarsApi;
  const hb = withHelpers(runtime);
  // A spec is the object literal handlebars' precompile produced; the runtime's types call it TemplateSpecification.
  const entries = createRequire(import.meta.url)(fileURLToPath(PRECOMPILED)) as Record<
    string,
    string | Parameters<typeof hb.template>[0]
  >;
  const names = Object.keys(entries);
  return {
    names: () => names,
    load(name) {
      const entry = entries[name];
      if (entry === undefined) return undefined;
      return typeof entry === 'string' ? () => entry : (hb.template(entry) as Template);
    },
  };
}

function fileSource(): TemplateSource {
  const Handlebars = createRequire(import.meta.url)('handlebars') as typeof import('handlebars');
  const hb = withHelpers(Handlebars);
  let names: string[] | undefined;
  return {
    names: () => (names ??= listTemplateFiles()),
    load(name) {
      const text = readFileSync(join(TEMPLATES_ROOT, name), 'utf8');
      return isHandlebars(name) ? hb.compile(text, COMPILE_OPTIONS) : () => text;
    },
  };
}

/** Renders a single template (`set/relative/path.hbs`) with `data`. */
export function renderTemplate(name: string, data: TemplateData): string {
  let fn = loaded.get(name);
  if (fn === undefined) {
    fn = source.load(name);
    if (fn === undefined) throw new Error(`no template ${name} under ${TEMPLATES_ROOT}`);
    loaded.set(name, fn);
  }
  return fn(data);
}

/** Renders every file of a template set into (output path, content) pairs. */
export function renderSet(set: string, data: TemplateData): RenderedFile[] {
  const prefix = `${set}/`;
  return source
    .names()
    .filter((name) => name.startsWith(prefix))
    .map((name) => ({ path: outputPath(name.slice(prefix.length), data), content: renderTemplate(name, data) }));
}

function outputPath(rel: string, data: TemplateData): string {
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
