import { describe, expect, it } from 'vitest';
import { resolveImportConflicts } from '../../src/upgrade/three-way.js';

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
