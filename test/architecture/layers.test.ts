/**
 * The folders of src/ import downward only: the order is the list under "How `src/` is layered"
 * in docs/contributing.md (read from there, so the book and the rule cannot drift), and an import
 * into a folder of the same layer or a higher one fails here with the file and the import. A
 * strict order also means no cycle between folders.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');
const TOP = '(top-level modules)';

/** Layer of each folder, from the numbered list of the contributor page (1 = bottom). */
function layersFromBook(): Map<string, number> {
  const page = readFileSync(join(ROOT, 'docs/contributing.md'), 'utf8');
  const section = page.slice(page.indexOf('## How `src/` is layered'));
  const layers = new Map<string, number>([[TOP, 1]]);
  for (const m of section.matchAll(/^(\d+)\. ([^\n]*(?:\n {3}[^\n]*)*)/gm)) {
    // The folders a line names come before each one's explanation in parentheses.
    const names = m[2]!.replace(/\([^)]*\)/g, '').matchAll(/`([a-z-]+)`/g);
    for (const n of names) layers.set(n[1]!, Number(m[1]));
  }
  return layers;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

const folderOf = (file: string): string => {
  const parts = relative(SRC, file).split(sep);
  return parts.length > 1 ? parts[0]! : TOP;
};

/** Every relative import of a file (static, type-only and dynamic), resolved. */
function imports(file: string, text = readFileSync(file, 'utf8')): Array<{ spec: string; target: string }> {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => ({
    spec: m[1]!,
    target: resolve(dirname(file), m[1]!),
  }));
}

describe('the layers of src/', () => {
  const layers = layersFromBook();
  const files = sourceFiles(SRC);
  const folders = [...new Set(files.map(folderOf))];

  it('are listed in the book for every folder', () => {
    expect(folders.filter((f) => !layers.has(f))).toEqual([]);
  });

  /** The imports of a file that go sideways or up. */
  const wrongIn = (file: string, text?: string): string[] => {
    const from = folderOf(file);
    return imports(file, text)
      .filter(({ target }) => target.startsWith(SRC + sep)) // runtime/shapes, node_modules: below everything
      .filter(
        ({ target }) => folderOf(target) !== from && (layers.get(folderOf(target)) ?? 0) >= (layers.get(from) ?? 0),
      )
      .map(
        ({ spec, target }) =>
          `${relative(ROOT, file)}: '${spec}' (${from}, layer ${layers.get(from)} → ${folderOf(target)}, layer ${layers.get(folderOf(target))})`,
      );
  };

  it('import only from lower layers', () => {
    expect(files.flatMap((f) => wrongIn(f))).toEqual([]);
  });

  it('would report an import that goes up or sideways', () => {
    const file = join(SRC, 'manifests/example.ts');
    expect(
      wrongIn(
        file,
        "import { runInit } from '../cli/init.js';\nconst m = await import('../plugins/api.js');\nimport type { X } from '../codegen/model.js';",
      ),
    ).toEqual([
      "src/manifests/example.ts: '../cli/init.js' (manifests, layer 5 → cli, layer 8)",
      "src/manifests/example.ts: '../plugins/api.js' (manifests, layer 5 → plugins, layer 6)",
    ]);
    expect(wrongIn(join(SRC, 'docs/example.ts'), "import { v } from '../verify/x.js';")).toHaveLength(1); // the same layer
  });
});
