/**
 * The bottom of the embedded runtime stacks as client-go's packages do (runtime/README.md):
 * apimachinery (the object model, no I/O) ← kubeconfig ← rest ← restmapper. Each of these
 * imports only from the ones below it (rest also takes queue's clock). The one exception is
 * apimachinery/index.ts re-exporting, deprecated, the names that moved up, until tsop 0.3.0.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const RUNTIME = fileURLToPath(new URL('../../runtime/', import.meta.url));

/** Each bottom module → the runtime modules it may import. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  apimachinery: [],
  kubeconfig: ['apimachinery'],
  rest: ['apimachinery', 'kubeconfig', 'queue'],
  restmapper: ['apimachinery', 'kubeconfig', 'rest'],
};

/** The runtime modules a file's relative imports and re-exports reach, with the statement. */
function importsOf(text: string): Array<{ module: string; statement: string }> {
  return [
    ...text.matchAll(
      /(?:^|\n)(?:import|export)\b[^;]*?\bfrom\s+'\.\.\/([\w-]+)\/[^']*';|import\(\s*'\.\.\/([\w-]+)\/[^']*'\s*\)/g,
    ),
  ].map((m) => ({
    module: (m[1] ?? m[2])!,
    statement: m[0].trim(),
  }));
}

/** A re-export whose every specifier carries a @deprecated JSDoc. */
function deprecatedReexport(statement: string): boolean {
  const body = /^export\s+(?:type\s+)?\{([\s\S]*)\}\s*from/.exec(statement)?.[1];
  if (body === undefined) return false;
  const specifiers = body
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split(',')
    .filter((s) => s.trim() !== '');
  return specifiers.length > 0 && (body.match(/@deprecated/g) ?? []).length === specifiers.length;
}

describe('the bottom layers of the runtime', () => {
  for (const [module, allowed] of Object.entries(MAY_IMPORT)) {
    it(`${module}/ imports only from ${allowed.length ? allowed.join(', ') : 'no other module'}`, () => {
      const wrong: string[] = [];
      for (const file of readdirSync(join(RUNTIME, module)).filter(
        (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
      )) {
        for (const { module: target, statement } of importsOf(readFileSync(join(RUNTIME, module, file), 'utf8'))) {
          if (allowed.includes(target)) continue;
          if (module === 'apimachinery' && deprecatedReexport(statement)) continue;
          wrong.push(`runtime/${module}/${file}: ${statement.split('\n')[0]}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }

  it('would report an import that goes up, and a re-export that is not deprecated', () => {
    expect(
      importsOf("import { ApiConnection } from '../rest/index.js';\nimport { x } from './own.js';").map(
        (i) => i.module,
      ),
    ).toEqual(['rest']);
    expect(
      deprecatedReexport("export {\n  /** @deprecated since tsop 0.2.0: y. */\n  a,\n  b,\n} from '../rest/index.js';"),
    ).toBe(false);
    expect(
      deprecatedReexport("export {\n  /** @deprecated since tsop 0.2.0: y. */\n  a,\n} from '../rest/index.js';"),
    ).toBe(true);
  });
});
