import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ephemeralRange, freePort, portBoundLater } from './ports.js';

describe('ports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsop-ports-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the kernel's ephemeral range, with a default where it cannot", () => {
    const file = join(dir, 'range');
    writeFileSync(file, '20000\t40000\n');
    expect(ephemeralRange(file)).toEqual([20000, 40000]);
    writeFileSync(file, 'nonsense\n');
    expect(ephemeralRange(file)).toEqual([32768, 60999]);
    expect(ephemeralRange(join(dir, 'absent'))).toEqual([49152, 65535]);
  });

  it('picks a port for a later bind below the ephemeral range, one that can be bound', async () => {
    const [low] = ephemeralRange();
    const ports = [await portBoundLater(), await portBoundLater(), await portBoundLater()];
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(Math.floor(low / 2));
      expect(port).toBeLessThan(low);
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
      await new Promise((resolve) => server.close(resolve));
    }
    // The kernel's own choice stays inside its range.
    const now = await freePort();
    expect(now).toBeGreaterThanOrEqual(low);
  });
});
