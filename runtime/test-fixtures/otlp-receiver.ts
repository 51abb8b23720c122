/**
 * An OTLP/HTTP trace receiver on loopback for tests: it answers what an OpenTelemetry collector
 * answers and keeps what the JSON exporter posts to /v1/traces, flattened to plain attributes.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One batch the exporter sent: its resource's attributes and its spans, flattened. */
export interface Batch {
  resource: Record<string, string>;
  spans: Array<{ name: string; attributes: Record<string, unknown> }>;
}

/** Starts one on a free loopback port; `close()` stops it and its kept-alive connections. */
export async function otlpReceiver(): Promise<{ url: string; batches(): Batch[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      if (req.url === '/v1/traces') bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const value = (v: Record<string, unknown>): unknown => v['stringValue'] ?? v['intValue'] ?? v['boolValue'] ?? v['doubleValue'];
  const flat = (attrs: Array<{ key: string; value: Record<string, unknown> }> = []) => Object.fromEntries(attrs.map((a) => [a.key, value(a.value)]));
  type Wire = { resourceSpans: Array<{ resource: { attributes: Array<{ key: string; value: Record<string, unknown> }> }; scopeSpans: Array<{ spans: Array<{ name: string; attributes: Array<{ key: string; value: Record<string, unknown> }> }> }> }> };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    batches: () =>
      bodies.flatMap((b) =>
        (JSON.parse(b) as Wire).resourceSpans.map((rs) => ({
          resource: flat(rs.resource.attributes) as Record<string, string>,
          spans: rs.scopeSpans.flatMap((ss) => ss.spans.map((sp) => ({ name: sp.name, attributes: flat(sp.attributes) }))),
        })),
      ),
    close: async () => {
      // The exporter keeps its connection alive; close it so the server can stop.
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
