import { describe, expect, it } from 'vitest';
import {
  chooseArchive,
  compareVersionsDesc,
  parseReleaseIndex,
  parseVersionRequest,
  ReleaseIndexError,
  versionsFor,
} from './release-index.js';

// The shape of controller-tools' envtest-releases.yaml (hashes shortened).
const INDEX = `releases:
  v1.35.0:
    envtest-v1.35.0-linux-amd64.tar.gz:
      hash: aa35
      selfLink: https://example.test/envtest-v1.35.0/envtest-v1.35.0-linux-amd64.tar.gz
  v1.36.0:
    envtest-v1.36.0-linux-amd64.tar.gz:
      hash: AA360
      selfLink: https://example.test/envtest-v1.36.0/envtest-v1.36.0-linux-amd64.tar.gz
    envtest-v1.36.0-darwin-arm64.tar.gz:
      hash: bb360
      selfLink: https://example.test/envtest-v1.36.0/envtest-v1.36.0-darwin-arm64.tar.gz
  v1.36.2:
    envtest-v1.36.2-linux-amd64.tar.gz:
      hash: aa362
      selfLink: https://example.test/envtest-v1.36.2/envtest-v1.36.2-linux-amd64.tar.gz
    README.md:
      hash: x
      selfLink: https://example.test/README.md
  v1.37.0-beta.0:
    envtest-v1.37.0-beta.0-linux-amd64.tar.gz:
      hash: beta
      selfLink: https://example.test/envtest-v1.37.0-beta.0/envtest-v1.37.0-beta.0-linux-amd64.tar.gz
  v1.37.0:
    envtest-v1.37.0-linux-amd64.tar.gz:
      hash: aa370
      selfLink: https://example.test/envtest-v1.37.0/envtest-v1.37.0-linux-amd64.tar.gz
`;
const linux = { os: 'linux', arch: 'amd64' };

describe("setup-envtest's release index", () => {
  const archives = parseReleaseIndex(INDEX, 'index.yaml');

  it('reads every versioned archive with its sha512 (lower case) and link, and skips other names', () => {
    expect(archives).toHaveLength(6);
    expect(archives.find((a) => a.version === '1.36.0' && a.os === 'linux')).toEqual({
      version: '1.36.0',
      os: 'linux',
      arch: 'amd64',
      name: 'envtest-v1.36.0-linux-amd64.tar.gz',
      sha512: 'aa360',
      url: 'https://example.test/envtest-v1.36.0/envtest-v1.36.0-linux-amd64.tar.gz',
    });
    expect(versionsFor(archives, linux)).toEqual(['1.37.0', '1.37.0-beta.0', '1.36.2', '1.36.0', '1.35.0']);
  });

  it('chooses the pinned version, else the newest patch of its minor, when no version is asked for', () => {
    expect(chooseArchive(archives, undefined, linux, '1.36.0')?.version).toBe('1.36.0');
    expect(chooseArchive(archives, undefined, linux, '1.36.3')?.version).toBe('1.36.2');
    expect(chooseArchive(archives, undefined, linux, '1.34.1')).toBeUndefined();
  });

  it('answers exact versions, minors (1.36, 1.36.x, v1.36) and latest, leaving pre-releases out unless named', () => {
    expect(chooseArchive(archives, '1.36.0', linux, '1.36.3')?.version).toBe('1.36.0');
    expect(chooseArchive(archives, 'v1.36.x', linux, '1.36.3')?.version).toBe('1.36.2');
    expect(chooseArchive(archives, '1.37', linux, '1.36.3')?.version).toBe('1.37.0');
    expect(chooseArchive(archives, 'latest', linux, '1.36.3')?.version).toBe('1.37.0');
    expect(chooseArchive(archives, '1.37.0-beta.0', linux, '1.36.3')?.version).toBe('1.37.0-beta.0');
    expect(chooseArchive(archives, '1.36.2', { os: 'darwin', arch: 'arm64' }, '1.36.3')).toBeUndefined();
    expect(parseVersionRequest('one')).toBeUndefined();
  });

  it('orders a release before its pre-releases', () => {
    expect(['1.37.0-beta.0', '1.36.2', '1.37.0', '1.37.0-alpha.2'].sort(compareVersionsDesc)).toEqual([
      '1.37.0',
      '1.37.0-beta.0',
      '1.37.0-alpha.2',
      '1.36.2',
    ]);
  });

  it('refuses what is not an index, naming where it came from', () => {
    expect(() => parseReleaseIndex('<html>Not Found</html>', 'https://mirror.test/x.yaml')).toThrow(ReleaseIndexError);
    expect(() => parseReleaseIndex('releases: [', 'https://mirror.test/x.yaml')).toThrow(
      /https:\/\/mirror\.test\/x\.yaml is not YAML/,
    );
    expect(() => parseReleaseIndex('other: 1', 'https://mirror.test/x.yaml')).toThrow(/has no 'releases' map/);
  });
});
