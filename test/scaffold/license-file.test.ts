/**
 * kubebuilder's --license-file on init and edit: the file's one block comment becomes
 * hack/boilerplate.ts.txt and the header of every scaffolded TypeScript file (edit swaps it in
 * wherever the previous header stands, the embedded runtime aside); a file that is not exactly
 * one comment is refused before anything is written.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runEdit } from '../../src/cli/edit.js';
import { runInit } from '../../src/cli/init.js';
import { licenseFileHeader } from '../../src/scaffold/boilerplate.js';
import { captured, readTree, tempProject } from './harness.js';

const ACME = '/*\nCopyright Acme Corp.\nAll rights reserved.\n*/\n';

describe('--license-file', { timeout: 60_000 }, () => {
  it('edit puts the new header on every scaffolded TypeScript file that had the old one', async () => {
    const dir = tempProject('licensed');
    await runInit({ dir, domain: 'example.com', owner: 'First Owner', skipInstall: true }, captured());
    await runCreateApi(
      { dir, group: 'cache', version: 'v1', kind: 'Memcached', resource: true, controller: true, make: false },
      captured(),
    );
    const header = join(dir, '..', 'acme.txt');
    writeFileSync(header, ACME);
    const before = readTree(dir);
    await runEdit({ dir, licenseFile: header }, captured());
    const after = readTree(dir);
    expect(after['hack/boilerplate.ts.txt']).toBe(ACME);
    const ts = Object.keys(after).filter(
      (p) => p.endsWith('.ts') && !p.startsWith('src/runtime/') && !p.startsWith('vitest'),
    );
    expect(ts.length).toBeGreaterThan(5);
    for (const p of ts) {
      expect(after[p]!.startsWith(`${ACME}\n`), p).toBe(true);
      expect(after[p]!.slice(ACME.length + 1), p).toBe(before[p]!.slice(before['hack/boilerplate.ts.txt']!.length + 1));
    }
    // The runtime keeps its own bytes (its CHECKSUMS must still match).
    for (const p of Object.keys(after).filter((q) => q.startsWith('src/runtime/'))) expect(after[p], p).toBe(before[p]);
    // A later create api uses it too.
    await runCreateApi(
      { dir, group: 'cache', version: 'v1', kind: 'Redis', resource: true, controller: true, make: false },
      captured(),
    );
    expect(readTree(dir)['src/controllers/redis-controller.ts']!.startsWith(ACME)).toBe(true);
  });

  it('a file that is not one comment is refused by edit, and nothing changes', async () => {
    const dir = tempProject('refused');
    await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
    const bad = join(dir, '..', 'bad.txt');
    writeFileSync(bad, '/* a */ export const x = 1; /* b */\n');
    const before = readTree(dir);
    await expect(runEdit({ dir, licenseFile: bad }, captured())).rejects.toThrow(
      `--license-file: '${bad}' closes its comment before the end (an inner */), so the rest would be code in every file; remove the inner */`,
    );
    expect(readTree(dir)).toEqual(before);
  });

  it.each([
    ['Copyright Acme', 'is not a block comment'],
    ['// Copyright Acme\n', 'is not a block comment'],
    ['/*/', 'is not a block comment'],
    ['/* one */ /* two */', 'closes its comment before the end'],
    ['/* Acme \u202e */', 'contains a control character (U+202E)'],
    ['/* Acme \u0000 */', 'contains a control character (U+0000)'],
  ])('refuses %j', (content, rule) => {
    expect(() => licenseFileHeader('h.txt', content)).toThrow(`--license-file: 'h.txt' ${rule}`);
  });

  it('keeps tabs and line breaks, normalises CRLF and the trailing blank lines', () => {
    expect(licenseFileHeader('h.txt', '\n/*\r\n\tAcme\r\n*/\r\n\r\n')).toBe('/*\n\tAcme\n*/\n');
    expect(licenseFileHeader('h.txt', '/**/')).toBe('/**/\n');
  });
});
