/**
 * The metrics server as controller-runtime's metricsserver runs it: /metrics from the registry,
 * over plain HTTP or HTTPS, behind the configured filter. With HTTPS the certificate comes from
 * `certDir` (watched, so a rotated Secret is picked up) or is generated self-signed at start.
 */

import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Registry } from 'prom-client';
import {
  CertWatcher,
  selfSignedServingCertificate,
  staticCertificate,
  type CertificateSource,
} from '../certs/index.js';
import type { FilterContext } from '../metrics/index.js';
import type { BindAddress } from './bind-address.js';
import { metricsRoute, serve, type RunningServer } from './http-server.js';
import type { MetricsServerOptions } from './options.js';

export interface RunningMetricsServer extends RunningServer {
  readonly secure: boolean;
}

export async function startMetricsServer(
  addr: BindAddress,
  registry: Registry,
  opts: MetricsServerOptions,
  ctx: FilterContext,
): Promise<RunningMetricsServer> {
  const log = ctx.logger;
  let watcher: CertWatcher | undefined;
  let tls: CertificateSource | undefined;
  if (opts.secureServing) {
    if (opts.certDir) {
      const certPath = join(opts.certDir, opts.certName || 'tls.crt');
      const keyPath = join(opts.certDir, opts.keyName || 'tls.key');
      watcher = new CertWatcher({
        certPath,
        keyPath,
        onError: (err) =>
          log.error({ err }, 'metrics certificate changed but cannot be loaded; still serving the previous one'),
      });
      await watcher.start(); // a missing or broken pair fails the start, with the file named
      watcher.onChange(() => log.info({ certPath }, 'metrics certificate reloaded'));
      tls = watcher;
    } else {
      tls = staticCertificate(selfSignedCertificate());
    }
  }
  try {
    const server = await serve(addr, [metricsRoute(registry)], { tls, filter: opts.filterProvider?.(ctx) });
    return {
      port: server.port,
      secure: tls !== undefined,
      close: async () => {
        watcher?.stop();
        await server.close();
      },
    };
  } catch (err) {
    watcher?.stop();
    throw err;
  }
}

function selfSignedCertificate(): { cert: string; key: string } {
  const host = hostname();
  const c = selfSignedServingCertificate({ commonName: host, dnsNames: [...new Set(['localhost', host])] });
  return { cert: c.certPem, key: c.keyPem };
}
