/**
 * Webhooks in `tsop dev`: the project's webhook configurations (config/webhook/manifests.yaml,
 * from its @Webhook decorators) and the conversion of its kinds with a conversion webhook
 * (PROJECT) go onto the embedded control plane pointed at the operator on loopback, with a CA and
 * serving certificate made for the session (envtest's installWebhooks); the operator is started
 * with `--webhook-port` and `--webhook-cert-path` to serve them. Defaulting, validation and
 * conversion then behave as they will in the cluster.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:tls';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { PROJECT_FILE, type ProjectConfig, readProject } from '../project/config.js';
import { loadRuntimeModule } from '../verify/plane.js';
import { TSOP_ROOT } from '../version.js';

export const WEBHOOK_MANIFESTS = 'config/webhook/manifests.yaml';
const CRD_DIR = 'config/crd/bases';

/** What envtest's installWebhooks gives back (the part dev uses). */
export interface InstalledWebhooks {
  readonly port: number;
  readonly certDir: string;
  readonly mutating: string[];
  readonly validating: string[];
  uninstall(): Promise<void>;
}

export interface WebhookPlane {
  installWebhooks(options: {
    manifests?: string[];
    conversionCRDs?: string[];
    localServingPort?: number;
  }): Promise<InstalledWebhooks>;
}

export interface ProjectWebhooks {
  /** config/webhook/manifests.yaml when it holds any configuration. */
  manifests: string | undefined;
  /** CRDs (by name) of the project's kinds with a conversion webhook. */
  conversionCRDs: string[];
}

/** What the project has to register: read from its generated manifests and PROJECT. */
export function projectWebhooks(root: string): ProjectWebhooks {
  const manifests = join(root, WEBHOOK_MANIFESTS);
  const hasConfigs =
    existsSync(manifests) &&
    parseAllDocuments(readFileSync(manifests, 'utf8')).some((d) =>
      /WebhookConfiguration$/.test(String((d.toJS() as { kind?: unknown } | null)?.kind ?? '')),
    );
  return { manifests: hasConfigs ? manifests : undefined, conversionCRDs: conversionCRDs(root) };
}

function conversionCRDs(root: string): string[] {
  let config: ProjectConfig;
  try {
    config = readProject(readFileSync(join(root, PROJECT_FILE), 'utf8')).config;
  } catch {
    return [];
  }
  const kinds = new Set(
    config.resources
      .filter((r) => r.webhooks?.conversion && !r.core && !r.external)
      .map((r) => `${r.group ? `${r.group}.` : ''}${r.domain}/${r.kind}`),
  );
  if (kinds.size === 0 || !existsSync(join(root, CRD_DIR))) return [];
  const names: string[] = [];
  for (const file of readdirSync(join(root, CRD_DIR))
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const crd = parse(readFileSync(join(root, CRD_DIR, file), 'utf8')) as {
      metadata?: { name?: string };
      spec?: { group?: string; names?: { kind?: string } };
    } | null;
    if (crd?.metadata?.name && kinds.has(`${crd.spec?.group}/${crd.spec?.names?.kind}`)) names.push(crd.metadata.name);
  }
  return names;
}

export function hasWebhooks(w: ProjectWebhooks): boolean {
  return w.manifests !== undefined || w.conversionCRDs.length > 0;
}

/** Registers them on the plane (on `port`, to keep the one the operator is told); replaces an earlier registration. */
export async function installDevWebhooks(
  plane: WebhookPlane,
  w: ProjectWebhooks,
  previous: InstalledWebhooks | undefined,
): Promise<InstalledWebhooks> {
  await previous?.uninstall();
  return plane.installWebhooks({
    ...(w.manifests ? { manifests: [w.manifests] } : {}),
    conversionCRDs: w.conversionCRDs,
    ...(previous ? { localServingPort: previous.port } : {}),
  });
}

/** Where the operator's webhook server listens, and the certificate it serves. */
export interface WebhookServing {
  readonly port: number;
  readonly certDir: string;
}

/** The operator's flags that make its webhook server serve the session's certificate on that port. */
export function operatorWebhookArgs(serving: WebhookServing): string[] {
  return [`--webhook-port=${serving.port}`, `--webhook-cert-path=${serving.certDir}`];
}

/**
 * For a cluster that cannot call this machine (--kubeconfig): a self-signed certificate in `dir`
 * and a free loopback port for the operator to bind later (runtime/envtest/ports.ts), so the
 * operator's webhook server starts and the rest of the operator runs, though no API server calls it.
 */
export async function localServing(dir: string, root: string): Promise<WebhookServing> {
  const certs = await loadRuntimeModule<{ selfSignedServingCertificate(): { certPem: string; keyPem: string } }>(
    pathToFileURL(join(TSOP_ROOT, 'runtime/certs/index.ts')),
    root,
    'dev',
  );
  const pair = certs.selfSignedServingCertificate();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'tls.crt'), pair.certPem, { mode: 0o600 });
  writeFileSync(join(dir, 'tls.key'), pair.keyPem, { mode: 0o600 });
  const ports = await loadRuntimeModule<{ portBoundLater(): Promise<number> }>(
    pathToFileURL(join(TSOP_ROOT, 'runtime/envtest/ports.ts')),
    root,
    'dev',
  );
  const port = await ports.portBoundLater();
  return { port, certDir: dir };
}

/** One line for the session's output. */
export function describeWebhooks(installed: InstalledWebhooks, w: ProjectWebhooks): string {
  const parts = [
    ...installed.mutating.map((n) => `mutating ${n}`),
    ...installed.validating.map((n) => `validating ${n}`),
    ...w.conversionCRDs.map((n) => `conversion of ${n}`),
  ];
  return `webhooks: ${parts.join(', ')} → https://127.0.0.1:${installed.port} (a certificate made for this session)`;
}

/**
 * Resolves true once something completes a TLS handshake on 127.0.0.1:`port` (the operator's
 * webhook server is up), false when `gone()` says the operator exited or `timeoutMs` passed.
 */
export async function waitForWebhookServer(port: number, gone: () => boolean, timeoutMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !gone()) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
      socket.setTimeout(1000, () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (up) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
