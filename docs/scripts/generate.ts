/**
 * Writes what the book generates before VitePress builds it, and fails (exit 1, one line per
 * problem) when a CLI command, a marker or a runtime export has no page:
 *
 *   docs/.generated/cli/<command>.md      flags, arguments, examples (from src/cli's commander definitions)
 *   docs/.generated/markers/<page>.md     one section per marker the page names (from src/codegen's catalog)
 *   docs/.generated/scaffold-tree.md      the tree `tsop init` + `create api` write
 *   docs/reference/runtime/*.md           the runtime's API (TypeDoc over what runtime/index.ts exports), each
 *                                         module page opening with its example from test/docs/runtime-examples/
 *
 * Run by `npm run docs:build` and `npm run docs:dev`; `--no-runtime-api` skips TypeDoc (30 s).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliCommands, programSummary, slugOf } from './reference/cli.js';
import { markerByNameOrThrow, markerNames, markerSection, migrationTable } from './reference/markers.js';
import { checkPages, readPages } from './reference/pages.js';
import { scaffoldTree } from './reference/scaffold-tree.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = join(ROOT, 'docs');
const GENERATED = join(DOCS, '.generated');

function write(path: string, content: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}

/** Writes the generated parts and returns the problems found; the caller decides the exit code. */
export async function generate(options: { runtimeApi: boolean }): Promise<string[]> {
  const problems: string[] = [];
  rmSync(GENERATED, { recursive: true, force: true });

  const commands = cliCommands();
  for (const c of commands) write(join(GENERATED, 'cli', `${c.slug}.md`), c.markdown);
  write(join(GENERATED, 'cli-summary.md'), programSummary());
  problems.push(
    ...checkPages({
      kind: 'cli',
      pages: readPages(DOCS, 'reference/cli', 'commands'),
      names: commands.map((c) => c.path),
      includeStem: (name) => slugOf(name),
    }),
  );

  const markerPages = readPages(DOCS, 'reference/markers', 'markers');
  const known = new Set(markerNames());
  for (const page of markerPages) {
    const sections: string[] = [];
    for (const name of page.names.filter((n) => known.has(n))) {
      try {
        sections.push(markerSection(markerByNameOrThrow(name)));
      } catch (err) {
        problems.push(`docs/${page.file}: ${(err as Error).message}`);
      }
    }
    write(join(GENERATED, 'markers', `${page.stem}.md`), sections.join('\n'));
  }
  problems.push(
    ...checkPages({
      kind: 'markers',
      pages: markerPages,
      names: markerNames(),
      includeStem: (_name, page) => page.stem,
    }),
  );
  write(
    join(GENERATED, 'migrating-markers.md'),
    migrationTable((name) => markerPages.find((p) => p.names.includes(name))?.stem),
  );

  write(join(GENERATED, 'scaffold-tree.md'), ['```text', scaffoldTree(ROOT), '```', ''].join('\n'));

  if (options.runtimeApi) {
    const { counterpartCoverage, exampleCoverage, runtimeCoverage, runtimeModules, writeRuntimeApi } = await import(
      './reference/runtime-api.js'
    );
    const out = join(DOCS, 'reference/runtime');
    rmSync(out, { recursive: true, force: true });
    const { documented, exported } = await writeRuntimeApi(ROOT, out);
    problems.push(
      ...runtimeCoverage(exported, documented),
      ...counterpartCoverage(ROOT),
      ...exampleCoverage(ROOT, runtimeModules(ROOT)),
    );
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  const problems = await generate({ runtimeApi: !process.argv.includes('--no-runtime-api') });
  for (const p of problems) process.stderr.write(`docs: ${p}\n`);
  if (problems.length > 0) {
    process.stderr.write(
      `docs: ${problems.length} problem${problems.length === 1 ? '' : 's'}; the book was not built\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`docs: reference generated in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
