import { describe, expect, it } from 'vitest';
import { installFailure } from '../../src/upgrade/scaffold.js';
import { branchPart, lockedSpec, tsopSpec } from '../../src/upgrade/tsop-source.js';

const lock = (resolved: string, version = '0.1.0'): string =>
  JSON.stringify({ lockfileVersion: 3, packages: { '': {}, 'node_modules/tsop': { version, resolved, dev: true } } });

describe('where alpha update gets another tsop version', () => {
  it("a version comes from where the project's lock file says its tsop came from, when it is that version", () => {
    expect(tsopSpec('0.1.0', lock('file:../tsop-0.1.0.tgz'), '/home/u/shop', '/x')).toBe('file:/home/u/tsop-0.1.0.tgz');
    expect(tsopSpec('0.1.0', lock('git+ssh://git@host/tsop.git#0123abc'), '/p', '/x')).toBe(
      'git+ssh://git@host/tsop.git#0123abc',
    );
    expect(tsopSpec('0.1.0', lock('https://registry.npmjs.org/tsop/-/tsop-0.1.0.tgz'), '/p', '/x')).toBe('tsop@0.1.0');
    // Another version in the lock, or none: the registry.
    expect(tsopSpec('0.1.0', lock('file:../tsop-0.2.0.tgz', '0.2.0'), '/p', '/x')).toBe('tsop@0.1.0');
    expect(tsopSpec('v0.1.0', undefined, '/p', '/x')).toBe('tsop@0.1.0');
    expect(lockedSpec('0.1.0', 'not json', '/p')).toBeUndefined();
  });

  it('a tarball, a path or a git ref is used as given, a relative path from where the command runs', () => {
    expect(tsopSpec('file:/x/tsop-0.1.0.tgz', undefined, '/p', '/w')).toBe('file:/x/tsop-0.1.0.tgz');
    expect(tsopSpec('file:../t/tsop-0.1.0.tgz', undefined, '/p', '/w/here')).toBe('file:/w/t/tsop-0.1.0.tgz');
    expect(tsopSpec('../tsop-0.1.0.tgz', undefined, '/p', '/w/here')).toBe('file:/w/tsop-0.1.0.tgz');
    expect(tsopSpec('github:owner/tsop#v0.1.0', undefined, '/p', '/w')).toBe('github:owner/tsop#v0.1.0');
  });

  it('names the update branch with what git accepts, whatever the version text', () => {
    expect(branchPart('0.2.0-rc.1')).toBe('0.2.0-rc.1');
    expect(branchPart('file:/x/tsop-0.1.0.tgz')).toBe('file-x-tsop-0.1.0.tgz');
    expect(branchPart('a..b~^:?*[\\ c.lock')).toBe('a.b-c');
  });

  it("an install that fails is npm's own error in one line, with how to name an unpublished version", () => {
    const e404 = [
      'npm error code E404',
      'npm error 404 Not Found - GET http://127.0.0.1:4873/tsop - no such package available',
      'npm error 404',
      "npm error 404  'tsop@0.1.0' is not in this registry.",
      'npm error A complete log of this run can be found in: /root/.npm/_logs/x.log',
    ].join('\n');
    const line = installFailure('tsop@0.1.0', '0.1.0', e404);
    expect(line).toBe(
      "alpha update: could not install tsop 0.1.0 from tsop@0.1.0 (npm E404: Not Found - GET http://127.0.0.1:4873/tsop - no such package available 'tsop@0.1.0' is not in this registry.); " +
        'if tsop 0.1.0 was installed from a tarball or git rather than a registry, pass it: --from-version file:/path/to/tsop-0.1.0.tgz, or a git ref such as git+https://<tsop repository>.git#v0.1.0',
    );
    expect(
      installFailure('file:/x/t.tgz', 'file:/x/t.tgz', 'npm error code ENOENT\nnpm error enoent no such file'),
    ).toMatch(/\(npm ENOENT: no such file\); check that the tarball, directory or git ref exists and holds tsop$/);
    const notarget = installFailure(
      'tsop@9.9.9',
      '9.9.9',
      'npm error code ETARGET\nnpm error notarget No matching version found for tsop@9.9.9.',
    );
    expect(notarget).toMatch(
      /\(npm ETARGET: No matching version found for tsop@9\.9\.9\.\); if tsop 9\.9\.9 was installed/,
    );
  });
});
