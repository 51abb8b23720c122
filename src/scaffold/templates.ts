/**
 * The template files and how they compile, shared by rendering (render.ts) and by the build step
 * that precompiles them (precompile.ts), so both produce the same output.
 */
import { readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { TSOP_ROOT } from '../version.js';

/** tsop's templates/ directory (next to src/ and dist/). */
export const TEMPLATES_ROOT = join(TSOP_ROOT, 'templates');

/**
 * The precompiled templates' module, next to render.js in dist/ (written by `npm run build`):
 * CommonJS, so render.ts loads it with `require` from both the ES modules of dist/ and the CLI's
 * CommonJS bundle, without an await at its top level.
 */
export const PRECOMPILED_MODULE = 'templates.precompiled.cjs';

/** Generated code is not HTML (no escaping), and a missing value is an error, not an empty string. */
export const COMPILE_OPTIONS = { noEscape: true, strict: true } as const;

export const HELPERS: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  eq: (a, b) => a === b,
  not: (a) => !a,
  concat: (...args) => args.slice(0, -1).join(''),
  importFrom: (names, module) => importFrom(String(names), String(module)),
};

/** Generated lines are as wide as the project's formatter (biome.json) allows. */
const LINE_WIDTH = 120;

/**
 * `import { names } from 'module';` laid out as the generated project's formatter lays it out:
 * on one line when it fits, else one name per line, so `npm run lint` passes whatever the names.
 */
function importFrom(names: string, module: string): string {
  const line = `import { ${names} } from '${module}';`;
  if (line.length <= LINE_WIDTH) return line;
  const list = names.split(',').map((n) => `  ${n.trim()},`);
  return ['import {', ...list, `} from '${module}';`].join('\n');
}

/** Whether a template file is rendered with handlebars (otherwise it is copied as is). */
export const isHandlebars = (name: string): boolean => name.endsWith('.hbs');

/** Every file under `dir`, as sorted posix paths relative to it. */
export function listTemplateFiles(dir: string = TEMPLATES_ROOT, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? posix.join(prefix, e.name) : e.name;
    if (e.isDirectory()) out.push(...listTemplateFiles(dir, rel));
    else if (e.isFile()) out.push(rel);
  }
  return out.sort();
}
