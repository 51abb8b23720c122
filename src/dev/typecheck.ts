/**
 * The type-check before each operator restart, kept warm between runs: the project's
 * tsconfig.json is read once, parsed source files are reused while their mtime is unchanged, and
 * each check builds on the previous program, so checking after a one-file edit costs a fraction
 * of a cold `tsc --noEmit`. Uses the project's own TypeScript (a devDependency of every scaffolded
 * project), so the check is the one `npm test` runs.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import type * as TsMorph from 'ts-morph';
import { UsageError } from '../errors.js';

type TS = typeof TsMorph.ts;

export interface TypeCheckResult {
  /** One line per diagnostic: file:line:col message. */
  errors: string[];
  ms: number;
}

export class TypeChecker {
  private readonly ts: TS;
  private readonly sources = new Map<string, { mtime: number; file: TsMorph.ts.SourceFile }>();
  private previous: TsMorph.ts.SemanticDiagnosticsBuilderProgram | undefined;

  constructor(private readonly root: string) {
    try {
      this.ts = createRequire(join(root, 'package.json'))('typescript') as TS;
    } catch {
      throw new UsageError(
        `dev: the project has no 'typescript' package to type-check with; run 'npm install' in ${root}`,
      );
    }
  }

  check(): TypeCheckResult {
    const ts = this.ts;
    const started = performance.now();
    const configPath = join(this.root, 'tsconfig.json');
    const config = ts.getParsedCommandLineOfConfigFile(
      configPath,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => undefined,
      },
    );
    if (!config) return { errors: [`${configPath}: cannot be read`], ms: performance.now() - started };
    // The operator's own sources are what a restart runs; tests are left to `npm test`.
    const rootNames = config.fileNames.filter(
      (f) => !/\.test\.ts$/.test(f) && !relative(this.root, f).startsWith('test'),
    );
    const options = { ...config.options, noEmit: true };
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
      let mtime = -1;
      try {
        mtime = statSync(fileName).mtimeMs;
      } catch {
        // not on disk (a lib the host serves itself): parsed fresh, versioned as such
      }
      const hit = this.sources.get(fileName);
      if (hit && hit.mtime === mtime && mtime !== -1) return hit.file;
      const file = read(fileName, languageVersion, onError, shouldCreate);
      if (!file) return file;
      // The builder tells changed files from unchanged ones by this version.
      (file as { version?: string }).version = String(mtime);
      this.sources.set(fileName, { mtime, file });
      return file;
    };
    const program = ts.createSemanticDiagnosticsBuilderProgram(rootNames, options, host, this.previous, config.errors);
    this.previous = program;
    const diagnostics = [
      ...program.getConfigFileParsingDiagnostics(),
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...program.getSyntacticDiagnostics(),
      ...program.getSemanticDiagnostics(),
    ].filter((d) => d.category === ts.DiagnosticCategory.Error);
    const errors = diagnostics.map((d) => {
      const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
      if (!d.file || d.start === undefined) return message;
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      return `${relative(this.root, d.file.fileName)}:${line + 1}:${character + 1} ${message}`;
    });
    return { errors, ms: performance.now() - started };
  }
}
