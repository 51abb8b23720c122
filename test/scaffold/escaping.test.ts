/**
 * Input that reaches generated files cannot break them. Each hostile --owner (comment ends,
 * backticks, `${}`, quotes, YAML and markdown syntax) is scaffolded through init, create api and
 * edit; every generated TypeScript file must parse, differ from a plain project's only in its
 * header, and carry the header as one comment; every YAML file must parse and PROJECT must give
 * the owner back unchanged. One project with all of it at once is type-checked with tsc. What
 * cannot be made safe (a newline, other control characters, bidi overrides) and names that would
 * need quoting (--repo, --domain, --project-name) are refused with one line, writing nothing.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runEdit } from '../../src/cli/edit.js';
import { runInit, type InitFlags } from '../../src/cli/init.js';
import { UserError } from '../../src/errors.js';
import { parseProject, tsopSettings } from '../../src/project/config.js';
import { captured, readTree, tempProject } from './harness.js';
import { linkNodeModules } from './node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(TSOP, 'node_modules/typescript/bin/tsc');

const HOSTILE_OWNERS = [
  'Evil */ Corp',
  '*/ export const pwned = 1; /*',
  'Back `tick` Corp',
  '${process.exit(1)} Inc',
  'Double "Quote" LLC',
  "O'Brien & Söhne GmbH",
  'Back\\slash\\ Ltd',
  'Acme # not a YAML comment',
  'key: value',
  '- a list item',
  '[flow, seq] {map: 1}',
  '<script>alert(1)</script>',
  '{{owner}} {{{year}}}',
  '// line comment',
  '🚀 Rocket ☃ Co.',
];

/** A project scaffolded with `owner` through init and create api. */
async function scaffold(name: string, owner: string, flags: InitFlags = {}): Promise<string> {
  const dir = tempProject(name);
  await runInit({ dir, domain: 'example.com', owner, skipInstall: true, ...flags }, captured());
  await runCreateApi({ dir, group: 'cache', version: 'v1', kind: 'Memcached', make: false }, captured());
  return dir;
}

function syntaxErrors(path: string, text: string): string[] {
  const out = ts.transpileModule(text, {
    fileName: path,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2022 },
  });
  return (out.diagnostics ?? []).map((d) => `${path}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

/** Checks every file of `dir` against the plain project `ref` (same layout, owner 'Acme'). */
function expectIntact(dir: string, ref: Record<string, string>, owner: string, { readme = true } = {}): void {
  const files = readTree(dir);
  const header = files['hack/boilerplate.ts.txt']!;
  const refHeader = ref['hack/boilerplate.ts.txt']!;
  expect(Object.keys(files).sort()).toEqual(Object.keys(ref).sort());
  // The header is a single comment: the first comment range ends where the header does.
  const ranges = ts.getLeadingCommentRanges(header, 0) ?? [];
  expect(ranges.map((r) => `${header.slice(r.pos, r.end)}\n`)).toEqual([header]);
  for (const [path, text] of Object.entries(files)) {
    if (path.endsWith('.ts')) {
      expect(syntaxErrors(path, text)).toEqual([]);
      const body = text.startsWith(header) ? text.slice(header.length) : text;
      const refBody = ref[path]!.startsWith(refHeader) ? ref[path]!.slice(refHeader.length) : ref[path]!;
      expect(body, path).toBe(refBody);
    }
    if (path.endsWith('.yaml') || path.endsWith('.yml') || path === 'PROJECT') {
      for (const doc of parseAllDocuments(text)) expect(doc.errors.map((e) => `${path}: ${e.message}`)).toEqual([]);
    }
    if (path.endsWith('.json')) expect(() => JSON.parse(text), path).not.toThrow();
  }
  expect(tsopSettings(parseProject(files['PROJECT']!)).owner).toBe(owner);
  if (readme) expect(files['README.md']).toContain(`Copyright 2026 ${owner}.`);
}

// Each case writes a whole project (about 140 files) three times; allow for a loaded machine.
// Each case writes a whole project (about 140 files) and rewrites its headers twice.
describe('hostile input in generated files', { timeout: 60_000 }, () => {
  let ref: Record<string, string> = {};
  beforeAll(async () => {
    ref = readTree(await scaffold('escape-op', 'Acme'));
  });

  it.each(HOSTILE_OWNERS)('--owner %j keeps every generated file intact (init, create api, edit)', async (owner) => {
    const dir = await scaffold('escape-op', owner);
    expectIntact(dir, ref, owner);
    // edit rewrites the header of every file in place: hostile → plain → hostile.
    // (edit leaves README.md's copyright line alone, so it is not compared.)
    const withoutReadme = ({ 'README.md': _, ...rest }: Record<string, string>): Record<string, string> => rest;
    await runEdit({ dir, owner: 'Acme' }, captured());
    expect(withoutReadme(readTree(dir))).toEqual(withoutReadme(ref));
    await runEdit({ dir, owner }, captured());
    expectIntact(dir, ref, owner, { readme: false });
  });

  it('a project with every hostile owner at once and a hostile directory name type-checks with tsc', async () => {
    const owner = HOSTILE_OWNERS.join(' ');
    const dir = await scaffold('Evil * `${x}` "Corp"', owner, { license: 'none' });
    expect(parseProject(readTree(dir)['PROJECT']!).projectName).toBe('evil-x-corp');
    linkNodeModules(dir);
    const tsc = await execa(process.execPath, [TSC, '-p', 'tsconfig.json', '--noEmit'], {
      cwd: dir,
      all: true,
      reject: false,
    });
    expect(tsc.exitCode, tsc.all).toBe(0);
  }, 180_000); // tsc over the whole project takes 10 s on a quiet machine, much longer on a loaded one

  it.each([
    [
      { owner: 'Evil\nCorp' },
      "--owner: 'Evil\\nCorp' contains a line break (U+000A), which cannot go on the one-line copyright notice; pass the owner as one line of plain text",
    ],
    [
      { owner: 'Evil\r\nCorp' },
      "--owner: 'Evil\\r\\nCorp' contains a line break (U+000D), which cannot go on the one-line copyright notice; pass the owner as one line of plain text",
    ],
    [
      { owner: 'Evil\u2028Corp' },
      "--owner: 'Evil\\u2028Corp' contains a line break (U+2028), which cannot go on the one-line copyright notice; pass the owner as one line of plain text",
    ],
    [
      { owner: 'Tab\tCorp' },
      "--owner: 'Tab\\tCorp' contains a tab (U+0009), which cannot go on the one-line copyright notice; pass the owner as one line of plain text",
    ],
    [
      { owner: 'Bell\u0007Corp' },
      "--owner: 'Bell\\u0007Corp' contains a control character (U+0007), which cannot go on the one-line copyright notice; pass the owner as one line of plain text",
    ],
    [
      { owner: 'Next\u0085Line' },
      "--owner: 'Next\\u0085Line' contains a control character (U+0085), which cannot go on the one-line copyright notice; pass the owner as one line of plain text",
    ],
    [
      { owner: 'Acme \u202eevil' },
      "--owner: 'Acme \\u202eevil' contains a bidirectional text control (U+202E), which cannot go on the one-line copyright notice; pass the owner as one line of plain text",
    ],
    [{ repo: 'evil"name' }, /^--repo: 'evil"name' /],
    [{ repo: '`whoami`' }, /^--repo: '`whoami`' /],
    [{ repo: '${x}' }, /^--repo: '\$\{x\}' /],
    [{ repo: 'a b' }, /^--repo: 'a b' /],
    [{ repo: '@a/b/c' }, /^--repo: '@a\/b\/c' /],
    [{ domain: 'example.com"' }, /^--domain: 'example.com"' /],
    [{ domain: 'a*/b.com' }, /^--domain: 'a\*\/b.com' /],
    [{ projectName: "it's" }, /^--project-name: 'it's' /],
    [{ projectName: 'a`b`' }, /^--project-name: 'a`b`' /],
  ] as [InitFlags, string | RegExp][])('init refuses %j with one line and writes nothing', async (flags, message) => {
    const dir = tempProject('refused');
    const error = await runInit({ dir, skipInstall: true, ...flags }, captured()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    const text = (error as Error).message;
    expect(text).not.toContain('\n');
    if (typeof message === 'string') expect(text).toBe(message);
    else expect(text).toMatch(message);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('edit refuses an owner with a newline and changes nothing', async () => {
    const dir = await scaffold('edit-refused', 'Acme');
    const before = readTree(dir);
    await expect(runEdit({ dir, owner: 'Evil\nCorp' }, captured())).rejects.toThrow(
      /^--owner: 'Evil\\nCorp' contains a line break/,
    );
    expect(readTree(dir)).toEqual(before);
  });
});
