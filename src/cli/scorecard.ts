/**
 * `tsop scorecard [bundle]` (operator-sdk's command and flags): the bundle's scorecard tests on
 * an embedded control plane, in operator-sdk's text or JSON output; exit 1 when a test fails.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { scorecard, testListJson, testText, type PlaneStarter } from '../olm/scorecard/run.js';
import { stdio, type CommandIO } from './io.js';
import { checkFlags, type FlagsOf } from '../flag.js';
import { SCORECARD_FLAGS } from '../olm/flags.js';

export type ScorecardFlags = FlagsOf<typeof SCORECARD_FLAGS>;

/** `startPlane` defaults to the embedded control plane; tests pass a plane of their own. */
export async function runScorecard(
  bundle: string | undefined,
  given: ScorecardFlags,
  io: CommandIO = stdio,
  startPlane?: PlaneStarter,
  namespace?: string,
): Promise<void> {
  const flags = checkFlags(SCORECARD_FLAGS, given);
  const output = flags.output ?? 'text';
  const wait = Number(flags.waitTime ?? '30');
  const dir = resolve(bundle ?? 'bundle');
  const root = projectRootOf(dir);
  const { items, passed } = await scorecard(dir, {
    ...(flags.config !== undefined ? { configPath: resolve(flags.config) } : {}),
    ...(flags.selector !== undefined ? { selector: flags.selector } : {}),
    ...(flags.list ? { list: true } : {}),
    waitMs: wait * 1000,
    startPlane:
      startPlane ?? (async () => (await import('../verify/plane.js')).startPlane(root, process.env, 'scorecard')),
    ...(namespace !== undefined ? { namespace } : {}),
  });
  if (output === 'json') io.out(testListJson(items));
  else io.out(items.length === 0 ? '0 tests selected\n' : items.map((i) => `${testText(i)}\n`).join(''));
  if (!passed) {
    const failed = items.flatMap((i) => (i.status.results ?? []).filter((r) => r.state !== 'pass').map((r) => r.name));
    throw new UserError(
      `scorecard: ${failed.length} test${failed.length === 1 ? '' : 's'} did not pass: ${failed.join(', ')}`,
    );
  }
}

/** The project holding the bundle (for the harness's packages): the nearest folder with package.json. */
function projectRootOf(dir: string): string {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json'))) return d;
    if (dirname(d) === d) return process.cwd();
  }
}
