// Part of `npm run build`: bundles the CLI into dist/bundle/ with esbuild.
//
// - The CLI is one CommonJS file, cli.cjs, that launch.js loads with V8's compiled code cached
//   between runs (src/cli/launch.ts): a run neither compiles nor links ~100 modules plus
//   commander and handlebars. Each command's modules are still evaluated only when it runs
//   (esbuild keeps a bundled `import()` lazy).
// - The modules started on their own (launch.js, a worker thread, loader hooks) are ES modules,
//   code-split among themselves.
// - ts-morph and the TypeScript it bundles stay outside (required lazily, and cached by
//   src/typescript/compile-cache.ts); so does yaml, in a file of its own (below).
//
// Every file sits flat in dist/bundle/, two folders below the package root, so code that finds a
// file beside itself keeps working (the precompiled templates are copied there too).
//
// Others may be running the CLI from dist/bundle/ while it is rebuilt, so nothing is removed
// first: each file is written whole (a temp file renamed), chunks before the entries that import
// them, and chunks of earlier builds (content-hashed names) stay for an hour for processes that
// still import them, then go (at once in a build for a package: bundle-prune.mjs).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { pruneStale, staleKeepMs } from './bundle-prune.mjs';
import { PRECOMPILED_MODULE } from '../dist/src/scaffold/templates.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/bundle`;

/** What every build here shares: Node's platform and version, the output kept in memory (written below). */
const FOR_NODE = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
};

/** The CLI, as one CommonJS file (launch.ts requires it). */
const CLI = { source: 'src/cli/main.ts', file: 'cli.cjs' };

/** Output name → source: each ES module another one starts by its file name. */
const ENTRIES = {
  launch: 'src/cli/launch.ts', // bin/tsop.js
  worker: 'src/codegen/reader/worker.ts', // background.ts: new Worker('./worker.js')
  register: 'src/dev/register.ts', // dev/operator.ts: node --import ./register.js
  hooks: 'src/dev/hooks.ts', // dev/register.ts: register('./hooks.js')
  'ts-hooks': 'src/verify/ts-hooks.ts', // verify/plane.ts: register('./ts-hooks.js')
};

/** Loaded with require() at the moment parsing starts (typescript.ts, compile-cache.ts). */
const EXTERNAL = ['ts-morph', '@ts-morph/common'];

/**
 * A package loaded lazily with `createRequire(import.meta.url)('yaml')` (sync, on first use)
 * would come from node_modules file by file (yaml's CommonJS build is ~100 files, ~40 ms):
 * as a plain `require('yaml')` esbuild bundles it instead, still evaluated only on first use.
 */
const lazyRequireFromBundle = {
  name: 'lazy-require-from-bundle',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('createRequire(import.meta.url)(')) return undefined;
      const contents = text.replace(/createRequire\(import\.meta\.url\)\((['"])([^'"]+)\1\)/g, (call, _q, id) =>
        EXTERNAL.some((e) => id === e || id.startsWith(`${e}/`)) ? call : `require(${JSON.stringify(id)})`,
      );
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * The yaml library as one CommonJS file of its own, dist/bundle/yaml.cjs, that every chunk imports
 * (or requires lazily) instead of holding a copy: `tsop manifests` requires it only for --check,
 * so a plain run neither loads nor compiles it (~270 KB; Node 20 has no compile cache for ES
 * modules). Its named exports are listed in a way Node's CommonJS export detection reads, so
 * `import { parse } from 'yaml'` keeps working in the chunks that import it statically.
 */
const YAML_FILE = 'yaml.cjs';
const yamlApart = {
  name: 'yaml-apart',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: `./${YAML_FILE}`, external: true }));
  },
};
const yamlNames = Object.keys(createRequire(import.meta.url)('yaml')).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
const yamlResult = await build({
  ...FOR_NODE,
  stdin: { contents: `export { ${yamlNames.join(', ')} } from 'yaml';`, resolveDir: root, loader: 'js' },
  format: 'cjs',
  outfile: `${outdir}/${YAML_FILE}`,
});
if (yamlResult.errors.length > 0) process.exit(1);

/**
 * commander requires child_process as it loads, for the executable subcommands tsop never has;
 * loading it (with net, dgram, …) is ~3 ms of every run. Required on first spawn instead. If a
 * later commander words the line differently, the file is bundled as it is.
 */
const CHILD_PROCESS_LINE = "const childProcess = require('node:child_process');";
const lazyChildProcessInCommander = {
  name: 'lazy-child-process-in-commander',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes(CHILD_PROCESS_LINE)) return undefined;
      const lazy =
        "let childProcessModule; const childProcess = { spawn: (...a) => (childProcessModule ??= require('node:child_process')).spawn(...a) };";
      return { contents: text.replace(CHILD_PROCESS_LINE, lazy), loader: 'js' };
    });
  },
};

/** The builds of tsop's own sources: the packages kept apart, and the plugins above. */
const FROM_SOURCES = {
  ...FOR_NODE,
  external: EXTERNAL,
  plugins: [lazyRequireFromBundle, yamlApart, lazyChildProcessInCommander],
};

/**
 * The CLI bundle as CommonJS: `import.meta.url` is the bundle's own URL (code finds files beside
 * itself, as the ES modules did), and the code stays in strict mode, as ES modules are.
 */
const cliResult = await build({
  ...FROM_SOURCES,
  entryPoints: [CLI.source],
  outfile: `${outdir}/${CLI.file}`,
  format: 'cjs',
  define: { 'import.meta.url': '__tsopImportMetaUrl' },
  banner: { js: "'use strict';\nvar __tsopImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
if (cliResult.errors.length > 0) process.exit(1);
// From cached code an import() needs an experimental Node option (and prints a warning): the
// CLI's code reaches a module known at run time through src/esm-import.ts (whose own import()
// launch.ts replaces), and a Node built-in with createRequire.
let sourceModule = '';
const dynamicImport = cliResult.outputFiles[0].text.split('\n').find((line) => {
  sourceModule = /^\/\/ (src\/\S+)$/.exec(line)?.[1] ?? sourceModule;
  return sourceModule !== 'src/esm-import.ts' && /(?<![\w$.])import\(/.test(line) && !/^\s*(\/\/|\*)/.test(line);
});
if (dynamicImport !== undefined) {
  console.error(
    `bundle: dist/bundle/${CLI.file} must not call import(); use src/esm-import.ts (or createRequire for a Node module): ${dynamicImport.trim()}`,
  );
  process.exit(1);
}

const result = await build({
  ...FROM_SOURCES,
  entryPoints: ENTRIES,
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  splitting: true,
  format: 'esm',
  // Bundled CommonJS code calls require() for Node's own modules.
  banner: {
    js: "import { createRequire as __tsopRequire } from 'node:module'; const require = __tsopRequire(import.meta.url);",
  },
});
if (result.errors.length > 0) process.exit(1);

/**
 * The vitest plugin a generated project's vitest.config.ts imports (`tsop/vitest`, package.json
 * "exports"): Vite loads a config's packages with Node itself, which runs no TypeScript from
 * node_modules, so it ships as JavaScript. TypeScript stays the project's own.
 */
const VITEST_PLUGIN_FILE = 'vitest-plugin.js';
const vitestPluginResult = await build({
  ...FOR_NODE,
  entryPoints: ['runtime/testing/decorators-plugin.ts'],
  outfile: `${outdir}/${VITEST_PLUGIN_FILE}`,
  format: 'esm',
  external: ['typescript'],
});
if (vitestPluginResult.errors.length > 0) process.exit(1);

const files = new Map(result.outputFiles.map((f) => [basename(f.path), f.contents]));
// esbuild writes strings and regular expressions in ASCII (escaped) but keeps a comment's
// characters: escaped there too, the file reads as Latin-1, far faster than as UTF-8 (code-cache.ts).
files.set(
  CLI.file,
  Buffer.from(
    cliResult.outputFiles[0].text.replace(
      /[^\x00-\x7f]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  ),
);
files.set(PRECOMPILED_MODULE, readFileSync(`${root}dist/src/scaffold/${PRECOMPILED_MODULE}`));
files.set(YAML_FILE, yamlResult.outputFiles[0].contents);
files.set(VITEST_PLUGIN_FILE, vitestPluginResult.outputFiles[0].contents);
mkdirSync(outdir, { recursive: true });
const isEntry = (name) => Object.hasOwn(ENTRIES, name.replace(/\.js$/, ''));
for (const [name, contents] of [...files].sort(([a], [b]) => Number(isEntry(a)) - Number(isEntry(b)))) {
  const tmp = `${outdir}/.${name}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, `${outdir}/${name}`);
}
pruneStale(outdir, new Set(files.keys()), staleKeepMs());
