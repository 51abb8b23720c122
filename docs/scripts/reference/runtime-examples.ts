/**
 * The short example at the top of each runtime module page. The examples are TypeScript files in
 * test/docs/runtime-examples/, one per module, which tsop's own type-check compiles against the
 * runtime (and test/docs/runtime-examples.test.ts runs where they need no cluster), so an example
 * that stops compiling fails CI instead of misleading a reader. On the page, each file's imports
 * are written as they read in a generated project, where the runtime is src/runtime/ and the
 * examples' Memcached kind and reconciler are files of the project's own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/** Where the examples live in tsop's repository. */
export const EXAMPLES_DIR = 'test/docs/runtime-examples';

/** The folder of a generated project each example is written from (default src/controllers). */
const EXAMPLE_FOLDER: Readonly<Record<string, string>> = { manager: 'src', kubeconfig: 'src', log: 'src' };

/** The project file an example stands for when another example imports it. */
const PROJECT_FILE: Readonly<Record<string, string>> = {
  apimachinery: 'src/api/v1alpha1/memcached.js',
  reconcile: 'src/controllers/memcached-controller.js',
  builder: 'src/controllers/memcached-controller.js',
};

export interface RuntimeExample {
  /** What the example shows: its file's leading doc comment. */
  caption: string;
  /** The folder of a project it is written from. */
  folder: string;
  /** Its code, imports as a project's file writes them. */
  code: string;
}

/** A relative import from `folder` to `target` (both project paths), as TypeScript writes one. */
function importPath(folder: string, target: string): string {
  const path = posix.relative(folder, target);
  return path.startsWith('.') ? path : `./${path}`;
}

/** The example's imports rewritten from the repository's layout to a generated project's. */
export function projectImports(code: string, folder: string): string {
  return code
    .replace(
      /(['"])\.\.\/\.\.\/\.\.\/runtime\/([\w-]+)\/index\.js\1/g,
      (_m, q: string, module: string) => `${q}${importPath(folder, `src/runtime/${module}/index.js`)}${q}`,
    )
    .replace(/(['"])\.\/([\w-]+)\.js\1/g, (whole, q: string, example: string) => {
      const target = PROJECT_FILE[example];
      return target ? `${q}${importPath(folder, target)}${q}` : whole;
    });
}

/** The example of `module`, or undefined when it has none. */
export function runtimeExample(root: string, module: string): RuntimeExample | undefined {
  const file = join(root, EXAMPLES_DIR, `${module}.ts`);
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const head = /^\/\*\*([\s\S]*?)\*\/\n/.exec(text);
  const caption = (head?.[1] ?? '')
    .split('\n')
    .map((l) => l.replace(/^\s*\*\s?/, '').trim())
    .filter((l) => l.length > 0)
    .join(' ');
  const folder = EXAMPLE_FOLDER[module] ?? 'src/controllers';
  return { caption, folder, code: projectImports(text.slice(head?.[0].length ?? 0).trim(), folder) };
}

/** The page's "Example" section. */
export function exampleSection(example: RuntimeExample): string {
  return [
    '## Example',
    '',
    `${example.caption} (A file in \`${example.folder}/\` of a generated project.)`,
    '',
    '```ts',
    example.code,
    '```',
    '',
  ].join('\n');
}

/** One line per module runtime/index.ts re-exports that has no example, or whose example has no caption. */
export function exampleCoverage(root: string, modules: string[]): string[] {
  return modules.flatMap((m) => {
    const example = runtimeExample(root, m);
    if (!example)
      return [
        `runtime/${m} has no example: add ${EXAMPLES_DIR}/${m}.ts (a short use of the module, opening with a /** one-sentence */ caption)`,
      ];
    if (example.caption === '')
      return [`${EXAMPLES_DIR}/${m}.ts has no caption: open it with a /** one-sentence */ comment`];
    return [];
  });
}
