/**
 * Self-provisioned serving certificates (beyond kubebuilder, for clusters without cert-manager):
 * a CA and a serving certificate for `<service>.<namespace>.svc` (and `.svc.cluster.local`),
 * kept in a Secret (shared by replicas) or in memory, renewed before they expire; the CA is
 * written into the `caBundle` of the named webhook configurations and CRD conversion stanzas.
 * A renewal re-signs the serving certificate with the same CA, so the API server's trust never
 * lapses; a new CA is made only when the CA itself nears expiry (the bundle is then patched).
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { issueCertificate, newKeyPair, type CertificatePair, type CertificateSource } from '../certs/index.js';
import { NotFoundError, ConflictError, AlreadyExistsError, type Client, type Reader } from '../client/index.js';
import type { KubeObject } from '../apimachinery/model.js';
import type { Logger } from '../log/index.js';
import type { SelfProvisionOptions } from '../manager/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;

// Declared with the manager, whose flags produce it; kept importable from here.
export type { SelfProvisionOptions };

interface Bundle {
  caCert: string;
  caKey: string;
  cert: string;
  key: string;
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const unb64 = (s: string | undefined): string => Buffer.from(s ?? '', 'base64').toString('utf8');

function notAfter(pem: string): number {
  return new Date(new X509Certificate(pem).validTo).getTime();
}

export class SelfProvisioner implements CertificateSource {
  private bundle: Bundle | undefined;
  private readonly listeners = new Set<(pair: CertificatePair) => void>();
  private timer: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Targets last seen missing, so each is logged once while it stays missing. */
  private readonly missing = new Set<string>();
  private readonly validForMs: number;
  private readonly renewBeforeMs: number;

  constructor(
    private readonly opts: SelfProvisionOptions,
    private readonly client: Client,
    private readonly log: Logger,
  ) {
    this.validForMs = opts.validForMs ?? 90 * DAY_MS;
    this.renewBeforeMs = opts.renewBeforeMs ?? Math.floor(this.validForMs / 3);
  }

  /** The DNS names and IPs the serving certificate covers. */
  hosts(): string[] {
    const { serviceName: s, namespace: ns } = this.opts;
    return [
      ...new Set([s, `${s}.${ns}`, `${s}.${ns}.svc`, `${s}.${ns}.svc.cluster.local`, ...(this.opts.extraHosts ?? [])]),
    ];
  }

  /** The CA (PEM) clients must trust. */
  get caPem(): string {
    return this.need().caCert;
  }

  current(): CertificatePair {
    const b = this.need();
    return { cert: b.cert, key: b.key };
  }

  onChange(listener: (pair: CertificatePair) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Loads (or creates) the certificate, injects the CA, and starts the renewal timer. A webhook
   * configuration or CRD that does not exist yet (applied together with the manager) is not an
   * error: the CA is injected into it as soon as it appears, checked every 2 s until then.
   */
  async start(): Promise<void> {
    const stored = await this.load();
    this.bundle =
      stored && this.fresh(stored)
        ? stored
        : await this.save(this.issue(stored && this.caFresh(stored) ? stored : undefined));
    await this.injectCA();
    this.timer = setInterval(
      () => void this.check().catch((err: unknown) => this.log.error({ err: String(err) }, 'certificate check failed')),
      this.opts.checkIntervalMs ?? 60_000,
    );
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.retry);
    this.stopped = true;
  }

  /** Issues a new serving certificate now (same CA while it is fresh) and serves it. */
  async rotate(): Promise<void> {
    const current = this.need();
    const keepCA = this.caFresh(current);
    const next = this.issue(keepCA ? current : undefined);
    // A new CA is trusted next to the old one before any certificate it signed is served.
    if (!keepCA) await this.injectCA(next.caCert + current.caCert);
    this.use(await this.save(next));
    if (!keepCA) await this.injectCA();
  }

  private async check(): Promise<void> {
    // A configuration replaced by `kubectl replace` or re-created loses its caBundle: put it back.
    await this.injectCA();
    const stored = await this.load();
    if (stored && stored.cert !== this.bundle?.cert && this.fresh(stored)) {
      // Another replica renewed: serve its certificate.
      const caChanged = stored.caCert !== this.bundle?.caCert;
      this.use(stored);
      if (caChanged) await this.injectCA();
      return;
    }
    if (!this.fresh(this.need())) await this.rotate();
  }

  private use(b: Bundle): void {
    this.bundle = b;
    this.log.info({ notAfter: new Date(notAfter(b.cert)).toISOString() }, 'serving a new webhook certificate');
    for (const l of this.listeners) l({ cert: b.cert, key: b.key });
  }

  private need(): Bundle {
    if (!this.bundle) throw new Error('SelfProvisioner used before start()');
    return this.bundle;
  }

  private fresh(b: Bundle): boolean {
    try {
      const leaf = new X509Certificate(b.cert);
      const ca = new X509Certificate(b.caCert);
      const names = new Set((leaf.subjectAltName ?? '').split(', '));
      // IPv6 addresses are printed expanded by node, so those are trusted as issued.
      const covers = this.hosts().every(
        (h) => h.includes(':') || names.has(`DNS:${h}`) || names.has(`IP Address:${h}`),
      );
      return (
        covers && leaf.verify(ca.publicKey) && notAfter(b.cert) - Date.now() > this.renewBeforeMs && this.caFresh(b)
      );
    } catch {
      return false;
    }
  }

  private caFresh(b: Bundle): boolean {
    try {
      return notAfter(b.caCert) - Date.now() > this.renewBeforeMs + this.validForMs;
    } catch {
      return false;
    }
  }

  private issue(ca: Bundle | undefined): Bundle {
    const caSubject = { commonName: `${this.opts.serviceName}-ca` };
    let caCert = ca?.caCert;
    let caKey = ca?.caKey;
    if (!caCert || !caKey) {
      const keys = newKeyPair();
      const issued = issueCertificate({
        subject: caSubject,
        keys,
        issuer: { subject: caSubject, privateKey: keys.privateKey },
        isCA: true,
        validForMs: this.validForMs * 10,
      });
      caCert = issued.certPem;
      caKey = issued.keyPem;
    }
    const hosts = this.hosts();
    const isIp = (h: string): boolean => /^[\d.]+$/.test(h) || h.includes(':');
    const leaf = issueCertificate({
      subject: { commonName: `${this.opts.serviceName}.${this.opts.namespace}.svc` },
      keys: newKeyPair(),
      issuer: { subject: caSubject, privateKey: createPrivateKey(caKey) },
      usage: 'server',
      dnsNames: hosts.filter((h) => !isIp(h)),
      ipAddresses: hosts.filter(isIp),
      validForMs: this.validForMs,
    });
    return { caCert, caKey, cert: leaf.certPem, key: leaf.keyPem };
  }

  /**
   * Reads go to the API server, never the manager's cache: a controller that watches Secrets in
   * another scope would otherwise answer for them, and a stale copy would only cause conflicts.
   */
  private api(): Reader {
    return this.client.apiReader();
  }

  private secretRef(): { apiVersion: string; kind: string } {
    return { apiVersion: 'v1', kind: 'Secret' };
  }

  private async load(): Promise<Bundle | undefined> {
    const name = this.opts.secretName;
    if (!name) return this.bundle;
    try {
      const s = await this.api().get<KubeObject & { data?: Record<string, string> }>(this.secretRef(), {
        namespace: this.opts.namespace,
        name,
      });
      const d = s.data ?? {};
      const b = {
        caCert: unb64(d['ca.crt']),
        caKey: unb64(d['ca.key']),
        cert: unb64(d['tls.crt']),
        key: unb64(d['tls.key']),
      };
      return b.caCert && b.caKey && b.cert && b.key ? b : undefined;
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  }

  /** Writes the bundle to the Secret; when another replica wrote first, its bundle wins. */
  private async save(b: Bundle): Promise<Bundle> {
    const name = this.opts.secretName;
    if (!name) return b;
    const data = { 'ca.crt': b64(b.caCert), 'ca.key': b64(b.caKey), 'tls.crt': b64(b.cert), 'tls.key': b64(b.key) };
    const meta = { name, namespace: this.opts.namespace };
    try {
      const existing = await this.api()
        .get<KubeObject>(this.secretRef(), meta)
        .catch((err: unknown) => {
          if (err instanceof NotFoundError) return undefined;
          throw err;
        });
      if (existing) await this.client.update({ ...existing, type: 'kubernetes.io/tls', data });
      else
        await this.client.create({ apiVersion: 'v1', kind: 'Secret', metadata: meta, type: 'kubernetes.io/tls', data });
      return b;
    } catch (err) {
      if (!(err instanceof ConflictError || err instanceof AlreadyExistsError)) throw err;
      const theirs = await this.load();
      if (!theirs) throw err;
      return theirs;
    }
  }

  /** Sets caBundle on every named webhook configuration and CRD conversion webhook. */
  private async injectCA(bundlePem = this.need().caCert): Promise<void> {
    const caBundle = b64(bundlePem);
    const o = this.opts;
    const targets: Array<{ kind: string; apiVersion: string; name: string; edit: (obj: KubeObject) => void }> = [];
    const webhooks = (obj: KubeObject): void => {
      for (const w of (obj['webhooks'] as Array<{ clientConfig?: Record<string, unknown> }> | undefined) ?? [])
        w.clientConfig = { ...w.clientConfig, caBundle };
    };
    for (const name of o.mutatingWebhookConfigurations ?? [])
      targets.push({
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingWebhookConfiguration',
        name,
        edit: webhooks,
      });
    for (const name of o.validatingWebhookConfigurations ?? [])
      targets.push({
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        name,
        edit: webhooks,
      });
    for (const name of o.crds ?? []) {
      targets.push({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name,
        edit: (crd) => {
          const spec = crd['spec'] as {
            conversion?: { strategy?: string; webhook?: { clientConfig?: Record<string, unknown> } };
          };
          if (spec.conversion?.strategy !== 'Webhook' || !spec.conversion.webhook)
            throw new Error(`CRD ${name} has no conversion webhook (spec.conversion.strategy is not Webhook)`);
          spec.conversion.webhook.clientConfig = { ...spec.conversion.webhook.clientConfig, caBundle };
        },
      });
    }
    let pending = false;
    for (const t of targets) {
      const key = `${t.kind}/${t.name}`;
      for (let attempt = 1; ; attempt++) {
        let obj: KubeObject;
        try {
          obj = await this.api().get<KubeObject>({ apiVersion: t.apiVersion, kind: t.kind }, { name: t.name });
        } catch (err) {
          if (!(err instanceof NotFoundError)) throw err;
          if (!this.missing.has(key))
            this.log.info({ kind: t.kind, name: t.name }, 'not found yet; the webhook CA is injected when it appears');
          this.missing.add(key);
          pending = true;
          break;
        }
        this.missing.delete(key);
        const before = JSON.stringify(obj);
        t.edit(obj);
        if (JSON.stringify(obj) === before) break; // already trusts this CA
        try {
          await this.client.update(obj);
          this.log.info({ kind: t.kind, name: t.name }, 'injected the webhook CA');
          break;
        } catch (err) {
          if (!(err instanceof ConflictError) || attempt >= 5) throw err;
        }
      }
    }
    clearTimeout(this.retry);
    if (pending && !this.stopped) {
      this.retry = setTimeout(
        () =>
          void this.injectCA().catch((err: unknown) =>
            this.log.error({ err: String(err) }, 'injecting the webhook CA failed'),
          ),
        2_000,
      );
      this.retry.unref();
    }
  }
}
