/**
 * Compiles a benchmark's child program (TypeScript) to JavaScript first, so its RSS and CPU
 * figures are those of the runtime on plain node, without the TypeScript compiler a loader hook
 * would keep in memory. The output goes inside node_modules/.cache, so it resolves the repo's
 * packages by walking up; remove `dir` when done.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));

export function compileChild(source: string): { file: string; dir: string } {
  const cacheDir = join(root, 'node_modules', '.cache');
  mkdirSync(cacheDir, { recursive: true });
  const dir = mkdtempSync(join(cacheDir, 'tsop-bench-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  const program = ts.createProgram([source], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    rootDir: root,
    outDir: dir,
    skipLibCheck: true,
    noCheck: true,
  });
  const result = program.emit();
  if (result.emitSkipped) throw new Error(`compiling ${relative(root, source)} failed`);
  return { file: join(dir, relative(root, source).replace(/\.ts$/, '.js')), dir };
}
