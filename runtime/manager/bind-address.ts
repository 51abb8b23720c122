/**
 * Parses controller-runtime style bind addresses: ':8080' (all interfaces), '127.0.0.1:8080',
 * '[::1]:8080', ':0' (an ephemeral port, handy in tests) and '0' (the server is disabled).
 */

export interface BindAddress {
  /** undefined = every interface */
  host?: string;
  port: number;
}

export class InvalidBindAddressError extends Error {
  override readonly name = 'InvalidBindAddressError';
}

/** undefined when the address disables the server ('0' or ''). */
export function parseBindAddress(addr: string): BindAddress | undefined {
  if (addr === '0' || addr === '') return undefined;
  const colon = addr.lastIndexOf(':');
  if (colon < 0) throw new InvalidBindAddressError(`bind address "${addr}" has no port (want host:port or :port)`);
  const rawHost = addr.slice(0, colon);
  const portText = addr.slice(colon + 1);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535)
    throw new InvalidBindAddressError(`bind address "${addr}" has an invalid port`);
  const host = rawHost.startsWith('[') && rawHost.endsWith(']') ? rawHost.slice(1, -1) : rawHost;
  return host ? { host, port } : { port };
}
