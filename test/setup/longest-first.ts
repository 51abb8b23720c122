/**
 * Starts the longest test files first (longest-processing-time scheduling), so that two workers
 * finish together instead of one running the tutorial alone for minutes at the end.
 *
 * A file's expected time is vitest's own record of its last run on this machine when there is
 * one, else the figure in durations.json (a fresh-clone CI run has no record of its own), else a
 * default for files never timed. Groups (sequence.groupOrder) keep their order; within one, the
 * files of all its projects are ordered together.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';

const recorded: Record<string, number> = (
  JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as { seconds: Record<string, number> }
).seconds;

/** What a file never timed is assumed to take: most integration files take a few seconds. */
const UNTIMED_MS = 5_000;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byVitest = await super.sort(files);
    const expected = (spec: TestSpecification): number => {
      const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
      const own = this.ctx.cache.getFileTestResults(key);
      if (own && !own.failed) return own.duration;
      const seconds = recorded[key];
      return seconds === undefined ? UNTIMED_MS : seconds * 1000;
    };
    return [...byVitest].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      return group !== 0 ? group : expected(b) - expected(a);
    });
  }
}
