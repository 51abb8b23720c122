/**
 * sameShapes: two versions' types files declare the same types (the spoke's converter may copy)
 * whatever their comments, decorators, imports and layout; a field's type, optionality or name,
 * or a declaration more or less, makes them differ.
 */
import { describe, expect, it } from 'vitest';
import { sameShapes } from '../../src/plugins/base/conversion-shape.js';

const v1 = `import { Minimum, Resource, type int32 } from '../../runtime/markers/index.js';
/** The spec. */
export class CronJobSpec {
  @Minimum(0)
  replicas?: int32;
  schedule!: string;
}
export type Policy = 'Allow' | 'Forbid';
@Resource()
export class CronJob {
  spec!: CronJobSpec;
}
export const cronJobKind = { version: 'v1' };
`;

describe('sameShapes', () => {
  it('ignores comments, decorators, imports, layout and values', () => {
    const v2 = `import { Hub, Resource, StorageVersion, type int32 } from '../../runtime/markers/index.js';
export class CronJobSpec {
  /** How many. */
  replicas?:   int32;
  schedule!: string;
}
export type Policy = 'Allow' |
  'Forbid';
@Hub()
@StorageVersion()
@Resource()
export class CronJob {
  spec!: CronJobSpec;
}
export const cronJobKind = { version: 'v2' };
`;
    expect(sameShapes(v1, v2)).toBe(true);
  });

  it("tells a field's type, optionality or name, and a declaration more, apart", () => {
    expect(sameShapes(v1, v1.replace('schedule!: string', 'schedule!: CronJobSchedule'))).toBe(false);
    expect(sameShapes(v1, v1.replace('replicas?: int32', 'replicas!: int32'))).toBe(false);
    expect(sameShapes(v1, v1.replace('replicas?', 'size?'))).toBe(false);
    expect(sameShapes(v1, `${v1}export class CronJobSchedule {\n  hour?: string;\n}\n`)).toBe(false);
    expect(sameShapes(v1, v1.replace("'Allow' | 'Forbid'", "'Allow'"))).toBe(false);
  });
});
