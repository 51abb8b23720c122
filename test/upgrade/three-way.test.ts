import { describe, expect, it } from 'vitest';
import { alignAncestor, resolveImportConflicts } from '../../src/upgrade/three-way.js';

describe('conflicts that only add imports', () => {
  it("keep both sides' imports, each once, and are no conflict", () => {
    const text = [
      '<<<<<<< order-controller.ts (yours)',
      "import { configMapKind } from '../runtime/apimachinery/index.js';",
      "import { controllerFor } from '../runtime/builder/index.js';",
      '=======',
      "import { KindRegistry } from '../runtime/apimachinery/index.js';",
      "import { controllerFor } from '../runtime/builder/index.js';",
      '>>>>>>> order-controller.ts (tsop 0.2.0)',
      'export class X {}',
      '',
    ].join('\n');
    expect(resolveImportConflicts({ text, conflicts: true })).toEqual({
      text: [
        "import { configMapKind } from '../runtime/apimachinery/index.js';",
        "import { controllerFor } from '../runtime/builder/index.js';",
        "import { KindRegistry } from '../runtime/apimachinery/index.js';",
        'export class X {}',
        '',
      ].join('\n'),
      conflicts: false,
    });
  });

  it('keep an import once in the file when one side has it outside the conflict (the same imports in another order)', () => {
    const invoice = "import { InvoiceReconciler } from './controllers/billing/invoice-controller.js';";
    const webhook = "import { setupOrderWebhookWithManager } from './webhooks/shop/v1/order-webhook.js';";
    const server = "import { webhookServerFromFlags } from './runtime/webhook/index.js';";
    // git merge-file's answer when the user's branch has the webhook's import before the kind's
    // and the new template has them the other way round, with an import between them.
    const text = [
      '<<<<<<< main.ts (yours)',
      '=======',
      invoice,
      server,
      '>>>>>>> main.ts (tsop 0.3.0)',
      webhook,
      invoice,
      '',
    ].join('\n');
    expect(resolveImportConflicts({ text, conflicts: true })).toEqual({
      text: [server, webhook, invoice, ''].join('\n'),
      conflicts: false,
    });
  });

  it('leave any other conflict with its markers', () => {
    const code = [
      '<<<<<<< a (yours)',
      "import { a } from './a.js';",
      'const x = 1;',
      '=======',
      "import { b } from './b.js';",
      '>>>>>>> a (tsop 0.2.0)',
      '',
    ].join('\n');
    expect(resolveImportConflicts({ text: code, conflicts: true })).toEqual({ text: code, conflicts: true });
    const mixed = `${['<<<<<<< a (yours)', "import { a } from './a.js';", '=======', "import { b } from './b.js';", '>>>>>>> a (tsop 0.2.0)'].join('\n')}\n${code}`;
    const out = resolveImportConflicts({ text: mixed, conflicts: true });
    expect(out.conflicts).toBe(true);
    expect(out.text.startsWith("import { a } from './a.js';\nimport { b } from './b.js';\n<<<<<<< a (yours)")).toBe(
      true,
    );
  });
});

describe('the old scaffold, aligned with where the project has its files', () => {
  it("moves a file the old tsop put elsewhere (a kind under its group's folder) to the place the project and the new scaffold share", () => {
    const ancestor = new Map([
      ['src/api/shop/v1/order.ts', 'old order'],
      ['src/controllers/shop/order-controller.ts', 'old controller'],
      ['src/runtime/rest/http.ts', 'runtime'],
      ['src/main.ts', 'old main'],
    ]);
    const ours = new Map([
      ['src/api/v1/order.ts', 'new order'],
      ['src/controllers/order-controller.ts', 'new controller'],
      ['src/runtime/apimachinery/http.ts', 'shim'],
      ['src/main.ts', 'new main'],
    ]);
    const project = new Set(['src/api/v1/order.ts', 'src/controllers/order-controller.ts', 'src/main.ts']);
    expect(alignAncestor(ancestor, ours, (p) => project.has(p))).toEqual(
      new Map([
        ['src/runtime/rest/http.ts', 'runtime'],
        ['src/main.ts', 'old main'],
        ['src/api/v1/order.ts', 'old order'],
        ['src/controllers/order-controller.ts', 'old controller'],
      ]),
    );
    // Where the project has no such file, or the old tsop's place is the project's, nothing moves.
    expect(alignAncestor(ancestor, ours, () => false)).toEqual(ancestor);
  });
});
