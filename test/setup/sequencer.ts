/**
 * The order test files start in: vitest's (project groups in turn, failed files first, then the
 * slowest by this machine's own cache of past runs), with one change for a machine that has no
 * such cache, as a fresh CI clone: the files' durations from a CI run (durations.json, seconds)
 * stand in for it. The longest integration files then start first instead of last — a file of
 * five minutes started at the end keeps one worker busy alone while the other idles.
 *
 * Refresh durations.json from a CI log with `node scripts/test-durations.mjs <log>`.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const RECORDED: Readonly<Record<string, number>> = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<string, number>;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const key = (f: TestSpecification): string => `${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`;
    const ms = (f: TestSpecification): number | undefined => {
      const cached = this.ctx.cache.getFileTestResults(key(f));
      if (cached) return cached.failed ? Number.POSITIVE_INFINITY : cached.duration;
      const recorded = RECORDED[key(f)];
      return recorded === undefined ? undefined : recorded * 1000;
    };
    const group = (f: TestSpecification): string => `${f.project.config.sequence.groupOrder}:${f.project.name}`;
    const position = new Map(sorted.map((f, i) => [f, i]));
    // Within a project: known durations longest first, then the rest in vitest's order.
    return [...sorted].sort((a, b) => {
      if (group(a) !== group(b)) return position.get(a)! - position.get(b)!;
      const da = ms(a);
      const db = ms(b);
      if (da !== undefined && db !== undefined && da !== db) return db - da;
      if ((da === undefined) !== (db === undefined)) return da === undefined ? 1 : -1;
      return position.get(a)! - position.get(b)!;
    });
  }
}
