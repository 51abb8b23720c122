/**
 * `dataDir`: etcd's data outlives the control plane. Objects created on one plane are read back
 * on the next one started on the same folder; stop() removes the temporary directory but keeps
 * the data dir; a folder held by a running etcd, or a file, is refused in one line.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { skipReason } from '../testing/control-plane.js';
import { ControlPlaneOptionsError, startControlPlane } from './index.js';

const root = mkdtempSync(join(tmpdir(), 'tsop-data-dir-test-'));
// Not created beforehand: the harness makes it.
const dataDir = join(root, 'kept', 'dev');

describe.skipIf(skipReason() !== undefined)('control plane with a dataDir', () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('keeps etcd data across a stop and a new start; the temp dir goes, the data dir stays', async () => {
    const first = await startControlPlane({ dataDir });
    const firstTemp = dirname(first.kubeconfigPath);
    try {
      const core = first.kubeConfig.makeApiClient(CoreV1Api);
      await core.createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata: { name: 'kept' }, data: { answer: '42' } },
      });
      // A second plane on the same folder while the first runs would wait on etcd's lock: refused.
      await expect(startControlPlane({ dataDir })).rejects.toThrow(ControlPlaneOptionsError);
      await expect(startControlPlane({ dataDir })).rejects.toThrow(
        /^dataDir: .* is in use by a running etcd \(pid \d+\); stop that control plane first/,
      );
    } finally {
      await first.stop();
    }
    expect(existsSync(firstTemp)).toBe(false);
    expect(readdirSync(join(dataDir, 'etcd'))).toContain('member');

    const second = await startControlPlane({ dataDir });
    const secondTemp = dirname(second.kubeconfigPath);
    try {
      expect(secondTemp).not.toBe(firstTemp);
      const core = second.kubeConfig.makeApiClient(CoreV1Api);
      const read = await core.readNamespacedConfigMap({ namespace: 'default', name: 'kept' });
      expect(read.data).toEqual({ answer: '42' });
    } finally {
      await second.stop();
    }
    expect(existsSync(secondTemp)).toBe(false);
    expect(existsSync(join(dataDir, 'etcd', 'member'))).toBe(true);
  }, 120_000);

  it('a dataDir that is a file is refused before anything starts', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, '');
    await expect(startControlPlane({ dataDir: file })).rejects.toThrow(
      /^dataDir: .*a-file is not a directory; pass a folder/,
    );
  });
});
