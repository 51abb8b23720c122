/** The storage-version text edit on a types file: where the marker and its import go, and when it gives up. */
import { describe, expect, it } from 'vitest';
import { hasStorageVersion, markStorageVersion } from '../../src/plugins/base/storage-version.js';

const scaffolded = `import {
  ListMapKey,
  Resource,
  SubresourceStatus,
  type ObjectMeta,
} from '../../runtime/markers/index.js';

export class CronJobSpec {}

/** CronJob is the Schema for the cronjobs API. */
@Resource()
@SubresourceStatus()
export class CronJob {
  metadata?: ObjectMeta;
}
`;

describe('markStorageVersion', () => {
  it('puts @StorageVersion() above @Resource of the kind and the name in the import, in name order', () => {
    expect(markStorageVersion(scaffolded, 'CronJob')).toBe(
      scaffolded
        .replace('  Resource,\n', '  Resource,\n  StorageVersion,\n')
        .replace('@Resource()\n', '@StorageVersion()\n@Resource()\n'),
    );
  });

  it('finds the decorator of the kind class, not of another class in the file, and keeps its indentation', () => {
    const two = `import { Resource } from '../markers/index.js';\n@Resource()\nexport class CronJobList {}\n  @Resource({ scope: 'Cluster' })\nexport class CronJob {}\n`;
    expect(markStorageVersion(two, 'CronJob')).toBe(
      `import { Resource, StorageVersion } from '../markers/index.js';\n@Resource()\nexport class CronJobList {}\n  @StorageVersion()\n  @Resource({ scope: 'Cluster' })\nexport class CronJob {}\n`,
    );
  });

  it('leaves an import that already names it as it is', () => {
    const text = `import { Resource, StorageVersion } from './markers/index.js';\n@Resource()\nexport class A {}\n`;
    expect(markStorageVersion(text, 'A')).toBe(
      `import { Resource, StorageVersion } from './markers/index.js';\n@StorageVersion()\n@Resource()\nexport class A {}\n`,
    );
  });

  it('gives up (undefined) without the kind class, its @Resource or the markers import', () => {
    expect(markStorageVersion(scaffolded, 'Job')).toBeUndefined();
    expect(markStorageVersion(scaffolded.replace('@Resource()\n', ''), 'CronJob')).toBeUndefined();
    expect(markStorageVersion(scaffolded.replace('/markers/index.js', '/other.js'), 'CronJob')).toBeUndefined();
  });

  it('hasStorageVersion sees the decorator', () => {
    expect(hasStorageVersion(scaffolded)).toBe(false);
    expect(hasStorageVersion(markStorageVersion(scaffolded, 'CronJob')!)).toBe(true);
  });
});
