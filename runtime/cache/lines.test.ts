import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { frameReader, lineReader, type Lines } from './lines.js';

async function all(lines: Lines): Promise<string[]> {
  const out: string[] = [];
  for (let next = await lines.next(); !next.done; next = await lines.next()) out.push(next.value);
  return out;
}

describe('lineReader', () => {
  it('splits lines across chunks, drops the \\r of \\r\\n, and keeps the text after the last newline at the end', async () => {
    const input = new PassThrough();
    const lines = lineReader(input);
    input.write('{"a":');
    input.write('1}\n{"b":2}\r\n\n{"c"');
    input.end(':3}');
    expect(await all(lines)).toEqual(['{"a":1}', '{"b":2}', '', '{"c":3}']);
  });

  it('keeps a multi-byte character split between two chunks whole', async () => {
    const input = new PassThrough();
    const lines = lineReader(input);
    const bytes = Buffer.from('{"name":"café ✓"}\n');
    input.write(bytes.subarray(0, 14));
    input.end(bytes.subarray(14));
    expect(await all(lines)).toEqual(['{"name":"café ✓"}']);
  });

  it('resolves a waiting next() when a line arrives later', async () => {
    const input = new PassThrough();
    const lines = lineReader(input);
    const pending = lines.next();
    setTimeout(() => input.write('late\n'), 5);
    expect(await pending).toEqual({ done: false, value: 'late' });
    input.end();
    expect(await lines.next()).toEqual({ done: true, value: undefined });
  });

  it('ends without the partial line when the stream is destroyed before its end', async () => {
    const input = new PassThrough();
    const lines = lineReader(input);
    input.write('one\ntwo-without-newline');
    await new Promise((r) => setImmediate(r));
    input.destroy();
    expect(await all(lines)).toEqual(['one']);
  });

  it('hands out the lines read before an error, then rejects with it', async () => {
    const input = new PassThrough();
    const lines = lineReader(input);
    input.write('one\n');
    await new Promise((r) => setImmediate(r));
    input.destroy(new Error('connection reset'));
    expect(await lines.next()).toEqual({ done: false, value: 'one' });
    await expect(lines.next()).rejects.toThrow('connection reset');
    expect(await lines.next()).toEqual({ done: true, value: undefined });
  });

  it('close() ends a pending next() and drops what was not taken', async () => {
    const input = new PassThrough();
    const lines = lineReader(input);
    const pending = lines.next();
    lines.close();
    expect(await pending).toEqual({ done: true, value: undefined });
    input.write('after close\n');
    expect(await lines.next()).toEqual({ done: true, value: undefined });
  });

  it('pauses the input while more than 1,024 lines wait, and resumes it as they are taken', async () => {
    const input = new PassThrough();
    const lines = lineReader(input);
    input.write('x\n'.repeat(1100));
    await new Promise((r) => setImmediate(r));
    expect(input.isPaused()).toBe(true);
    for (let i = 0; i < 600; i++) await lines.next();
    expect(input.isPaused()).toBe(false);
    input.end();
    expect((await all(lines)).length).toBe(500);
  });
});

describe('frameReader', () => {
  const framed = (text: string): Buffer => {
    const body = Buffer.from(text);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    return Buffer.concat([length, body]);
  };

  it('hands out length-prefixed frames split across chunks, decoded as taken, and drops a frame cut short', async () => {
    const input = new PassThrough();
    const frames = frameReader(input, (f) => f.toString('utf8').toUpperCase());
    const stream = Buffer.concat([framed('one'), framed(''), framed('three'), framed('cut').subarray(0, 5)]);
    for (let i = 0; i < stream.length; i += 3) input.write(stream.subarray(i, i + 3));
    input.end();
    const out: string[] = [];
    for (let next = await frames.next(); !next.done; next = await frames.next()) out.push(next.value);
    expect(out).toEqual(['ONE', '', 'THREE']);
  });

  it('rejects next() with what the decoder threw, and goes on after it', async () => {
    const input = new PassThrough();
    const frames = frameReader(input, (f) => {
      if (f.toString() === 'bad') throw new Error('undecodable');
      return f.toString();
    });
    input.end(Buffer.concat([framed('bad'), framed('good')]));
    await expect(frames.next()).rejects.toThrow('undecodable');
    expect(await frames.next()).toEqual({ done: false, value: 'good' });
  });
});
