import { describe, expect, it } from 'vitest';
import { explainError, tsopChanges } from '../../src/upgrade/explain.js';

const versions = { from: '0.2.0', to: '0.3.0' };
const before = new Map([
  [
    'src/runtime/client/index.ts',
    "export { createClient, legacyGet } from './client.js';\nexport { isNotFound } from './errors.js';\n",
  ],
  [
    'src/controllers/order-controller.ts',
    [
      'export class OrderReconciler {',
      '  /** @deprecated since tsop 0.2.0, removed in 0.3.0: `const { client } = this.wired()`. */',
      '  protected get client(): Client {',
      '    return this.wired().client;',
      '  }',
      '}',
      '',
    ].join('\n'),
  ],
  ['Dockerfile', 'FROM node:24\n'],
]);
const after = new Map([
  [
    'src/runtime/client/index.ts',
    "export { createClient } from './client.js';\nexport { isNotFound } from './errors.js';\n",
  ],
  ['src/controllers/order-controller.ts', ['export class OrderReconciler {', '}', ''].join('\n')],
  ['Dockerfile', 'FROM node:26\n'],
]);

describe('type errors after an update, each with the tsop change behind it', () => {
  const changes = tsopChanges(before, after);

  it('lists the lines each scaffold file lost and gained, TypeScript files only, the runtime first', () => {
    expect(changes.map((c) => c.path)).toEqual(['src/runtime/client/index.ts', 'src/controllers/order-controller.ts']);
    expect(changes[0]).toMatchObject({
      removed: ["export { createClient, legacyGet } from './client.js';"],
      added: ["export { createClient } from './client.js';"],
    });
  });

  it('a member the template removed: the removed declaration, with the note that deprecated it (not a module path that spells the same word)', () => {
    const line = explainError(
      {
        file: 'src/controllers/order-controller.ts',
        line: 40,
        col: 25,
        code: 'TS2339',
        message: "Property 'client' does not exist on type 'OrderReconciler'.",
      },
      changes,
      versions,
    );
    expect(line).toBe(
      "src/controllers/order-controller.ts:40:25: TS2339 Property 'client' does not exist on " +
        "type 'OrderReconciler'. — caused by tsop 0.3.0: src/controllers/order-controller.ts no " +
        'longer has `protected get client(): Client {`; it was deprecated since tsop 0.2.0, ' +
        'removed in 0.3.0: `const { client } = this.wired()`.',
    );
  });

  it('an export the runtime dropped: the runtime file and the line that exported it', () => {
    const line = explainError(
      {
        file: 'src/main.ts',
        line: 3,
        col: 10,
        code: 'TS2305',
        message: "Module '\"./runtime/client/index.js\"' has no exported member 'legacyGet'.",
      },
      changes,
      versions,
    );
    expect(
      line.endsWith(
        " — caused by tsop 0.3.0: src/runtime/client/index.ts no longer has `export { createClient, legacyGet } from './client.js';`",
      ),
    ).toBe(true);
  });

  it("an error no tsop change explains is the project's own", () => {
    const line = explainError(
      { file: 'src/main.ts', line: 9, col: 1, code: 'TS2304', message: "Cannot find name 'frobnicate'." },
      changes,
      versions,
    );
    expect(line).toBe(
      "src/main.ts:9:1: TS2304 Cannot find name 'frobnicate'. — no change between tsop 0.2.0 and 0.3.0 explains it: it is in the project's own code",
    );
  });
});

describe('an import of a runtime file that moved', () => {
  const http = [
    'export class HttpStatusError extends Error {',
    '  private readonly status: number;',
    '}',
    'export async function requestJSON(): Promise<unknown> {',
    '  return undefined;',
    '}',
    '',
  ].join('\n');
  const old = new Map([
    ['src/runtime/apimachinery/http.ts', http],
    ['src/runtime/client/client.ts', 'export class Client {\n  private http: unknown;\n}\n'],
  ]);
  const now = new Map([
    ['src/runtime/rest/http.ts', `${http}// moved\n`],
    ['src/runtime/client/client.ts', 'export class Client {\n  private readonly rest: unknown;\n}\n'],
  ]);
  const error = {
    file: 'src/controllers/order-controller.ts',
    line: 3,
    col: 29,
    code: 'TS2307',
    message: "Cannot find module '../runtime/apimachinery/http.js' or its corresponding type declarations.",
  };

  it('is explained by the move, with the import that works now, not by a private member another file lost', () => {
    expect(explainError(error, tsopChanges(old, now), versions)).toBe(
      "src/controllers/order-controller.ts:3:29: TS2307 Cannot find module '../runtime/apimachinery/http.js' or its corresponding type declarations." +
        ' — caused by tsop 0.3.0: src/runtime/apimachinery/http.ts moved to src/runtime/rest/http.ts; import it from there (../runtime/rest/http.js)',
    );
  });

  it('a removed file with no new home is said to be removed; a module the update did not touch is not blamed on it', () => {
    const gone = new Map([...now].filter(([p]) => p !== 'src/runtime/rest/http.ts'));
    expect(explainError(error, tsopChanges(old, gone), versions)).toMatch(
      / — caused by tsop 0\.3\.0: src\/runtime\/apimachinery\/http\.ts was removed$/,
    );
    const elsewhere = {
      ...error,
      message: "Cannot find module '../lib/http.js' or its corresponding type declarations.",
    };
    expect(explainError(elsewhere, tsopChanges(old, now), versions)).toMatch(
      / — no change between tsop .* explains it/,
    );
  });

  it('a file of the harness that is no longer embedded names the package entry to import from', () => {
    const harness = new Map([['src/runtime/envtest/http.ts', http]]);
    const deep = {
      ...error,
      message: "Cannot find module '../runtime/envtest/http.js' or its corresponding type declarations.",
    };
    expect(explainError(deep, tsopChanges(harness, new Map()), versions)).toMatch(
      new RegExp(
        ' — caused by tsop 0\\.3\\.0: the test harness is no longer embedded \\(src/runtime/envtest/http\\.ts was removed\\); ' +
          "import what it exports from 'tsop/envtest', from tsop, the project's dev dependency$",
      ),
    );
  });

  it('a conflict marker the update left is named as such', () => {
    const marker = { ...error, code: 'TS1185', message: 'Merge conflict marker encountered.' };
    expect(explainError(marker, [], versions)).toMatch(/ — a conflict the update left in this file: resolve it/);
  });
});
