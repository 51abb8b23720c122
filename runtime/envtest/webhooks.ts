/**
 * Webhooks against a local server, as envtest's WebhookInstallOptions: the harness makes a CA
 * and a serving certificate for 127.0.0.1 (written as tls.crt / tls.key into a directory the
 * test hands to the manager's webhook server), reads Mutating/ValidatingWebhookConfiguration
 * YAML (e.g. config/webhook), rewrites each clientConfig to `url: https://127.0.0.1:<port><path>`
 * with the CA as caBundle, and creates them; named CRDs get their conversion webhook pointed at
 * `/convert` the same way. The API server then calls the test's server over verified TLS.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { issueCertificate, newKeyPair } from '../certs/index.js';
import { installCRDs, type CustomResourceDefinition } from './crds.js';
import { send, type TlsIdentity } from './http.js';
import { portBoundLater } from './ports.js';

type Obj = Record<string, unknown>;

export interface WebhookInstallOptions {
  /** Files or directories holding Mutating/ValidatingWebhookConfiguration documents (other kinds are ignored). */
  manifests?: string[];
  /** Configurations given as objects, installed like those read from `manifests`. */
  mutatingWebhooks?: Obj[];
  validatingWebhooks?: Obj[];
  /** CRDs (by name) whose conversion is pointed at the local server's /convert (strategy Webhook). */
  conversionCRDs?: string[];
  /** Default 127.0.0.1 (envtest's LocalServingHost). */
  localServingHost?: string;
  /** Default: a free port (envtest's LocalServingPort). */
  localServingPort?: number;
}

/** Where the test's webhook server must listen and which certificate it must serve. */
export interface InstalledWebhooks {
  readonly host: string;
  readonly port: number;
  /** Holds tls.crt and tls.key, signed by `caPem` (envtest's LocalServingCertDir). */
  readonly certDir: string;
  readonly caPem: string;
  /** Names of the configurations created. */
  readonly mutating: string[];
  readonly validating: string[];
  /** The options of the test's webhook server: `webhookServer: new WebhookServer(serverOptions)`. */
  readonly serverOptions: { host: string; port: number; certDir: string };
  /** Deletes the configurations created (the CRDs keep their conversion stanza). */
  uninstall(): Promise<void>;
}

/**
 * The options as given, with `conversionCRDs` defaulted to every CRD among `installed` whose
 * conversion strategy is Webhook (envtest points them all at the local server).
 */
export function withConversionDefault(
  options: WebhookInstallOptions,
  installed: ReadonlyArray<{ metadata: { name: string }; spec: Record<string, unknown> }>,
): WebhookInstallOptions {
  const byWebhook = installed
    .filter((c) => (c.spec['conversion'] as { strategy?: string } | undefined)?.strategy === 'Webhook')
    .map((c) => c.metadata.name);
  return { ...options, conversionCRDs: options.conversionCRDs ?? byWebhook };
}

/** A webhook configuration could not be read or created. */
export class WebhookInstallError extends Error {
  override readonly name = 'WebhookInstallError';
}

const KINDS = {
  MutatingWebhookConfiguration: 'mutatingwebhookconfigurations',
  ValidatingWebhookConfiguration: 'validatingwebhookconfigurations',
} as const;
const REG_PATH = '/apis/admissionregistration.k8s.io/v1';
const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function readConfigurations(paths: readonly string[]): Obj[] {
  const files = paths.flatMap((p) =>
    statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((f) => ['.yaml', '.yml', '.json'].includes(extname(f)))
          .sort()
          .map((f) => join(p, f))
      : [p],
  );
  const out: Obj[] = [];
  for (const file of files) {
    for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
      if (doc.errors.length > 0) throw new WebhookInstallError(`${file}: ${doc.errors[0]?.message ?? 'invalid YAML'}`);
      const v = doc.toJS() as Obj | null;
      if (v && typeof v['kind'] === 'string' && v['kind'] in KINDS) out.push(v);
    }
  }
  return out;
}

/** Points every webhook of `config` at the local server (keeps the service path, as envtest). */
export function rewriteClientConfig(config: Obj, base: string, caBundle: string): Obj {
  const webhooks = ((config['webhooks'] as Obj[] | undefined) ?? []).map((w) => {
    const cc = (w['clientConfig'] as { url?: string; service?: { path?: string } } | undefined) ?? {};
    const path = cc.service?.path ?? (cc.url ? new URL(cc.url).pathname : '/');
    return { ...w, clientConfig: { url: `${base}${path}`, caBundle } };
  });
  const metadata = { ...(config['metadata'] as Obj) };
  delete metadata['namespace'];
  delete metadata['resourceVersion'];
  return { ...config, metadata, webhooks };
}

/**
 * Where the test's webhook server is to listen and the certificate it serves: made before anything
 * is installed, so that CRDs can carry their conversion webhook from the moment they are created.
 */
export interface WebhookServing {
  readonly host: string;
  readonly port: number;
  readonly certDir: string;
  readonly caPem: string;
  /** https://<host>:<port>, what every clientConfig points at. */
  readonly base: string;
  /** The CA, base64, as clientConfig.caBundle wants it. */
  readonly caBundle: string;
}

/** A CA and a serving certificate for the local host, written as tls.crt / tls.key into `dir`. */
export async function prepareWebhookServing(dir: string, options: WebhookInstallOptions): Promise<WebhookServing> {
  const host = options.localServingHost ?? '127.0.0.1';
  const port = options.localServingPort ?? (await portBoundLater());
  const caKeys = newKeyPair();
  const caSubject = { commonName: 'tsop-envtest-webhook-ca' };
  const ca = issueCertificate({
    subject: caSubject,
    keys: caKeys,
    issuer: { subject: caSubject, privateKey: caKeys.privateKey },
    isCA: true,
  });
  const isIp = /^[\d.]+$/.test(host) || host.includes(':');
  const serving = issueCertificate({
    subject: { commonName: host },
    keys: newKeyPair(),
    issuer: { subject: caSubject, privateKey: caKeys.privateKey },
    usage: 'server',
    dnsNames: ['localhost', ...(isIp ? [] : [host])],
    ipAddresses: ['127.0.0.1', ...(isIp && host !== '127.0.0.1' ? [host] : [])],
  });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'tls.crt'), serving.certPem, { mode: 0o600 });
  writeFileSync(join(dir, 'tls.key'), serving.keyPem, { mode: 0o600 });
  return {
    host,
    port,
    certDir: dir,
    caPem: ca.certPem,
    base: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    caBundle: Buffer.from(ca.certPem).toString('base64'),
  };
}

/** The conversion stanza that sends a CRD's conversions to the local server's /convert. */
export function conversionWebhook(serving: WebhookServing): Obj {
  return {
    strategy: 'Webhook',
    webhook: {
      conversionReviewVersions: ['v1'],
      clientConfig: { url: `${serving.base}/convert`, caBundle: serving.caBundle },
    },
  };
}

/** Whether a CRD's conversion stanza (as the API server returns it) already sends to `serving`. */
function convertsAt(conversion: unknown, serving: WebhookServing): boolean {
  const c = conversion as
    | { strategy?: string; webhook?: { clientConfig?: { url?: string; caBundle?: string } } }
    | undefined;
  return (
    c?.strategy === 'Webhook' &&
    c.webhook?.clientConfig?.url === `${serving.base}/convert` &&
    c.webhook.clientConfig.caBundle === serving.caBundle
  );
}

/**
 * `crds` with the conversion of each CRD named in `options.conversionCRDs` pointed at the local
 * server, as envtest rewrites them before it creates them. Patching a CRD that is already served
 * is not the same: its handler in the API server follows the change through an informer, and
 * until then reads in another version come back with only apiVersion changed, unconverted.
 */
export function withConversionWebhooks<T extends { metadata: { name: string }; spec: Record<string, unknown> }>(
  crds: readonly T[],
  options: WebhookInstallOptions,
  serving: WebhookServing,
): T[] {
  const named = new Set(options.conversionCRDs ?? []);
  return crds.map((crd) =>
    named.has(crd.metadata.name) ? { ...crd, spec: { ...crd.spec, conversion: conversionWebhook(serving) } } : crd,
  );
}

/**
 * Makes a serving certificate in `dir`, then registers the webhooks against it: see
 * registerWebhooks. CRDs named for conversion are patched if they do not point at it already.
 */
export async function installWebhooks(
  server: string,
  tls: TlsIdentity,
  dir: string,
  options: WebhookInstallOptions,
): Promise<InstalledWebhooks> {
  return registerWebhooks(server, tls, await prepareWebhookServing(dir, options), options);
}

/**
 * Creates (or replaces) the webhook configurations pointed at `serving`, and points each CRD named
 * in `conversionCRDs` at its /convert unless it already does (a CRD created by
 * withConversionWebhooks is left as it is).
 */
export async function registerWebhooks(
  server: string,
  tls: TlsIdentity,
  serving: WebhookServing,
  options: WebhookInstallOptions,
): Promise<InstalledWebhooks> {
  const { host, port, base, caBundle } = serving;
  const configs = [
    ...readConfigurations(options.manifests ?? []),
    ...(options.mutatingWebhooks ?? []).map((c) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      ...c,
    })),
    ...(options.validatingWebhooks ?? []).map((c) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      ...c,
    })),
  ];
  const created: Array<{ plural: string; name: string; kind: string }> = [];
  for (const raw of configs) {
    const config = rewriteClientConfig(raw, base, caBundle);
    const kind = config['kind'] as keyof typeof KINDS;
    const name = String((config['metadata'] as Obj)['name'] ?? '');
    const plural = KINDS[kind];
    let res = await send(`${server}${REG_PATH}/${plural}`, { method: 'POST', body: config, tls });
    if (res.status === 409) {
      const existing = JSON.parse((await send(`${server}${REG_PATH}/${plural}/${name}`, { tls })).body) as {
        metadata: Obj;
      };
      res = await send(`${server}${REG_PATH}/${plural}/${name}`, {
        method: 'PUT',
        body: {
          ...config,
          metadata: { ...(config['metadata'] as Obj), resourceVersion: existing.metadata['resourceVersion'] },
        },
        tls,
      });
    }
    if (res.status >= 300)
      throw new WebhookInstallError(`creating ${kind} ${name} failed (${res.status}): ${res.body}`);
    created.push({ plural, name, kind });
  }
  for (const crdName of options.conversionCRDs ?? []) {
    const res = await send(`${server}${CRD_PATH}/${crdName}`, { tls });
    if (res.status !== 200)
      throw new WebhookInstallError(
        `CRD ${crdName} for conversion not found (${res.status}); install it first (crdDirectoryPaths)`,
      );
    const crd = JSON.parse(res.body) as { spec: Obj };
    if (convertsAt(crd.spec['conversion'], serving)) continue;
    crd.spec['conversion'] = conversionWebhook(serving);
    const put = await send(`${server}${CRD_PATH}/${crdName}`, { method: 'PUT', body: crd, tls });
    if (put.status >= 300)
      throw new WebhookInstallError(
        `pointing CRD ${crdName}'s conversion at ${base}/convert failed (${put.status}): ${put.body}`,
      );
  }
  return {
    host,
    port,
    certDir: serving.certDir,
    caPem: serving.caPem,
    mutating: created.filter((c) => c.kind === 'MutatingWebhookConfiguration').map((c) => c.name),
    validating: created.filter((c) => c.kind === 'ValidatingWebhookConfiguration').map((c) => c.name),
    serverOptions: { host, port, certDir: serving.certDir },
    uninstall: async () => {
      for (const c of created) await send(`${server}${REG_PATH}/${c.plural}/${c.name}`, { method: 'DELETE', tls });
    },
  };
}

/**
 * A suite's CRDs and webhooks, installed as envtest does at start: the serving certificate first,
 * then the CRDs (those to convert already pointing at it), then the webhook configurations. The
 * result is undefined when no webhooks were asked for.
 */
export async function installCRDsWithWebhooks(
  server: string,
  tls: TlsIdentity,
  crds: readonly CustomResourceDefinition[],
  webhooks: WebhookInstallOptions | undefined,
  servingDir: () => string,
  timeoutMs: number,
): Promise<InstalledWebhooks | undefined> {
  if (!webhooks) {
    if (crds.length) await installCRDs(server, tls, crds, timeoutMs);
    return undefined;
  }
  const options = withConversionDefault(webhooks, crds);
  const serving = await prepareWebhookServing(servingDir(), options);
  if (crds.length) await installCRDs(server, tls, withConversionWebhooks(crds, options, serving), timeoutMs);
  return registerWebhooks(server, tls, serving, options);
}
