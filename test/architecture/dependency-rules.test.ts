/**
 * The dependency rules `npm run lint` checks with dependency-cruiser (.dependency-cruiser.mjs; the
 * book explains them in docs/contributing.md): each one fails on a small tree laid out like this
 * repository that breaks it, and names the rule, so reintroducing a cycle or an upward import
 * fails lint. The repository itself is checked by lint, not here.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';
import { layersFromBook, OPTIONAL_RUNTIME_MODULES, RUNTIME_FILE_IMPORTS, rules } from '../../.dependency-cruiser.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'tsop-dependency-rules-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let count = 0;
/**
 * Writes `files` into a tree of its own and returns each violation as `rule: from → to`, a cycle
 * as `no-circular: ` and its files in order of name (whichever file it was found from).
 */
async function violations(files: Record<string, string>): Promise<string[]> {
  const base = join(work, String(++count));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), text);
  }
  const dirs = [...new Set(Object.keys(files).map((p) => p.split('/')[0]!))];
  const result = await cruise(
    dirs,
    { baseDir: base, ruleSet: { forbidden: rules() }, validate: true, tsPreCompilationDeps: true },
    { extensions: ['.ts', '.js'] },
  );
  if (typeof result.output === 'string') throw new Error('dependency-cruiser gave a report, not a result');
  const named = result.output.summary.violations.map((v) =>
    v.cycle
      ? `no-circular: ${[v.from, ...v.cycle.map((c) => c.name)]
          .filter((f, i, all) => all.indexOf(f) === i)
          .sort()
          .join(', ')}`
      : `${v.rule.name}: ${v.from} → ${v.to}`,
  );
  return [...new Set(named)].sort();
}

describe('the dependency rules', () => {
  it('read the layers of src/ from the book', () => {
    const layers = layersFromBook(readFileSync(join(ROOT, 'docs/contributing.md'), 'utf8'));
    const layerOf = (folder: string) => layers.find((l) => l.folders.includes(folder))?.layer;
    expect([
      layerOf('typescript'),
      layerOf('codegen'),
      layerOf('scaffold'),
      layerOf('plugins'),
      layerOf('cli'),
    ]).toEqual([2, 3, 4, 6, 8]);
  });

  it('fail on a cycle between files, type-only imports included', async () => {
    expect(
      await violations({
        'src/plugins/plugin.ts': "import type { EditOptions } from './base/edit.js';\nexport type P = EditOptions;\n",
        'src/plugins/base/edit.ts':
          "import { restore } from '../deploy-image/scaffold.js';\nexport interface EditOptions { a?: number }\nexport const e = restore;\n",
        'src/plugins/deploy-image/scaffold.ts':
          "import type { P } from '../plugin.js';\nexport const restore = (p?: P) => p;\n",
      }),
    ).toEqual(['no-circular: src/plugins/base/edit.ts, src/plugins/deploy-image/scaffold.ts, src/plugins/plugin.ts']);
    expect(
      await violations({
        'runtime/controller/controller.ts': "import type { Info } from '../manager/index.js';\nexport type C = Info;\n",
        'runtime/controller/index.ts': "export type { C } from './controller.js';\n",
        'runtime/manager/index.ts': "import type { C } from '../controller/index.js';\nexport type Info = { c?: C };\n",
      }),
    ).toEqual(['no-circular: runtime/controller/controller.ts, runtime/controller/index.ts, runtime/manager/index.ts']);
  });

  it('fail on an import that goes up or sideways between the folders of src/, dynamic ones too', async () => {
    expect(
      await violations({
        'src/manifests/example.ts':
          "import { runInit } from '../cli/init.js';\nexport const m = () => import('../plugins/api.js');\nexport const r = runInit;\n",
        'src/cli/init.ts': 'export const runInit = 1;\n',
        'src/plugins/api.ts': 'export const api = 1;\n',
        'src/docs/example.ts': "export { v } from '../verify/x.js';\n",
        'src/verify/x.ts': "import { e } from '../errors.js';\nexport const v = e;\n",
        'src/errors.ts': "import type { X } from './codegen/model.js';\nexport const e: X = 1;\n",
        'src/codegen/model.ts': 'export type X = number;\n',
      }),
    ).toEqual([
      'layer-5-manifests: src/manifests/example.ts → src/cli/init.ts',
      'layer-5-manifests: src/manifests/example.ts → src/plugins/api.ts',
      'layer-6-docs: src/docs/example.ts → src/verify/x.ts',
      'layer-top-level: src/errors.ts → src/codegen/model.ts',
    ]);
  });

  it('fail on src/ reaching into the runtime past runtime/shapes, and on the runtime importing src/', async () => {
    expect(
      await violations({
        'src/plugins/a.ts':
          "import { s } from '../../runtime/shapes/index.js';\nimport { q } from '../../runtime/queue/index.js';\nexport const a = [s, q];\n",
        'runtime/shapes/index.ts': 'export const s = 1;\n',
        'runtime/queue/index.ts': "import { a } from '../../src/plugins/a.js';\nexport const q = a;\n",
      }),
    ).toEqual([
      'cli-reaches-runtime-through-shapes: src/plugins/a.ts → runtime/queue/index.ts',
      'no-circular: runtime/queue/index.ts, src/plugins/a.ts',
      'runtime-not-cli: runtime/queue/index.ts → src/plugins/a.ts',
    ]);
  });

  it("fail on a runtime module importing another's file instead of its index, but for the exceptions named", async () => {
    expect(
      await violations({
        'runtime/cache/informer.ts':
          "import { realClock } from '../queue/clock.js';\nimport { Fifo } from '../queue/fifo.js';\nexport const i = [realClock, Fifo];\n",
        'runtime/queue/clock.ts':
          "import { onAbort } from '../apimachinery/model.js';\nexport const realClock = onAbort;\n",
        'runtime/queue/fifo.ts':
          "import { deepCopy } from '../apimachinery/deep-copy.js';\nexport const Fifo = deepCopy;\n",
        'runtime/rest/connection.ts': "import { realClock } from '../queue/clock.js';\nexport const c = realClock;\n",
        'runtime/cache/store.ts': "import { kindFor } from '../apimachinery/index.js';\nexport const s = kindFor;\n",
        'runtime/apimachinery/model.ts':
          "export { onAbort } from './abort.js';\nexport { deepCopy } from './deep-copy.js';\n",
        'runtime/apimachinery/index.ts': "export * from './model.js';\nexport const kindFor = 1;\n",
        'runtime/apimachinery/abort.ts': 'export const onAbort = 1;\n',
        'runtime/apimachinery/deep-copy.ts': 'export const deepCopy = 1;\n',
      }),
    ).toEqual([
      'runtime-file-import-2: runtime/cache/informer.ts → runtime/queue/clock.ts',
      'runtime-object-model: runtime/cache/store.ts → runtime/apimachinery/index.ts',
      'runtime-through-index: runtime/cache/informer.ts → runtime/queue/fifo.ts',
      'runtime-through-index: runtime/queue/fifo.ts → runtime/apimachinery/deep-copy.ts',
    ]);
    expect(RUNTIME_FILE_IMPORTS.map((e) => e.module)).toEqual([
      'apimachinery',
      'queue',
      'metrics',
      'manager',
      'rest',
      'envtest',
    ]);
  });

  it('fail on the bottom of the runtime importing from above it, apimachinery re-exporting only what moved up', async () => {
    expect(
      await violations({
        'runtime/apimachinery/index.ts':
          "export { ApiConnection } from '../rest/index.js';\nexport { Cache } from '../cache/index.js';\n",
        'runtime/rest/index.ts': "import { Cache } from '../cache/index.js';\nexport const ApiConnection = Cache;\n",
        'runtime/cache/index.ts': 'export const Cache = 1;\n',
      }),
    ).toEqual([
      'runtime-apimachinery-reexports: runtime/apimachinery/index.ts → runtime/cache/index.ts',
      'runtime-bottom-rest: runtime/rest/index.ts → runtime/cache/index.ts',
    ]);
  });

  it('fail on the runtime importing an optional module (webhook/), type-only imports too', async () => {
    expect(
      await violations({
        'runtime/manager/types.ts':
          "import type { WebhookServer } from '../webhook/index.js';\nexport type M = WebhookServer;\n",
        'runtime/manager/index.ts': "export type { M } from './types.js';\nexport const setDefault = 1;\n",
        'runtime/webhook/index.ts':
          "import { setDefault } from '../manager/index.js';\nexport class WebhookServer { x = setDefault; }\n",
        'runtime/index.ts': "export * from './manager/index.js';\nexport * from './webhook/index.js';\n",
        'runtime/testing/webhooks.ts':
          "import { WebhookServer } from '../webhook/index.js';\nexport const w = WebhookServer;\n",
      }),
    ).toEqual([
      'no-circular: runtime/manager/index.ts, runtime/manager/types.ts, runtime/webhook/index.ts',
      'runtime-optional-modules: runtime/manager/types.ts → runtime/webhook/index.ts',
    ]);
    expect(OPTIONAL_RUNTIME_MODULES).toEqual(['webhook', 'sharding']);
  });

  it('fail on the runtime importing sharding/ (type-only too): the manager and the builder run it through manager/sharding-engine.ts', async () => {
    expect(
      await violations({
        'runtime/builder/builder.ts':
          "import type { Sharding } from '../sharding/index.js';\nexport type S = Sharding;\n",
        'runtime/sharding/index.ts': 'export class Sharding {}\n',
        'runtime/test-fixtures/gizmo-manager.ts':
          "import { Sharding } from '../sharding/index.js';\nexport const s = Sharding;\n",
      }),
    ).toEqual(['runtime-optional-modules: runtime/builder/builder.ts → runtime/sharding/index.ts']);
  });
});
