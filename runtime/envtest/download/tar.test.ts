import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ArchiveError, extractTarGz } from './tar.js';

const scratch = mkdtempSync(join(tmpdir(), 'tsop-tar-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A tree like controller-tools' envtest archive, with a deep folder and a link, packed by the system's tar. */
function archive(format: 'gnu' | 'pax' | 'ustar'): string {
  const root = mkdtempSync(join(scratch, `${format}-`));
  const deep = join(
    root,
    'tree',
    'controller-tools',
    'envtest',
    'a-folder-name-long-enough-to-need-more-than-the-hundred-bytes-of-a-plain-header',
    'and-one-more-level',
  );
  mkdirSync(deep, { recursive: true });
  writeFileSync(join(root, 'tree', 'controller-tools', 'envtest', 'etcd'), 'etcd binary\n', { mode: 0o555 });
  writeFileSync(join(root, 'tree', 'controller-tools', 'envtest', 'kube-apiserver'), Buffer.alloc(70_000, 7), {
    mode: 0o555,
  });
  writeFileSync(join(deep, 'kubectl'), 'kubectl at depth\n');
  writeFileSync(join(root, 'tree', 'controller-tools', 'envtest', 'README'), 'not wanted\n');
  symlinkSync('etcd', join(root, 'tree', 'controller-tools', 'envtest', 'kube-scheduler'));
  const file = join(root, 'envtest.tar.gz');
  execFileSync('tar', [`--format=${format}`, '-C', join(root, 'tree'), '-czf', file, 'controller-tools']);
  return file;
}

const wanted = (n: string): boolean => ['etcd', 'kube-apiserver', 'kubectl', 'kube-scheduler'].includes(n);

describe('reading envtest archives', () => {
  for (const format of ['gnu', 'pax', 'ustar'] as const) {
    it(`writes the wanted regular files of a ${format} archive under their base names, executable; links and other files stay out`, async () => {
      const out = mkdtempSync(join(scratch, 'out-'));
      const names = await extractTarGz(archive(format), out, wanted);
      expect(names.sort()).toEqual(['etcd', 'kube-apiserver', 'kubectl']);
      expect(readdirSync(out).sort()).toEqual(['etcd', 'kube-apiserver', 'kubectl']);
      expect(readFileSync(join(out, 'kubectl'), 'utf8')).toBe('kubectl at depth\n');
      expect(readFileSync(join(out, 'kube-apiserver')).equals(Buffer.alloc(70_000, 7))).toBe(true);
      expect(statSync(join(out, 'etcd')).mode & 0o100).toBe(0o100);
    });
  }

  it('keeps every entry inside the target folder, whatever its path says', async () => {
    const root = mkdtempSync(join(scratch, 'escape-'));
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    writeFileSync(join(root, 'etcd'), 'outside\n');
    const file = join(root, 'evil.tar.gz');
    // GNU tar keeps a leading ../ with -P; the reader must not follow it.
    execFileSync('tar', ['-C', join(root, 'a', 'b'), '-P', '-czf', file, '../../etcd']);
    const out = join(root, 'a', 'out');
    mkdirSync(out);
    expect(await extractTarGz(file, out, wanted)).toEqual(['etcd']);
    expect(readdirSync(out)).toEqual(['etcd']);
    expect(statSync(join(root, 'etcd')).size).toBe('outside\n'.length);
  });

  it('fails with an ArchiveError on a file that is not gzip, or a gzip cut short', async () => {
    const notGzip = join(scratch, 'not.tar.gz');
    writeFileSync(notGzip, '<html>Not Found</html>');
    await expect(extractTarGz(notGzip, mkdtempSync(join(scratch, 'out-')), wanted)).rejects.toThrow(ArchiveError);
    const cut = archive('gnu');
    truncateSync(cut, Math.floor(statSync(cut).size / 2));
    await expect(extractTarGz(cut, mkdtempSync(join(scratch, 'out-')), wanted)).rejects.toThrow(ArchiveError);
  });
});
