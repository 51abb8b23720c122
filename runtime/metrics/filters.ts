/**
 * Filters in front of the metrics endpoint (controller-runtime's metrics/filters). The one
 * provided, `withAuthenticationAndAuthorization`, lets a scrape through only when the API server
 * says its bearer token is valid (TokenReview) and that its user may `get` the path as a
 * non-resource URL (SubjectAccessReview) — what the generated `metrics-reader` ClusterRole
 * grants. The manager's own identity needs `create` on both reviews (`metrics-auth-role`).
 *
 * Answers are cached so a scrape every few seconds costs no API request once its token and
 * user are known: a valid token for 2 min, a rejected one for 30 s, an allowed user for 5 min
 * and a denied one for 30 s (kube-apiserver's webhook token cache keeps 2 min, controller-
 * runtime's authorizer 5 min allowed / 30 s denied). Failed reviews are not cached.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { KubeConfigSource } from '../kubeconfig/index.js';
import { HttpStatusError, requestJSON, type RequestMetrics } from '../rest/index.js';
import type { Logger } from '../log/index.js';
import { TtlCache } from './ttl-cache.js';

/** What a filter answers instead of the endpoint (short plain text). */
export interface FilterResponse {
  status: number;
  body: string;
}

/** Runs before every request reaches the metrics handler; undefined lets the request through. */
export type MetricsFilter = (req: IncomingMessage, url: URL) => Promise<FilterResponse | undefined>;

/** What a provider may use: the manager's kubeconfig, logger and API request counter. */
export interface FilterContext {
  kubeConfig: KubeConfigSource;
  logger: Logger;
  requestMetrics?: RequestMetrics;
}

/** Builds the filter when the metrics server starts (controller-runtime's FilterProvider). */
export type FilterProvider = (ctx: FilterContext) => MetricsFilter;

/** The user a TokenReview names (authentication.k8s.io/v1 UserInfo). */
export interface UserInfo {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface AuthFilterOptions {
  /** How long a token the API server accepted is trusted without asking again (default 2 min). */
  authenticatedTtlMs?: number;
  /** How long a rejected token is rejected without asking again (default 30 s). */
  unauthenticatedTtlMs?: number;
  /** How long an allowed user/verb/path stays allowed (default 5 min). */
  allowedTtlMs?: number;
  /** How long a denied user/verb/path stays denied (default 30 s). */
  deniedTtlMs?: number;
  /** Entries per cache before the oldest are dropped (default 4096). */
  maxCacheEntries?: number;
  /** Per review request (default 10 s). */
  reviewTimeoutMs?: number;
  /** Clock for the caches (tests). */
  now?: () => number;
}

export const DEFAULT_AUTH_FILTER_OPTIONS = {
  authenticatedTtlMs: 2 * 60_000,
  unauthenticatedTtlMs: 30_000,
  allowedTtlMs: 5 * 60_000,
  deniedTtlMs: 30_000,
  maxCacheEntries: 4096,
  reviewTimeoutMs: 10_000,
} as const satisfies AuthFilterOptions;

/**
 * The token of an `Authorization: Bearer <token>` header, or undefined when there is none or
 * the header has another form. The scheme is case-insensitive; the token is one word.
 */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const m = /^\s*bearer[ \t]+([^\s]+)\s*$/i.exec(header);
  return m?.[1];
}

const TEXT = (status: number, body: string): FilterResponse => ({ status, body: `${body}\n` });

interface TokenReviewStatus {
  authenticated?: boolean;
  user?: UserInfo;
  error?: string;
}

interface AccessReviewStatus {
  allowed?: boolean;
  reason?: string;
}

type Authn = { ok: true; user: UserInfo } | { ok: false };

/**
 * A FilterProvider with other cache lifetimes; `withAuthenticationAndAuthorization` is this with
 * the defaults.
 */
export function authenticationAndAuthorization(options: AuthFilterOptions = {}): FilterProvider {
  const o = { ...DEFAULT_AUTH_FILTER_OPTIONS, ...options };
  return (ctx) => {
    const log = ctx.logger.child({ component: 'metrics-auth' });
    const tokens = new TtlCache<Authn>(o.maxCacheEntries, o.now);
    const decisions = new TtlCache<boolean>(o.maxCacheEntries, o.now);
    // Concurrent scrapes with the same token or user share one review.
    const pending = new Map<string, Promise<unknown>>();
    const once = <T>(key: string, review: () => Promise<T>): Promise<T> => {
      let p = pending.get(key) as Promise<T> | undefined;
      if (!p) {
        p = review().finally(() => pending.delete(key));
        pending.set(key, p);
      }
      return p;
    };
    const post = <T>(path: string, body: unknown): Promise<T> =>
      requestJSON<T>(ctx.kubeConfig, {
        method: 'POST',
        path,
        body,
        metrics: ctx.requestMetrics,
        signal: AbortSignal.timeout(o.reviewTimeoutMs),
      });

    const authenticate = async (token: string): Promise<Authn> => {
      const key = `t:${createHash('sha256').update(token).digest('hex')}`;
      const cached = tokens.get(key);
      if (cached) return cached;
      return once(key, async () => {
        const review = await post<{ status?: TokenReviewStatus }>('/apis/authentication.k8s.io/v1/tokenreviews', {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenReview',
          spec: { token },
        });
        const s = review.status ?? {};
        const result: Authn = s.authenticated && s.user?.username ? { ok: true, user: s.user } : { ok: false };
        tokens.set(key, result, result.ok ? o.authenticatedTtlMs : o.unauthenticatedTtlMs);
        return result;
      });
    };

    const authorize = async (user: UserInfo, verb: string, path: string): Promise<boolean> => {
      const key = JSON.stringify([user.username, user.uid ?? '', user.groups ?? [], user.extra ?? {}, verb, path]);
      const cached = decisions.get(key);
      if (cached !== undefined) return cached;
      return once(key, async () => {
        const review = await post<{ status?: AccessReviewStatus }>(
          '/apis/authorization.k8s.io/v1/subjectaccessreviews',
          {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SubjectAccessReview',
            spec: {
              user: user.username,
              ...(user.uid ? { uid: user.uid } : {}),
              groups: user.groups ?? [],
              ...(user.extra ? { extra: user.extra } : {}),
              nonResourceAttributes: { path, verb },
            },
          },
        );
        const allowed = review.status?.allowed === true;
        decisions.set(key, allowed, allowed ? o.allowedTtlMs : o.deniedTtlMs);
        return allowed;
      });
    };

    return async (req, url) => {
      const token = bearerToken(req.headers.authorization);
      if (!token) return TEXT(401, 'Unauthorized');
      const verb = (req.method ?? 'GET').toLowerCase();
      try {
        const authn = await authenticate(token);
        if (!authn.ok) return TEXT(401, 'Unauthorized');
        if (await authorize(authn.user, verb, url.pathname)) return undefined;
        log.debug({ user: authn.user.username, verb, path: url.pathname }, 'metrics request denied');
        return TEXT(403, `Forbidden: user "${authn.user.username}" may not ${verb} ${url.pathname}`);
      } catch (err) {
        const hint =
          err instanceof HttpStatusError && err.code === 403 ? ' (does the manager have metrics-auth-role?)' : '';
        log.error({ err }, `metrics request not checked: review failed${hint}`);
        return TEXT(500, 'Internal Server Error');
      }
    };
  };
}

/**
 * The filter kubebuilder's projects use with secure metrics: bearer token → TokenReview →
 * SubjectAccessReview on the request path and lower-case method; 401 without a valid token, 403
 * when RBAC denies, 500 when a review fails (logged).
 */
export const withAuthenticationAndAuthorization: FilterProvider = authenticationAndAuthorization();
