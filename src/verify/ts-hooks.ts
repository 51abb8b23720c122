/**
 * Module hooks that load TypeScript source in Node, shared by the two places tsop needs them:
 * the built CLI loading the control-plane harness (runtime/envtest ships as `.ts`; registered by
 * plane.ts when Node cannot load `.ts` itself) and the operator `tsop dev` runs from source
 * (src/dev/hooks.ts adds its on-disk cache around `transpile`). `.js` specifiers that name a
 * `.ts` file resolve to it; `.ts` files are transpiled, without a type-check, by the TypeScript
 * that ts-morph bundles (a dependency of tsop, unlike the `typescript` package). A package that
 * cannot be found next to the importing file is looked up once more from the project's root, when
 * the registration names one: a tsop run from npx's cache or a global install has no
 * `@kubernetes/client-node` beside its harness, while the project it works on has.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as TsMorph from 'ts-morph';

export interface ResolveContext {
  parentURL?: string;
}
export interface Resolved {
  url: string;
  shortCircuit?: boolean;
}
export interface Loaded {
  format: string;
  source: string;
  shortCircuit?: boolean;
}

/** What `register(…, { data })` passes to the hooks. */
export interface HookData {
  /** The project whose node_modules serve packages not found next to the importing file. */
  projectRoot?: string;
}

let fallbackParent: string | undefined;

export function initialize(data: HookData | undefined): void {
  if (data?.projectRoot) fallbackParent = pathToFileURL(join(data.projectRoot, 'package.json')).href;
}

export async function resolve(
  specifier: string,
  context: ResolveContext,
  next: (s: string, c: ResolveContext) => Promise<Resolved>,
): Promise<Resolved> {
  const parent = context.parentURL;
  if (
    parent?.startsWith('file:') &&
    parent.endsWith('.ts') &&
    /^\.{1,2}\//.test(specifier) &&
    specifier.endsWith('.js')
  ) {
    const asTs = new URL(specifier.replace(/\.js$/, '.ts'), parent);
    if (!existsSync(fileURLToPath(new URL(specifier, parent))) && existsSync(fileURLToPath(asTs)))
      return { url: asTs.href, shortCircuit: true };
  }
  try {
    return await next(specifier, context);
  } catch (error) {
    const bare = !/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(specifier);
    if (
      !bare ||
      fallbackParent === undefined ||
      parent === fallbackParent ||
      (error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND'
    )
      throw error;
    // Not found from the original parent: the project's copy, else the original error (it names that parent).
    try {
      return await next(specifier, { ...context, parentURL: fallbackParent });
    } catch {
      throw error;
    }
  }
}

let ts: typeof TsMorph.ts | undefined; // loaded on the first file to transpile only

/** One `.ts` file as ES module JavaScript, with an inline source map so stack traces name its lines. */
export async function transpile(file: string): Promise<string> {
  ts ??= (createRequire(import.meta.url)('ts-morph') as typeof TsMorph).ts;
  return ts.transpileModule(await readFile(file, 'utf8'), {
    fileName: file,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      useDefineForClassFields: true,
      inlineSourceMap: true,
    },
  }).outputText;
}

export async function load(
  url: string,
  context: object,
  next: (u: string, c: object) => Promise<Loaded>,
): Promise<Loaded> {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  return { format: 'module', source: await transpile(fileURLToPath(url)), shortCircuit: true };
}
