/**
 * A Vite/Vitest plugin that compiles TypeScript with TypeScript itself before Vite sees it.
 *
 * Vite 8 transforms TypeScript with oxc, which does not lower standard (TC39) decorators; the
 * marker decorators on API classes (`@Minimum(1)`) would reach Node as syntax it cannot run.
 * `ts.transpileModule` lowers them exactly as `tsc` does for the build, so tests and production
 * run the same code.
 */
import ts from 'typescript';

interface TransformResult {
  code: string;
  map: string | null;
}

export interface VitePluginLike {
  name: string;
  enforce: 'pre';
  transform(code: string, id: string): TransformResult | null;
}

export function decoratorsPlugin(): VitePluginLike {
  return {
    name: 'tsop:typescript-decorators',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (!/\.(c|m)?tsx?$/.test(file) || file.includes('/node_modules/') || !code.includes('@')) return null;
      const out = ts.transpileModule(code, {
        fileName: file,
        compilerOptions: {
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          sourceMap: true,
          inlineSources: true,
          verbatimModuleSyntax: false,
          useDefineForClassFields: true,
        },
      });
      return { code: out.outputText.replace(/\/\/# sourceMappingURL=.*$/m, ''), map: out.sourceMapText ?? null };
    },
  };
}
