/**
 * The local addresses a TCP port is listened on, read from the kernel (/proc/net/tcp and tcp6 on
 * Linux): `127.0.0.1`, `0.0.0.0`, `::` (every interface, IPv4 too unless v6-only), `::1`.
 */
import { readFileSync } from 'node:fs';

const LISTEN = '0A';

function ipv4(hex: string): string {
  // Little-endian 32-bit word: 0100007F is 127.0.0.1.
  return [3, 2, 1, 0].map((i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
}

function ipv6(hex: string): string {
  const words = [0, 1, 2, 3].map((w) => hex.slice(w * 8, w * 8 + 8));
  const bytes = words.flatMap((w) => [3, 2, 1, 0].map((i) => w.slice(i * 2, i * 2 + 2)));
  const groups = [0, 2, 4, 6, 8, 10, 12, 14].map((i) => Number.parseInt(bytes[i]! + bytes[i + 1]!, 16).toString(16));
  const text = groups.join(':');
  if (text === '0:0:0:0:0:0:0:0') return '::';
  if (text === '0:0:0:0:0:0:0:1') return '::1';
  return text;
}

export function listeningAddresses(port: number): string[] {
  const out: string[] = [];
  for (const [file, decode] of [
    ['/proc/net/tcp', ipv4],
    ['/proc/net/tcp6', ipv6],
  ] as const) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [addr, portHex] = (fields[1] ?? '').split(':');
      if (fields[3] === LISTEN && portHex !== undefined && Number.parseInt(portHex, 16) === port)
        out.push(decode(addr!));
    }
  }
  return out.sort();
}
