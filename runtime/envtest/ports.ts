/** Free loopback ports, asked of the kernel or picked outside the range it hands out. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A port free now (bind to port 0, read it, release it), for a server bound at once. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Random picks tried below the ephemeral range before falling back to the kernel's choice. */
const PICKS = 50;

/**
 * A free port for a server that another process binds later (a webhook server the API server is
 * told of before the operator starts). The kernel's ephemeral range goes to every outgoing
 * connection and every bind to port 0 on the machine, so a port from it can be taken before it
 * is bound; below that range, only a server asking for that very port can take it.
 */
export async function portBoundLater(host = '127.0.0.1'): Promise<number> {
  const [low] = ephemeralRange();
  // The upper half below the range: clear of the well-known ports servers are configured with.
  const from = Math.max(1024, Math.floor(low / 2));
  const room = low - from;
  // A range that starts too low leaves no room below it: the kernel's choice then.
  if (room > PICKS)
    for (let i = 0; i < PICKS; i++) {
      const port = from + Math.floor(Math.random() * room);
      if (await bindable(port, host)) return port;
    }
  return freePort(host);
}

/** The kernel's ephemeral range; Linux's default where it cannot be read. */
export function ephemeralRange(file = '/proc/sys/net/ipv4/ip_local_port_range'): [number, number] {
  try {
    const [low, high] = readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);
    if (low !== undefined && high !== undefined && low > 0 && high >= low) return [low, high];
  } catch {
    // Not Linux: the IANA range most other systems use.
    return [49152, 65535];
  }
  return [32768, 60999];
}

function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
