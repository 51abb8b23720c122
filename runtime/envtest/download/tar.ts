/**
 * Reads a .tar.gz as setup-envtest does: every regular file is written to one directory under
 * its base name (the archive's folders, `controller-tools/envtest/`, carry no meaning), so no
 * entry can write outside it. Handles ustar names with a prefix, GNU long names and pax path
 * records; links and devices are skipped.
 */
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

/** The archive is not a tar.gz we can read. */
export class ArchiveError extends Error {
  override readonly name = 'ArchiveError';
}

const BLOCK = 512;

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? length : end).toString('utf8');
}

function octal(header: Buffer, start: number, length: number): number {
  // GNU base-256 for sizes past 8 GiB: the high bit of the first byte is set.
  if ((header[start] ?? 0) & 0x80) {
    let n = 0;
    for (let i = start + 1; i < start + length; i++) n = n * 256 + (header[i] ?? 0);
    return n;
  }
  const text = field(header, start, length).trim();
  return text === '' ? 0 : parseInt(text, 8);
}

function checksumOk(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (header[i] ?? 0);
  return sum === octal(header, 148, 8);
}

/** pax extended header records: `<length> <key>=<value>\n`. */
function paxPath(data: Buffer): string | undefined {
  let rest = data.toString('utf8');
  while (rest.length > 0) {
    const space = rest.indexOf(' ');
    const length = Number(rest.slice(0, space));
    if (!Number.isFinite(length) || length <= 0) return undefined;
    const record = rest.slice(space + 1, length - 1);
    if (record.startsWith('path=')) return record.slice(5);
    rest = rest.slice(length);
  }
  return undefined;
}

type Entry =
  | { kind: 'file'; name: string; fd: number | undefined }
  | { kind: 'meta'; type: string; chunks: Buffer[] }
  | { kind: 'skip' };

class TarWriter extends Writable {
  readonly written: string[] = [];
  private pending = Buffer.alloc(0);
  private entry: Entry | undefined;
  private remaining = 0;
  private padding = 0;
  private longName: string | undefined;
  private ended = false;

  constructor(
    private readonly dir: string,
    private readonly wanted: (name: string) => boolean,
  ) {
    super();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (error?: Error | null) => void): void {
    try {
      this.take(chunk);
      done();
    } catch (error) {
      done(error as Error);
    }
  }

  override _final(done: (error?: Error | null) => void): void {
    this.closeFile();
    done(this.ended || this.entry === undefined ? null : new ArchiveError('the archive ends in the middle of a file'));
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.closeFile();
    done(error);
  }

  private take(chunk: Buffer): void {
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (data.length > 0 && !this.ended) {
      if (this.entry && this.remaining > 0) {
        const part = data.subarray(0, Math.min(this.remaining, data.length));
        this.body(part);
        this.remaining -= part.length;
        data = data.subarray(part.length);
        if (this.remaining === 0) this.endEntry();
        continue;
      }
      if (this.padding > 0) {
        const skip = Math.min(this.padding, data.length);
        this.padding -= skip;
        data = data.subarray(skip);
        continue;
      }
      if (data.length < BLOCK) {
        this.pending = Buffer.from(data);
        return;
      }
      this.header(data.subarray(0, BLOCK));
      data = data.subarray(BLOCK);
    }
  }

  private header(block: Buffer): void {
    if (block.every((b) => b === 0)) {
      this.ended = true; // the first of the two zero blocks that end an archive
      return;
    }
    if (!checksumOk(block))
      throw new ArchiveError('a tar header has a wrong checksum (not a tar archive, or a damaged one)');
    const size = octal(block, 124, 12);
    const type = String.fromCharCode(block[156] ?? 0);
    const prefix = field(block, 257, 6).startsWith('ustar') ? field(block, 345, 155) : '';
    const name = this.longName ?? (prefix ? `${prefix}/${field(block, 0, 100)}` : field(block, 0, 100));
    this.remaining = size;
    this.padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if (type === 'x' || type === 'L') {
      this.entry = { kind: 'meta', type, chunks: [] };
    } else {
      this.longName = undefined;
      const file = basename(name);
      const regular = type === '0' || type === '\0' || type === '7';
      this.entry =
        regular && file !== '' && this.wanted(file)
          ? { kind: 'file', name: file, fd: openSync(join(this.dir, file), 'w', 0o755) }
          : { kind: 'skip' };
    }
    if (size === 0) this.endEntry();
  }

  private body(part: Buffer): void {
    const e = this.entry;
    if (e?.kind === 'file' && e.fd !== undefined) writeSync(e.fd, part);
    else if (e?.kind === 'meta') e.chunks.push(Buffer.from(part));
  }

  private endEntry(): void {
    const e = this.entry;
    if (e?.kind === 'meta') {
      const data = Buffer.concat(e.chunks);
      this.longName = e.type === 'L' ? data.toString('utf8').replace(/\0+$/, '') : paxPath(data);
    }
    if (e?.kind === 'file') this.written.push(e.name);
    this.closeFile();
    this.entry = undefined;
  }

  private closeFile(): void {
    if (this.entry?.kind === 'file' && this.entry.fd !== undefined) {
      closeSync(this.entry.fd);
      this.entry.fd = undefined;
    }
  }
}

/** Extracts the regular files `wanted` accepts (by base name) from `archive` into `dir`; returns their names. */
export async function extractTarGz(archive: string, dir: string, wanted: (name: string) => boolean): Promise<string[]> {
  const writer = new TarWriter(dir, wanted);
  try {
    await pipeline(createReadStream(archive), createGunzip(), writer);
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    throw new ArchiveError(`cannot read ${basename(archive)}: ${(error as Error).message}`);
  }
  return writer.written;
}
