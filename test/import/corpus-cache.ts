/**
 * Where the import corpus is (test/import/corpus.txt: Go modules with CRD files): the Go module
 * cache, filled by scripts/import-corpus.sh, which this runs first (it downloads only what is
 * missing). Without Go the corpus cannot be had: tests using it fail in CI (CI=true) and are
 * skipped elsewhere, with the reason.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface CorpusEntry {
  /** `module@version`. */
  module: string;
  /** A path in the module; `*` in its file name stands for any text, `[a-u]` for one of those letters. */
  pattern: string;
}

export function corpusEntries(): CorpusEntry[] {
  return readFileSync(join(REPO, 'test/import/corpus.txt'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const [module = '', pattern = ''] = l.split(/\s+/);
      return { module, pattern };
    });
}

/** The module cache with the corpus in it, or why the tests using it are skipped (never in CI). */
export function corpusCache(): { cache?: string; skip?: string } {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
  } catch {
    if (process.env['CI'] === 'true' || process.env['CI'] === '1')
      throw new Error(
        'the import corpus needs Go (scripts/import-corpus.sh downloads it from the Go module proxy); CI must have it',
      );
    return { skip: 'no Go to download the import corpus with; install Go 1.26+ and run bash scripts/import-corpus.sh' };
  }
  const out = execFileSync('bash', [join(REPO, 'scripts/import-corpus.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 15 * 60_000,
  });
  return { cache: out.trim().split('\n').pop()! };
}

/** A module's directory in the cache (upper-case letters are kept as '!' and the lower-case one). */
export function moduleDir(cache: string, module: string): string {
  const [path = '', version = ''] = module.split('@');
  return join(cache, `${path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`)}@${version}`);
}
