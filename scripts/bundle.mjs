// Part of `npm run build`: bundles the CLI into dist/bundle/ with esbuild, so a run loads a few
// files instead of ~100 small ESM modules plus commander, yaml and handlebars. Code splitting
// keeps each command's modules in chunks imported only when that command runs. ts-morph and the
// TypeScript it bundles stay outside (required lazily, and cached by compile-cache.ts).
//
// Every file sits flat in dist/bundle/, two folders below the package root,
// so code that finds a file beside itself keeps working: the entries below are the modules that
// are started on their own (a worker thread, loader hooks), and the precompiled templates are
// copied next to the chunk that renders them.
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

/** Output name → source: the CLI, and each module another one starts by its file name. */
const ENTRIES = {
  main: 'src/cli/main.ts', // bin/tsop.js
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
  absWorkingDir: root,
  stdin: { contents: `export { ${yamlNames.join(', ')} } from 'yaml';`, resolveDir: root, loader: 'js' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.19',
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
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
      const lazy = "let childProcessModule; const childProcess = { spawn: (...a) => (childProcessModule ??= require('node:child_process')).spawn(...a) };";
      return { contents: text.replace(CHILD_PROCESS_LINE, lazy), loader: 'js' };
    });
  },
};

const result = await build({
  absWorkingDir: root,
  entryPoints: ENTRIES,
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  external: EXTERNAL,
  plugins: [lazyRequireFromBundle, yamlApart, lazyChildProcessInCommander],
  // Bundled CommonJS packages (handlebars, commander) call require() for Node's own modules.
  banner: { js: "import { createRequire as __tsopRequire } from 'node:module'; const require = __tsopRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
});
if (result.errors.length > 0) process.exit(1);

const files = new Map(result.outputFiles.map((f) => [basename(f.path), f.contents]));
files.set(PRECOMPILED_MODULE, readFileSync(`${root}dist/src/scaffold/${PRECOMPILED_MODULE}`));
files.set(YAML_FILE, yamlResult.outputFiles[0].contents);
mkdirSync(outdir, { recursive: true });
const isEntry = (name) => Object.hasOwn(ENTRIES, name.replace(/\.js$/, ''));
for (const [name, contents] of [...files].sort(([a], [b]) => Number(isEntry(a)) - Number(isEntry(b)))) {
  const tmp = `${outdir}/.${name}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, `${outdir}/${name}`);
}
pruneStale(outdir, new Set(files.keys()), staleKeepMs());
