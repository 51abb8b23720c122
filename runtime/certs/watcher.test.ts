import { X509Certificate } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CertificateLoadError,
  CertWatcher,
  selfSignedServingCertificate,
  validatePair,
  type CertificatePair,
} from './index.js';

const dirs: string[] = [];
const watchers: CertWatcher[] = [];
afterEach(() => {
  for (const w of watchers.splice(0)) w.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tsop-certwatcher-'));
  dirs.push(d);
  return d;
}

function pair(cn: string): CertificatePair {
  const c = selfSignedServingCertificate({ commonName: cn });
  return { cert: c.certPem, key: c.keyPem };
}

const cn = (p: CertificatePair): string => new X509Certificate(p.cert).subject;

function writePair(dir: string, p: CertificatePair): void {
  writeFileSync(join(dir, 'tls.crt'), p.cert);
  writeFileSync(join(dir, 'tls.key'), p.key);
}

async function until(what: string, cond: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function watcher(dir: string, errors: Error[] = [], pollIntervalMs?: number): CertWatcher {
  const w = new CertWatcher({
    certPath: join(dir, 'tls.crt'),
    keyPath: join(dir, 'tls.key'),
    onError: (e) => errors.push(e),
    pollIntervalMs,
  });
  watchers.push(w);
  return w;
}

describe('validatePair', () => {
  it('accepts a certificate with its key and names what is wrong otherwise', () => {
    const a = pair('a');
    const b = pair('b');
    expect(() => validatePair(a)).not.toThrow();
    expect(() => validatePair({ cert: a.cert, key: b.key }, 'x')).toThrow(
      new CertificateLoadError('x: the key does not belong to the certificate'),
    );
    expect(() => validatePair({ cert: '', key: a.key })).toThrow(/^certificate: not a PEM certificate/);
    expect(() => validatePair({ cert: a.cert, key: 'junk' })).toThrow(/^certificate: the key is not a PEM private key/);
  });
});

describe('CertWatcher', () => {
  it('loads the pair at start and the new pair when the files are rewritten', async () => {
    const dir = tempDir();
    writePair(dir, pair('one'));
    const w = watcher(dir);
    await w.start();
    expect(cn(w.current())).toBe('CN=one');
    const seen: string[] = [];
    w.onChange((p) => seen.push(cn(p)));
    writePair(dir, pair('two'));
    await until('the reload', () => seen.length > 0);
    expect(seen).toEqual(['CN=two']);
    expect(cn(w.current())).toBe('CN=two');
  });

  it('follows a Secret volume update (the ..data symlink swapped to a new directory)', async () => {
    // kubelet's layout: tls.crt -> ..data/tls.crt, ..data -> ..<timestamp>/
    const dir = tempDir();
    const version = (name: string, p: CertificatePair): void => {
      mkdirSync(join(dir, name));
      writePair(join(dir, name), p);
    };
    version('..v1', pair('v1'));
    symlinkSync('..v1', join(dir, '..data'));
    symlinkSync('..data/tls.crt', join(dir, 'tls.crt'));
    symlinkSync('..data/tls.key', join(dir, 'tls.key'));
    const w = watcher(dir);
    await w.start();
    expect(cn(w.current())).toBe('CN=v1');
    version('..v2', pair('v2'));
    symlinkSync('..v2', join(dir, '..data_tmp'));
    renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
    await until('the reload', () => cn(w.current()) === 'CN=v2');
  });

  it('keeps the last good pair while the files do not load, and reports the problem once', async () => {
    const dir = tempDir();
    const good = pair('good');
    writePair(dir, good);
    const errors: Error[] = [];
    const w = watcher(dir, errors, 50);
    await w.start();
    writeFileSync(join(dir, 'tls.key'), pair('other').key);
    await until('the error', () => errors.length > 0);
    await new Promise((r) => setTimeout(r, 300)); // several polls of the same broken files
    expect(errors.map((e) => e.message)).toEqual([
      `${join(dir, 'tls.crt')} and ${join(dir, 'tls.key')}: the key does not belong to the certificate`,
    ]);
    expect(w.current()).toEqual(good);
  });

  it('notices changes by polling when no change event arrives', async () => {
    const dir = tempDir();
    const first = pair('first');
    writePair(dir, first);
    const w = watcher(dir, [], 50);
    await w.start();
    // Replace the files behind the watcher's back: the directory watch is closed, the timer is not.
    (w as unknown as { fsWatchers: Array<{ close(): void }> }).fsWatchers.forEach((fw) => {
      fw.close();
    });
    writePair(dir, pair('second'));
    await until('the poll', () => cn(w.current()) === 'CN=second');
  });

  it('fails to start with a one-line error naming a missing file', async () => {
    const dir = tempDir();
    const err = await watcher(dir)
      .start()
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(err).toBeInstanceOf(CertificateLoadError);
    expect(err?.message).toBe(`cannot read ${join(dir, 'tls.crt')}: ENOENT`);
  });
});
