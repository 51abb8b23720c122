/**
 * Helpers for scaffold tests: run commands in-process into a temp dir with captured output and a
 * fixed year, read a generated tree back, and compare it with a golden directory under
 * test/fixtures/scaffold/ (UPDATE_GOLDEN=1 rewrites the golden files instead).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { CommandIO } from '../../src/cli/io.js';
import { TSOP_VERSION } from '../../src/version.js';
import { fileTempRoot } from '../setup/file-temp-roots.js';

export const GOLDEN_ROOT = fileURLToPath(new URL('../fixtures/scaffold/', import.meta.url));
/** 2026-01-01T00:00:00Z: headers say 2026 whenever the tests run. */
process.env['SOURCE_DATE_EPOCH'] = '1767225600';
// Goldens show the published form; tsopDependencySpec's choice is tested on its own.
process.env['TSOP_DEPENDENCY'] = `^${TSOP_VERSION}`;

/** A new project folder under the test file's temp root, which goes when the file's tests end. */
export function tempProject(name: string): string {
  const dir = join(mkdtempSync(join(fileTempRoot('tsop-scaffold-'), 'p-')), name);
  mkdirSync(dir);
  return dir;
}

/**
 * The `@Rbac({ … })` and `@Webhook({ … })` decorators of generated code, which the formatter lays
 * out one property per line, back on one line each, so that a test can name a decorator whole.
 */
export function oneLineDecorators(source: string): string {
  return source.replace(/^@(\w+)\(\{\n((?: {2}.*\n)+?)\}\)$/gm, (_, name: string, body: string) => {
    const properties = body
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.trim().replace(/,$/, ''));
    return `@${name}({ ${properties.join(', ')} })`;
  });
}

export interface Captured extends CommandIO {
  stdout: string;
  stderr: string;
}

export function captured(): Captured {
  const io: Captured = {
    stdout: '',
    stderr: '',
    interactive: false,
    out: (t) => void (io.stdout += t),
    err: (t) => void (io.stderr += t),
  };
  return io;
}

/** Every file under `dir` (POSIX relative path → content), skipping node_modules. */
export function readTree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? posix.join(prefix, e.name) : e.name;
    if (e.isDirectory()) {
      if (e.name !== 'node_modules') Object.assign(out, readTree(dir, rel));
    } else out[rel] = readFileSync(join(dir, rel), 'utf8');
  }
  return out;
}

/** Golden `.ts` files get a `.golden` suffix so tsop's own tsc and vitest leave them alone. */
const goldenName = (p: string): string => (p.endsWith('.ts') ? `${p}.golden` : p);
const fromGoldenName = (p: string): string => p.replace(/\.ts\.golden$/, '.ts');

/**
 * The version-dependent bits replaced (PROJECT's cliVersion, the tsop dependency), so a release
 * does not rewrite every golden file. Versions written into templates (a deprecation's "since
 * tsop 0.2.0") are fixed text and stay.
 */
export function normalise(text: string): string {
  return text
    .split(`cliVersion: ${TSOP_VERSION}`)
    .join('cliVersion: <tsop-version>')
    .split(`"tsop": "^${TSOP_VERSION}"`)
    .join('"tsop": "^<tsop-version>"');
}

/**
 * Compares `files` with the golden directory `name` file by file (names and contents), after
 * `normalise`. Files under `skip` prefixes are left out (the embedded runtime is checked
 * against tsop's runtime/ instead). `update: false` never rewrites the goldens (for output of the
 * built CLI, which may predate the templates being updated).
 */
export function expectGolden(
  name: string,
  files: Record<string, string>,
  skip: readonly string[] = [],
  { update = true } = {},
): void {
  const root = join(GOLDEN_ROOT, name);
  const actual = Object.fromEntries(
    Object.entries(files)
      .filter(([p]) => !skip.some((s) => p.startsWith(s)))
      .map(([p, c]) => [p, normalise(c)]),
  );
  if (update && process.env['UPDATE_GOLDEN'] === '1') {
    rmSync(root, { recursive: true, force: true });
    for (const [p, c] of Object.entries(actual)) {
      mkdirSync(dirname(join(root, p)), { recursive: true });
      writeFileSync(join(root, goldenName(p)), c);
    }
  }
  expect(existsSync(root), `golden directory ${name} missing; run with UPDATE_GOLDEN=1`).toBe(true);
  const golden = Object.fromEntries(Object.entries(readTree(root)).map(([p, c]) => [fromGoldenName(p), c]));
  expect(Object.keys(actual).sort()).toEqual(Object.keys(golden).sort());
  for (const [p, c] of Object.entries(golden)) expect(actual[p], p).toBe(c);
}
