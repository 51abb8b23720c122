/**
 * The embedded runtime's CHECKSUMS, which tell `tsop alpha update` whether the user changed
 * src/runtime/: written for every embedded file in sha256sum's format, and checked file by file.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  RUNTIME_CHECKSUMS,
  runtimeChecksums,
  runtimeFiles,
  runtimeUnchanged,
} from '../../src/scaffold/embedded-runtime.js';

const VERSION = 'src/runtime/VERSION';

function embedded(): Map<string, string> {
  const files = new Map<string, string>(runtimeFiles());
  files.set(VERSION, '0.1.0\n');
  files.set(RUNTIME_CHECKSUMS, runtimeChecksums(runtimeFiles()));
  return files;
}

describe('runtime checksums', () => {
  it('lists every embedded file once, as sha256sum -c reads them', () => {
    const lines = runtimeChecksums(runtimeFiles()).trimEnd().split('\n');
    expect(lines).toHaveLength(runtimeFiles().length);
    const [path, content] = runtimeFiles().find(([p]) => p === 'src/runtime/manager/manager.ts')!;
    expect(lines).toContain(
      `${createHash('sha256').update(content).digest('hex')}  ${path.slice('src/runtime/'.length)}`,
    );
  });

  it('says unchanged for the runtime as embedded, whatever VERSION says', () => {
    const files = embedded();
    files.set(VERSION, '9.9.9\n');
    expect(runtimeUnchanged(files)).toBe(true);
  });

  it('says changed for an edited, an added or a deleted file, or a garbled CHECKSUMS', () => {
    const edited = embedded();
    edited.set('src/runtime/manager/manager.ts', `${edited.get('src/runtime/manager/manager.ts')}// mine\n`);
    expect(runtimeUnchanged(edited)).toBe(false);
    const added = embedded();
    added.set('src/runtime/mine.ts', 'export {};\n');
    expect(runtimeUnchanged(added)).toBe(false);
    const deleted = embedded();
    deleted.delete('src/runtime/index.ts');
    expect(runtimeUnchanged(deleted)).toBe(false);
    const garbled = embedded();
    garbled.set(RUNTIME_CHECKSUMS, 'not a checksum\n');
    expect(runtimeUnchanged(garbled)).toBe(false);
  });

  it('does not know without a CHECKSUMS file', () => {
    const files = embedded();
    files.delete(RUNTIME_CHECKSUMS);
    expect(runtimeUnchanged(files)).toBeUndefined();
  });
});
