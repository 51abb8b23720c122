// The dependency rules of src/ and runtime/, checked by dependency-cruiser in `npm run lint`
// (`depcruise src runtime`). docs/contributing.md ("How the code depends on itself") explains them;
// the layer order of src/ is read from that page, so the book and the rule cannot drift.
// test/architecture/dependency-rules.test.ts proves each rule fails on a file that breaks it.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/** Each layer of src/ (1 = bottom) with its folders, from the numbered list under "How `src/` is layered". */
export function layersFromBook(page = readFileSync(`${ROOT}docs/contributing.md`, 'utf8')) {
  const start = page.indexOf('## How `src/` is layered');
  const end = page.indexOf('\n## ', start + 1);
  const section = page.slice(start, end < 0 ? undefined : end);
  const layers = [];
  for (const m of section.matchAll(/^(\d+)\. ([^\n]*(?:\n {3}[^\n]*)*)/gm)) {
    // A line names its folders in backquotes, each before its explanation in parentheses.
    const folders = [...m[2].replace(/\([^)]*\)/g, '').matchAll(/`([a-z-]+)`/g)].map((n) => n[1]);
    layers.push({ layer: Number(m[1]), folders });
  }
  return layers;
}

const alternatives = (names) => names.join('|');

/** One rule per folder of src/: it imports only from folders of lower layers (its own files aside). */
function layerRules(layers) {
  return layers.flatMap(({ layer, folders }) =>
    folders.map((folder) => {
      const notBelow = layers.filter((l) => l.layer >= layer).flatMap((l) => l.folders.filter((f) => f !== folder));
      return {
        name: `layer-${layer}-${folder}`,
        severity: 'error',
        comment: `src/${folder} (layer ${layer} in docs/contributing.md) imports only from lower layers; move the shared code down or the importer up`,
        from: { path: `^src/${folder}/` },
        to: { path: notBelow.length ? `^src/(${alternatives(notBelow)})/` : '^$' },
      };
    }),
  );
}

/** The folders of src/ the book does not list, so that a new folder cannot go unlayered. */
function unlistedFolders(layers) {
  const listed = new Set(layers.flatMap((l) => l.folders));
  return readdirSync(`${ROOT}src`, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !listed.has(e.name))
    .map((e) => e.name);
}

/**
 * The bottom of the runtime stacks as client-go's packages do (runtime/README.md): apimachinery
 * (the object model, no I/O) ← kubeconfig ← rest ← restmapper; each imports only the ones below it
 * (rest also takes queue's clock).
 */
const RUNTIME_BOTTOM = {
  apimachinery: [],
  kubeconfig: ['apimachinery'],
  rest: ['apimachinery', 'kubeconfig', 'queue'],
  restmapper: ['apimachinery', 'kubeconfig', 'rest'],
};

/**
 * The files of apimachinery/ that import from above it, until 0.3.0: index.ts re-exports the names
 * that moved up, and the four files that moved keep their old paths as shims (deep imports of tsop 0.1).
 */
const DEPRECATED_REEXPORTS = '^runtime/apimachinery/(index|http|connection|credentials|restmapper)\\.ts$';

/**
 * The runtime's optional modules: a project's src/runtime/ has each only once the project uses it
 * (src/scaffold/embedded-runtime.ts), so the rest of the runtime compiles without them. The
 * manager runs them through small interfaces of its own; the project's main.ts makes them.
 */
export const OPTIONAL_RUNTIME_MODULES = ['webhook', 'sharding'];

/** The runtime's tests and their fixtures, which may reach into a module's files. */
const RUNTIME_TESTS = ['\\.test\\.ts$', '\\.contract\\.ts$', '^runtime/test-fixtures/'];

/**
 * The files a runtime module may import from another module other than its index.ts, each with
 * its reason (`module` is the one `to` is in). A module's index is its public API (runtime/index.ts re-exports every one), so a
 * helper the runtime shares but users should not see is imported from its file.
 */
export const RUNTIME_FILE_IMPORTS = [
  {
    from: '^runtime/',
    module: 'apimachinery',
    to: '^runtime/apimachinery/model\\.ts$',
    why:
      'model.ts is the object model alone; until 0.3.0 apimachinery/index.ts also re-exports kubeconfig/, rest/ and ' +
      'restmapper/ (deprecated, for code written against tsop 0.1), which would load the HTTP layer with the object model',
  },
  {
    from: '^runtime/rest/',
    module: 'queue',
    to: '^runtime/queue/clock\\.ts$',
    why: 'queue/index.ts loads the queue, whose triggers come from reconcile/, which imports apimachinery/index.ts: through the index rest/ would import itself',
  },
  {
    from: '^runtime/(sharding|webhook)/',
    module: 'metrics',
    to: '^runtime/metrics/prom\\.ts$',
    why: "prom-client's four classes from their own files (metrics/prom.ts says why), shared by every module that makes metrics but not part of the runtime's API",
  },
  {
    from: '^runtime/sharding/',
    module: 'manager',
    to: '^runtime/manager/sharding-engine\\.ts$',
    why:
      "the manager's seam for sharding (the option's data and checks, the engine's interface): sharding/'s pure helpers " +
      'take them from that file; through manager/index.ts they would load the whole manager',
  },
  {
    from: '^runtime/(manager|webhook)/',
    module: 'rest',
    to: '^runtime/rest/node-http\\.ts$',
    why: "node:http loaded with require (rest/node-http.ts says why), shared with the health and metrics servers and the dev console's webhook reports, but not part of the runtime's API",
  },
  {
    from: '^runtime/testing/',
    module: 'envtest',
    to: '^runtime/envtest/',
    why: "testing/ is envtest's face for vitest (shared planes, sweeps between tests) and works with the harness's parts that envtest/index.ts keeps to itself",
  },
];

export function rules(layers = layersFromBook()) {
  const unlisted = unlistedFolders(layers);
  return [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'a file reaches itself through its imports (type-only ones too); break the cycle where it starts',
      from: { path: '^(src|runtime)/' },
      to: { circular: true },
    },
    {
      name: 'layer-top-level',
      severity: 'error',
      comment: "src/'s top-level modules (layer 1) import from no folder of src/",
      from: { path: '^src/[^/]+$' },
      to: { path: '^src/[^/]+/' },
    },
    ...layerRules(layers),
    ...(unlisted.length
      ? [
          {
            name: 'layer-unlisted-folder',
            severity: 'error',
            comment:
              'every folder of src/ has its layer in docs/contributing.md ("How `src/` is layered"); add it there',
            from: { path: `^src/(${alternatives(unlisted)})/` },
            to: {},
          },
        ]
      : []),
    {
      name: 'cli-reaches-runtime-through-shapes',
      severity: 'error',
      comment:
        'src/ takes from the runtime only the shapes both hold (runtime/shapes/index.ts); the runtime is embedded in projects, not loaded by the CLI',
      from: { path: '^src/' },
      to: { path: '^runtime/', pathNot: '^runtime/shapes/index\\.ts$' },
    },
    {
      name: 'runtime-not-cli',
      severity: 'error',
      comment: "the runtime is embedded into generated projects as it is, so it never imports tsop's CLI (src/)",
      from: { path: '^runtime/' },
      to: { path: '^src/' },
    },
    {
      name: 'runtime-through-index',
      severity: 'error',
      comment: 'a runtime module imports another only through its index.ts (../queue/index.js), never one of its files',
      from: { path: '^runtime/([^/]+)/', pathNot: RUNTIME_TESTS },
      to: {
        path: '^runtime/[^/]+/',
        pathNot: ['^runtime/$1/', '^runtime/[^/]+/index\\.ts$', ...RUNTIME_FILE_IMPORTS.map((e) => e.to)],
      },
    },
    ...RUNTIME_FILE_IMPORTS.map((e, i) => ({
      name: `runtime-file-import-${i + 1}`,
      severity: 'error',
      comment: `only ${e.from} may import ${e.to} rather than its module's index: ${e.why}`,
      // The module's own files import each other freely.
      from: { path: '^runtime/', pathNot: [e.from, `^runtime/${e.module}/`, ...RUNTIME_TESTS] },
      to: { path: e.to },
    })),
    ...Object.entries(RUNTIME_BOTTOM).map(([module, below]) => ({
      name: `runtime-bottom-${module}`,
      severity: 'error',
      comment: `runtime/${module} imports only from ${below.length ? below.join(', ') : 'no other runtime module'} (runtime/README.md: apimachinery ← kubeconfig ← rest ← restmapper)`,
      from: { path: `^runtime/${module}/`, pathNot: [...RUNTIME_TESTS, DEPRECATED_REEXPORTS] },
      to: { path: '^runtime/[^/]+/', pathNot: [`^runtime/(${alternatives([module, ...below])})/`] },
    })),
    {
      name: 'runtime-optional-modules',
      severity: 'error',
      comment:
        "a project's runtime has webhook/ only once it has a webhook, sharding/ only after `tsop edit --sharding`: " +
        'nothing else in the runtime imports them (the manager declares the interfaces it runs; main.ts makes the server ' +
        'and passes the sharding engine), besides runtime/index.ts, which the embedding trims, and the test harness, which ships with tsop',
      from: {
        path: '^runtime/',
        pathNot: [
          `^runtime/(${alternatives(OPTIONAL_RUNTIME_MODULES)})/`,
          '^runtime/index\\.ts$',
          '^runtime/(testing|envtest)/',
          ...RUNTIME_TESTS,
        ],
      },
      to: { path: `^runtime/(${alternatives(OPTIONAL_RUNTIME_MODULES)})/` },
    },
    {
      name: 'runtime-object-model',
      severity: 'error',
      comment:
        "the runtime's modules import the object model from apimachinery/model.ts: apimachinery/index.ts re-exports, until 0.3.0, the HTTP layer too",
      from: { path: '^runtime/[^/]+/', pathNot: ['^runtime/apimachinery/', ...RUNTIME_TESTS] },
      to: { path: '^runtime/apimachinery/index\\.ts$' },
    },
    {
      name: 'runtime-apimachinery-reexports',
      severity: 'error',
      comment:
        'apimachinery/index.ts and the shims of the files that moved reach up only to re-export, deprecated until 0.3.0, the names that moved to kubeconfig/, rest/ and restmapper/',
      from: { path: DEPRECATED_REEXPORTS },
      to: {
        path: '^runtime/[^/]+/',
        pathNot: ['^runtime/apimachinery/', '^runtime/(kubeconfig|rest|restmapper)/index\\.ts$'],
      },
    },
  ];
}

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: rules(),
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle of types is still a cycle to read through.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mts', '.js', '.mjs', '.json'] },
  },
};
