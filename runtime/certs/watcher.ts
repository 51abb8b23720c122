/**
 * CertWatcher: a certificate and key read from files and read again when they change, so a
 * server picks up a rotated certificate (cert-manager renewing a Secret, kubelet swapping the
 * mounted files) without a restart — controller-runtime's certwatcher. The directory is watched
 * (a Secret volume replaces files by renaming a symlink, which a watch on the file would miss)
 * and the files are also compared on a timer, for file systems without change events. A pair
 * that does not load (half written, key not matching) is ignored until the next change; the
 * last good pair stays in use.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A PEM certificate (chain) and its PEM private key. */
export interface CertificatePair {
  cert: string;
  key: string;
}

/** Where a TLS server gets its certificate: now, and whenever it changes. */
export interface CertificateSource {
  current(): CertificatePair;
  /** Calls `listener` with each new pair; returns the unsubscribe function. */
  onChange(listener: (pair: CertificatePair) => void): () => void;
}

/** The certificate or key cannot be used; the message names the file and the problem. */
export class CertificateLoadError extends Error {
  override readonly name = 'CertificateLoadError';
}

/** Checks that `cert` is a certificate and `key` its private key; throws CertificateLoadError. */
export function validatePair(pair: CertificatePair, where = 'certificate'): void {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(pair.cert);
  } catch (err) {
    throw new CertificateLoadError(`${where}: not a PEM certificate (${(err as Error).message})`);
  }
  let matches: boolean;
  try {
    matches = x509.checkPrivateKey(createPrivateKey(pair.key));
  } catch (err) {
    throw new CertificateLoadError(`${where}: the key is not a PEM private key (${(err as Error).message})`);
  }
  if (!matches) throw new CertificateLoadError(`${where}: the key does not belong to the certificate`);
}

/** A fixed pair, e.g. a self-signed certificate generated at start. */
export function staticCertificate(pair: CertificatePair): CertificateSource {
  return { current: () => pair, onChange: () => () => undefined };
}

export interface CertWatcherOptions {
  certPath: string;
  keyPath: string;
  /** Compare the files this often even without change events (default 10 s). */
  pollIntervalMs?: number;
  /** A changed pair that could not be loaded (the previous one stays in use). */
  onError?: (err: Error) => void;
}

export class CertWatcher implements CertificateSource {
  private pair: CertificatePair | undefined;
  private readonly listeners = new Set<(pair: CertificatePair) => void>();
  private readonly fsWatchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private again = false;
  private lastError: string | undefined;

  constructor(private readonly opts: CertWatcherOptions) {}

  /** Reads the pair (throws CertificateLoadError when it cannot be used) and starts watching. */
  async start(): Promise<void> {
    this.pair = await this.read();
    const dirs = new Set([dirname(this.opts.certPath), dirname(this.opts.keyPath)]);
    for (const dir of dirs) {
      try {
        const w = watch(dir, { persistent: false }, () => this.changed());
        w.on('error', () => undefined); // the timer still notices changes
        this.fsWatchers.push(w);
      } catch {
        // No change events here (some network file systems): the timer is enough.
      }
    }
    this.timer = setInterval(() => this.changed(0), this.opts.pollIntervalMs ?? 10_000);
    this.timer.unref();
  }

  stop(): void {
    for (const w of this.fsWatchers.splice(0)) w.close();
    clearInterval(this.timer);
    clearTimeout(this.debounce);
  }

  current(): CertificatePair {
    if (!this.pair) throw new Error('CertWatcher.current() called before start()');
    return this.pair;
  }

  onChange(listener: (pair: CertificatePair) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads the files again after a short pause, so a certificate and key written together load as one. */
  private changed(delayMs = 100): void {
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.reload(), delayMs);
    this.debounce.unref();
  }

  private async reload(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = (async () => {
      try {
        const next = await this.read();
        this.lastError = undefined;
        if (next.cert === this.pair?.cert && next.key === this.pair.key) return;
        this.pair = next;
        for (const l of this.listeners) l(next);
      } catch (err) {
        // Reported once per distinct problem, not on every poll while the files stay broken.
        const message = (err as Error).message;
        if (message !== this.lastError) this.opts.onError?.(err as Error);
        this.lastError = message;
      }
    })();
    await this.reading;
    this.reading = undefined;
    if (this.again) {
      this.again = false;
      await this.reload();
    }
  }

  private async read(): Promise<CertificatePair> {
    const file = async (path: string): Promise<string> => {
      try {
        return await readFile(path, 'utf8');
      } catch (err) {
        throw new CertificateLoadError(
          `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        );
      }
    };
    const cert = await file(this.opts.certPath);
    const key = await file(this.opts.keyPath);
    validatePair({ cert, key }, `${this.opts.certPath} and ${this.opts.keyPath}`);
    return { cert, key };
  }
}
