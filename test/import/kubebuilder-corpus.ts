/**
 * Where the kubebuilder project corpus is: real projects kubebuilder's own generators made
 * (scripts/kubebuilder-corpus.sh, which this runs first; it reuses what it made before). Without Go
 * they cannot be had: tests using them fail in CI (CI=true) and are skipped elsewhere, with the
 * reason.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The projects the script makes: the book's tutorials, then kubebuilder's sample projects. */
export const KUBEBUILDER_PROJECTS = [
  'getting-started',
  'cronjob-tutorial',
  'multiversion-tutorial',
  'project-v4',
  'project-v4-multigroup',
  'project-v4-with-plugins',
] as const;

/** The directory holding one folder per project, or why the tests using it are skipped (never in CI). */
export function kubebuilderCorpus(): { dir?: string; skip?: string } {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
  } catch {
    if (process.env['CI'] === 'true' || process.env['CI'] === '1')
      throw new Error(
        'the kubebuilder project corpus needs Go (scripts/kubebuilder-corpus.sh builds kubebuilder from the Go module proxy); CI must have it',
      );
    return {
      skip: 'no Go to generate the kubebuilder projects with; install Go 1.26+ and run bash scripts/kubebuilder-corpus.sh',
    };
  }
  const out = execFileSync('bash', [join(REPO, 'scripts/kubebuilder-corpus.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 30 * 60_000,
  });
  return { dir: out.trim().split('\n').pop()! };
}
