/** The start order of test files: recorded durations stand in for vitest's cache, within each project. */
import type { TestSpecification, Vitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import LongestFirst from './sequencer.js';

const ROOT = '/repo';
const spec = (project: string, groupOrder: number, file: string) =>
  ({ project: { name: project, config: { sequence: { groupOrder }, isolate: true } }, moduleId: `${ROOT}/${file}` }) as unknown as TestSpecification;
const sequencer = (cached: Record<string, { duration: number; failed: boolean }>) =>
  new LongestFirst({ config: { root: ROOT }, cache: { getFileTestResults: (k: string) => cached[k], getFileStats: () => undefined } } as unknown as Vitest);
const names = (files: TestSpecification[]) => files.map((f) => `${f.project.name}:${f.moduleId.slice(ROOT.length + 1)}`);

describe('LongestFirst', () => {
  const files = [
    spec('integration', 2, 'test/small.int.test.ts'),
    spec('integration', 2, 'test/docs/tutorial.int.test.ts'),
    spec('unit', 0, 'test/a.test.ts'),
    spec('integration', 2, 'test/e2e/package.int.test.ts'),
  ];

  it('starts the recorded slowest files of a project first when vitest has no cache, and keeps the projects in their order', async () => {
    expect(names(await sequencer({}).sort(files))).toEqual([
      'unit:test/a.test.ts',
      'integration:test/docs/tutorial.int.test.ts',
      'integration:test/e2e/package.int.test.ts',
      'integration:test/small.int.test.ts',
    ]);
  });

  it('prefers this machine\'s own cache, failed files first', async () => {
    const cached = {
      'integration:test/small.int.test.ts': { duration: 900_000, failed: false },
      'integration:test/e2e/package.int.test.ts': { duration: 1, failed: true },
    };
    expect(names(await sequencer(cached).sort(files)).slice(1)).toEqual([
      'integration:test/e2e/package.int.test.ts',
      'integration:test/small.int.test.ts',
      'integration:test/docs/tutorial.int.test.ts',
    ]);
  });
});
