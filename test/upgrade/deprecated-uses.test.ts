/**
 * The deprecated-use scan `tsop manifests` and `tsop dev` warn with: on a project scaffolded by
 * this tsop, code written against tsop 0.1's reconciler (a client passed to the constructor,
 * this.client, this.recorder) is found at its lines; the scaffold's own code and the new forms are
 * not; a deprecated runtime export is found where it is imported, and a name the runtime moved to
 * another module only where it is imported from its old one.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runInit } from '../../src/cli/init.js';
import { runManifests } from '../../src/cli/manifests.js';
import { findDeprecatedUses } from '../../src/project/deprecated-uses.js';
import { movedNames } from '../../runtime/test-fixtures/moved-exports.js';
import { captured, tempProject } from '../scaffold/harness.js';

async function project(): Promise<string> {
  const dir = tempProject('shop');
  await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
  await runCreateApi(
    { dir, group: 'shop', version: 'v1', kind: 'Order', resource: true, controller: true, make: false },
    captured(),
  );
  await runCreateApi(
    {
      dir,
      group: 'shop',
      version: 'v1',
      kind: 'Cart',
      resource: true,
      controller: true,
      make: false,
      plugins: 'deploy-image/v1-alpha',
      image: 'cart:1',
    },
    captured(),
  );
  return dir;
}

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text, `${file} has ${from}`).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

const lineOf = (file: string, needle: string): number =>
  readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(needle)) + 1;

describe('deprecated uses', () => {
  it('finds none in a freshly scaffolded project (default and deploy-image controllers, main.ts, tests)', async () => {
    expect(findDeprecatedUses(await project())).toEqual([]);
  });

  it("finds tsop 0.1's reconciler API at its lines: this.client, this.recorder, a client given to the constructor", async () => {
    const dir = await project();
    const controller = join(dir, 'src/controllers/order-controller.ts');
    edit(
      controller,
      '    // Add your logic here: compare the spec with what exists and create, update or delete.\n',
      '    // Add your logic here: compare the spec with what exists and create, update or ' +
        "delete.\n    const maps = await this.client.list({ apiVersion: 'v1', kind: 'ConfigMap' }, " +
        "{ namespace: req.namespace });\n    this.recorder?.event(order, 'Normal', 'Counted', " +
        "'Count', `${maps.items.length} config maps`);\n",
    );
    const main = join(dir, 'src/main.ts');
    edit(
      main,
      'new OrderReconciler().setupWithManager(mgr);',
      'new OrderReconciler(mgr.client).setupWithManager(mgr);',
    );
    const test = join(dir, 'src/controllers/order-controller.test.ts');
    writeFileSync(
      join(dir, 'src/controllers/order-extra.test.ts'),
      [
        "import { createClient, type Client } from '../runtime/client/index.js';",
        "import { KindRegistry } from '../runtime/apimachinery/index.js';",
        "import { OrderReconciler } from './order-controller.js';",
        'declare const kubeConfig: never;',
        'const client = createClient(kubeConfig);',
        'const typed: Client = client;',
        'export const old = new OrderReconciler(client);',
        'export const oldTyped = new OrderReconciler(typed);',
        'export const current = new OrderReconciler({ client, kinds: new KindRegistry() });',
        'export const none = new OrderReconciler();',
        '',
      ].join('\n'),
    );
    const extra = join(dir, 'src/controllers/order-extra.test.ts');
    const uses = findDeprecatedUses(dir);
    expect(uses.map((u) => `${u.file}:${u.line}`)).toEqual([
      `src/controllers/order-controller.ts:${lineOf(controller, 'await this.client.list')}`,
      `src/controllers/order-controller.ts:${lineOf(controller, 'this.recorder?.event')}`,
      `src/controllers/order-extra.test.ts:${lineOf(extra, 'const old =')}`,
      `src/controllers/order-extra.test.ts:${lineOf(extra, 'const oldTyped =')}`,
      `src/main.ts:${lineOf(main, 'new OrderReconciler(mgr.client)')}`,
    ]);
    expect(uses[0]!.message).toBe(
      'this.client is deprecated since tsop 0.2.0, removed in 0.3.0: `const { client } = this.wired()`.',
    );
    expect(uses[4]!.message).toBe(
      'new OrderReconciler(mgr.client) is deprecated since tsop 0.2.0, removed in 0.3.0: pass `{ client, kinds }`, or nothing and call setupWithManager(mgr).',
    );
    expect(readFileSync(test, 'utf8')).not.toContain('new OrderReconciler(client)');
  });

  it('tsop manifests warns with each use at its file:line and still generates', async () => {
    const dir = await project();
    const main = join(dir, 'src/main.ts');
    edit(
      main,
      'new OrderReconciler().setupWithManager(mgr);',
      'new OrderReconciler(mgr.client).setupWithManager(mgr);',
    );
    const err: string[] = [];
    await runManifests({ dir }, { out: () => undefined, err: (t) => void err.push(t) });
    expect(err.join('')).toContain(
      `tsop: warning: src/main.ts:${lineOf(main, 'new OrderReconciler(mgr.client)')}: new ` +
        `OrderReconciler(mgr.client) is deprecated since tsop 0.2.0, removed in 0.3.0: pass \`{ ` +
        `client, kinds }\`, or nothing and call setupWithManager(mgr).\n`,
    );
    expect(readFileSync(join(dir, 'config/crd/bases/shop.example.com_orders.yaml'), 'utf8')).toContain(
      'kind: CustomResourceDefinition',
    );
  }, 30_000);

  it('finds a deprecated runtime export where a project file imports it', async () => {
    const dir = await project();
    mkdirSync(join(dir, 'src/runtime/legacy'), { recursive: true });
    writeFileSync(
      join(dir, 'src/runtime/legacy/index.ts'),
      '/** @deprecated since tsop 0.2.0, removed in 0.3.0: use newThing. */\nexport function oldThing(): void {}\nexport function newThing(): void {}\n',
    );
    writeFileSync(
      join(dir, 'src/uses.ts'),
      "import { newThing, oldThing as legacy } from './runtime/legacy/index.js';\nlegacy();\nnewThing();\n",
    );
    expect(findDeprecatedUses(dir)).toEqual([
      {
        file: 'src/uses.ts',
        line: 1,
        message: 'oldThing (from the runtime) is deprecated since tsop 0.2.0, removed in 0.3.0: use newThing.',
      },
    ]);
  });

  it("finds each name moved out of the runtime's apimachinery where it is imported from there, and not from its new module", async () => {
    const dir = await project();
    const moved = movedNames();
    const specifiers = moved.map((n) => `${n.type ? 'type ' : ''}${n.name}`).join(', ');
    writeFileSync(
      join(dir, 'src/controllers/old-paths.ts'),
      [
        "import { deploymentKind, KindRegistry, type KubeObject } from '../runtime/apimachinery/index.js';",
        `import {\n  ${specifiers},\n} from '../runtime/apimachinery/index.js';`,
        "import { loadKubeConfig, type KubeConfigSource } from '../runtime/kubeconfig/index.js';",
        'import { requestJSON, ApiConnection } from "../runtime/rest/index.js";',
        "import { RESTMapper, NoKindMatchError } from '../runtime/index.js';",
        '',
      ].join('\n'),
    );
    const uses = findDeprecatedUses(dir);
    expect(uses.map((u) => `${u.file}:${u.line}`)).toEqual(moved.map(() => 'src/controllers/old-paths.ts:2'));
    expect(uses.map((u) => u.message)).toEqual(
      moved.map(
        (n) =>
          `${n.name} (from the runtime) is deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/${n.module}/index.js.`,
      ),
    );
  });
});
