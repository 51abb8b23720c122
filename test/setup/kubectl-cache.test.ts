import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';

describe('kubectl cache during tests', () => {
  it('points KUBECACHEDIR at an existing temp folder, not ~/.kube/cache', () => {
    const dir = process.env.KUBECACHEDIR;
    expect(dir).toBeDefined();
    expect(dir!.startsWith(tmpdir())).toBe(true);
    expect(existsSync(dir!)).toBe(true);
  });
});
