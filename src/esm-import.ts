/**
 * `import()` of a module known only at run time: the control-plane harness, a TypeScript file that
 * tsop's loader hooks compile (src/verify/plane.ts). The CLI runs from a bundle compiled with
 * `vm.Script` (src/cli/launch.ts), where an `import()` of its own would need an experimental
 * Node option and print a warning, so the launcher, an ES module, hands in its `import()`.
 */
type Importer = (specifier: string) => Promise<unknown>;

let importer: Importer = (specifier) => import(/* @vite-ignore */ specifier);

export function importModule<T>(specifier: string): Promise<T> {
  return importer(specifier) as Promise<T>;
}

/** Makes `importModule` use `fn` (the launcher's own `import()`). */
export function useImporter(fn: Importer): void {
  importer = fn;
}
