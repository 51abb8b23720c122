/**
 * Type-checks TypeScript files `tsop import` wrote, in memory, as a project's `tsc` would: the
 * files sit at their project paths under a virtual root in this checkout, whose `src/runtime` is
 * the checkout's runtime and whose node_modules is the checkout's (the @kubernetes/client-node
 * projects get). Several projects can be checked in one program, each in its own folder of the
 * root (`<project>/src/api/…`): every `src/runtime` under the root is the checkout's runtime.
 * With `tsconfig` (a project's tsconfig.json) the compiler options are that file's, as its
 * `tsc -p tsconfig.json --noEmit` reads them, so tests and `vitest.config.ts` are checked the same way.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
// Inside the checkout (never written to disk), so node_modules is found as for any file of it.
const ROOT = join(REPO, '.import-check');

/** The compiler's errors (file:line: message) for `files` (project path → text); empty when they compile. */
export function typeErrors(files: ReadonlyMap<string, string>, tsconfig?: string): string[] {
  const options: ts.CompilerOptions = tsconfig
    ? projectOptions(tsconfig)
    : {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
        lib: ['lib.es2023.d.ts'],
      };
  const real = (path: string): string => {
    if (!path.startsWith(`${ROOT}/`)) return path;
    const rel = path.slice(ROOT.length);
    const at = rel.indexOf('/src/runtime/');
    return at < 0 ? path : join(REPO, 'runtime', rel.slice(at + '/src/runtime/'.length));
  };
  const virtual = new Map([...files].map(([p, text]) => [`${ROOT}/${p}`, text]));
  const host = ts.createCompilerHost(options);
  const base = {
    fileExists: host.fileExists,
    readFile: host.readFile,
    directoryExists: host.directoryExists!,
    getSourceFile: host.getSourceFile,
  };
  host.fileExists = (p) => virtual.has(p) || base.fileExists(real(p));
  host.readFile = (p) => virtual.get(p) ?? base.readFile(real(p));
  host.directoryExists = (d) => [...virtual.keys()].some((p) => p.startsWith(`${d}/`)) || base.directoryExists(real(d));
  host.realpath = (p) => p;
  host.getSourceFile = (p, lang, onError, create) => {
    const text = virtual.get(p);
    return text !== undefined
      ? ts.createSourceFile(p, text, lang, true)
      : base.getSourceFile(real(p), lang, onError, create);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || virtual.has(d.file.fileName))
    .map((d) => {
      const where =
        d.file && d.start !== undefined
          ? `${d.file.fileName.slice(ROOT.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: `
          : '';
      return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}

/** The compiler options of a project's tsconfig.json, without emitting. */
function projectOptions(tsconfig: string): ts.CompilerOptions {
  const read = ts.readConfigFile(tsconfig, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const raw = (read.config as { compilerOptions?: object }).compilerOptions ?? {};
  const { options, errors } = ts.convertCompilerOptionsFromJson(raw, dirname(tsconfig));
  if (errors.length > 0)
    throw new Error(errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n')).join('; '));
  return { ...options, noEmit: true, sourceMap: false };
}
