import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipReason } from './control-plane.js';

describe('when control-plane suites are skipped', () => {
  const empty = mkdtempSync(join(tmpdir(), 'no-assets-'));
  const noGo = { PATH: '/nonexistent', KUBEBUILDER_ASSETS: empty };

  it('skips, saying how to get the binaries, only without binaries and without Go', () => {
    expect(skipReason({}, noGo)).toMatch(/install Go and run `bash scripts\/control-plane\.sh`, or set KUBEBUILDER_ASSETS/);
  });

  it('never skips in CI: the suite fails there instead', () => {
    expect(skipReason({}, { ...noGo, CI: 'true' })).toBeUndefined();
  });

  it('never skips where Go can build the binaries', () => {
    const bin = mkdtempSync(join(tmpdir(), 'fake-go-'));
    writeFileSync(join(bin, 'go'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    expect(skipReason({}, { PATH: bin, KUBEBUILDER_ASSETS: empty })).toBeUndefined();
  });
});
