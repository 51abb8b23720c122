/**
 * Who the connection says it is: the Authorization (and Impersonate-User) headers of the
 * kubeconfig's current user, kept fresh the way client-go keeps them.
 *
 * - a static token, basic auth or a client certificate (TLS, see rest/connection.ts): fixed;
 * - a token file (in-cluster ServiceAccount, `loadFromCluster`, or a kubeconfig user's
 *   `token-file`): re-read at most once a minute, so a rotated token is picked up (client-go's
 *   cached file token source);
 * - an exec plugin: run once, its token kept until its `expirationTimestamp` (for ever when it
 *   has none), then run again (client-go's exec authenticator);
 * - any other auth-provider: whatever client-node computes, per request.
 *
 * A 401 answer means the server no longer accepts what was sent: `refresh(generation)` re-reads
 * the file or re-runs the plugin at once, and says whether the credential changed, so the caller
 * can resend the request (the server rejected it before acting on it).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import type * as https from 'node:https';
import type { User } from '@kubernetes/client-node';
import type { KubeConfigSource } from './kubeconfig.js';
import { parseYaml } from './yaml.js';

/** The headers to send, and which load of the credential they came from. */
export interface Credential {
  headers: Record<string, string>;
  generation: number;
}

/** A kubeconfig credential could not be obtained (plugin failed, token file unreadable). */
export class CredentialError extends Error {
  override readonly name = 'CredentialError';
}

/** client-go re-reads a token file after this long, whatever happens. */
const TOKEN_FILE_MAX_AGE_MS = 60_000;

interface ExecConfig {
  command: string;
  args?: string[];
  env?: Array<{ name: string; value: string }>;
  apiVersion?: string;
}

interface Loaded {
  token: string | undefined;
  /** ms since the epoch after which the token must be loaded again; Infinity: until a 401 */
  expiresAt: number;
}

/** Loads a bearer token from somewhere that can change. */
type TokenSource = () => Promise<Loaded>;

export class Credentials {
  private readonly fixed: Record<string, string> = {};
  private readonly source: TokenSource | undefined;
  /** auth-providers only client-node knows (oidc, azure, gcp, custom): asked per request */
  private readonly delegate: boolean;
  private current: { loaded: Loaded; generation: number } | undefined;
  private loading: Promise<{ loaded: Loaded; generation: number }> | undefined;
  private generation = 0;

  constructor(
    private readonly kc: KubeConfigSource,
    private readonly now: () => number = Date.now,
  ) {
    const user = kc.getCurrentUser();
    if (user?.impersonateUser) this.fixed['Impersonate-User'] = user.impersonateUser;
    if (user?.username)
      this.fixed['Authorization'] =
        `Basic ${Buffer.from(`${user.username}:${user.password ?? ''}`).toString('base64')}`;
    const tokenFile = tokenFileOf(user) ?? kubeconfigTokenFile(user);
    const exec = execOf(user);
    if (exec) this.source = () => runExec(exec, user?.name ?? '');
    else if (tokenFile) this.source = () => readTokenFile(tokenFile, this.now() + TOKEN_FILE_MAX_AGE_MS);
    else if (user?.token) this.fixed['Authorization'] = `Bearer ${user.token.trim()}`;
    this.delegate = !this.source && Boolean(user?.authProvider);
  }

  /** True when the credential may change while the process runs. */
  get rotating(): boolean {
    return this.source !== undefined || this.delegate;
  }

  async get(): Promise<Credential> {
    if (this.delegate) return { headers: { ...this.fixed, ...(await this.delegated()) }, generation: 0 };
    if (!this.source) return { headers: this.fixed, generation: 0 };
    const c = this.current && this.now() < this.current.loaded.expiresAt ? this.current : await this.load();
    const headers = { ...this.fixed };
    if (c.loaded.token) headers['Authorization'] = `Bearer ${c.loaded.token}`;
    return { headers, generation: c.generation };
  }

  /**
   * The server answered 401 to a request sent with `generation`: load the credential again
   * (once, however many requests saw the 401). True when the next request sends something new.
   */
  async refresh(generation: number): Promise<boolean> {
    if (!this.source) return this.delegate;
    if (this.current && this.current.generation !== generation) return true; // already reloaded
    const before = this.current?.loaded.token;
    const after = await this.load();
    return after.loaded.token !== before;
  }

  /** One load at a time; concurrent callers share it. */
  private load(): Promise<{ loaded: Loaded; generation: number }> {
    this.loading ??= this.source!()
      .then((loaded) => {
        this.current = { loaded, generation: ++this.generation };
        return this.current;
      })
      .finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async delegated(): Promise<Record<string, string>> {
    const opts: https.RequestOptions = {};
    try {
      await this.kc.applyToHTTPSOptions(opts);
    } catch (err) {
      throw new CredentialError(`kubeconfig user: ${(err as Error).message}`, { cause: err });
    }
    // client-node builds an agent as a side effect; only its headers are wanted here.
    (opts.agent as { destroy?: () => void } | undefined)?.destroy?.();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (typeof v === 'string') headers[k] = v;
    return headers;
  }
}

function tokenFileOf(user: User | null): string | undefined {
  const file: unknown = user?.authProvider?.config?.['tokenFile'];
  return typeof file === 'string' && file !== '' ? file : undefined;
}

/**
 * client-node reads a kubeconfig user's `token-file` once, at load, and keeps only the token. To
 * re-read it as client-go does, find the path again in the kubeconfig files it loads by default
 * ($KUBECONFIG, else ~/.kube/config); a path counts only when the file still holds the token the
 * user was loaded with, so a KubeConfig built some other way is never given someone else's file.
 */
function kubeconfigTokenFile(user: User | null): string | undefined {
  if (!user?.token || user.exec || user.authProvider) return undefined;
  const files = process.env['KUBECONFIG']
    ? process.env['KUBECONFIG'].split(delimiter).filter(Boolean)
    : [join(homedir(), '.kube', 'config')];
  for (const file of files) {
    try {
      const doc = parseYaml(readFileSync(file, 'utf8')) as {
        users?: Array<{ name?: string; user?: Record<string, unknown> }>;
      } | null;
      const path = doc?.users?.find((u) => u?.name === user.name)?.user?.['token-file'];
      if (typeof path !== 'string' || path === '') continue;
      const full = resolve(path); // where client-node read it: a relative path is taken from the working directory
      if (readFileSync(full, 'utf8').trim() === user.token.trim()) return full;
    } catch {
      // unreadable or not YAML: this file names no token file
    }
  }
  return undefined;
}

function execOf(user: User | null): ExecConfig | undefined {
  const exec: unknown = user?.exec ?? user?.authProvider?.config?.['exec'];
  if (!exec || typeof exec !== 'object') return undefined;
  const e = exec as Partial<ExecConfig>;
  if (typeof e.command !== 'string' || e.command === '') {
    throw new CredentialError(
      `kubeconfig user "${user?.name}": exec has no command; name the credential plugin to run`,
    );
  }
  return { command: e.command, args: e.args, env: e.env, apiVersion: e.apiVersion };
}

async function readTokenFile(path: string, expiresAt: number): Promise<Loaded> {
  try {
    return { token: (await readFile(path, 'utf8')).trim(), expiresAt };
  } catch (err) {
    throw new CredentialError(`reading the token file ${path}: ${(err as Error).message}`, { cause: err });
  }
}

interface ExecCredential {
  status?: { token?: string; expirationTimestamp?: string; clientCertificateData?: string };
}

/** Runs the plugin with client-go's KUBERNETES_EXEC_INFO and reads its ExecCredential. */
function runExec(exec: ExecConfig, userName: string): Promise<Loaded> {
  const apiVersion = exec.apiVersion ?? 'client.authentication.k8s.io/v1';
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const { name, value } of exec.env ?? []) env[name] = value;
  env['KUBERNETES_EXEC_INFO'] = JSON.stringify({ apiVersion, kind: 'ExecCredential', spec: { interactive: false } });
  const what = `credential plugin "${exec.command}" of kubeconfig user "${userName}"`;
  return new Promise((resolve, reject) => {
    const child = spawn(exec.command, exec.args ?? [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', (e) => reject(new CredentialError(`${what} could not run: ${e.message}`, { cause: e })));
    child.on('close', (code) => {
      if (code !== 0) {
        const why = err.trim().split('\n').pop() ?? '';
        return reject(new CredentialError(`${what} exited with ${code}${why ? `: ${why}` : ''}`));
      }
      let cred: ExecCredential;
      try {
        cred = JSON.parse(out) as ExecCredential;
      } catch {
        return reject(new CredentialError(`${what} printed no ExecCredential JSON; it must print one on stdout`));
      }
      const token = cred.status?.token;
      if (!token) {
        const certs = cred.status?.clientCertificateData ? ' (client certificates from plugins are not supported)' : '';
        return reject(new CredentialError(`${what} returned no status.token${certs}`));
      }
      const exp = cred.status?.expirationTimestamp ? Date.parse(cred.status.expirationTimestamp) : NaN;
      resolve({ token, expiresAt: Number.isNaN(exp) ? Infinity : exp });
    });
  });
}
