/**
 * `generate bundle --use-image-digests`: every image the CSV's Deployments and related images name
 * by tag is replaced by its digest (`repo@sha256:…`), asked of its registry with the OCI
 * distribution API (HEAD /v2/<repo>/manifests/<tag>, anonymous bearer token when the registry asks
 * for one). A registry on localhost is spoken to over plain HTTP, as container tools do.
 */
import { UserError } from '../errors.js';
import type { Csv } from './csv.js';
import type { Collected } from './collector.js';
import { isObj, list, obj } from './objects.js';

const ACCEPT = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
].join(', ');

export interface ImageRef {
  registry: string;
  repository: string;
  tag: string;
}

/** `memcached:1.6` → docker.io/library/memcached:1.6; undefined when the image is already a digest. */
export function parseImage(image: string): ImageRef | undefined {
  if (image.includes('@')) return undefined;
  const slash = image.indexOf('/');
  const first = slash < 0 ? '' : image.slice(0, slash);
  const hasRegistry = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost');
  const registry = hasRegistry ? first : 'docker.io';
  let rest = hasRegistry ? image.slice(slash + 1) : image;
  const colon = rest.lastIndexOf(':');
  const tag = colon > rest.lastIndexOf('/') ? rest.slice(colon + 1) : 'latest';
  if (colon > rest.lastIndexOf('/')) rest = rest.slice(0, colon);
  const repository = registry === 'docker.io' && !rest.includes('/') ? `library/${rest}` : rest;
  return { registry, repository, tag };
}

async function resolveDigest(image: string, fetchImpl: typeof fetch = fetch): Promise<string> {
  const ref = parseImage(image);
  if (!ref) return image;
  const host = ref.registry === 'docker.io' ? 'registry-1.docker.io' : ref.registry;
  const scheme = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(host) ? 'http' : 'https';
  const url = `${scheme}://${host}/v2/${ref.repository}/manifests/${ref.tag}`;
  const fail = (why: string): UserError =>
    new UserError(
      `--use-image-digests: cannot resolve ${image} to a digest (${why}); check the image exists and the registry is reachable, or leave --use-image-digests out`,
    );
  try {
    let res = await fetchImpl(url, { method: 'HEAD', headers: { Accept: ACCEPT } });
    if (res.status === 401) {
      const token = await bearerToken(res.headers.get('www-authenticate') ?? '', fetchImpl);
      if (token !== undefined)
        res = await fetchImpl(url, { method: 'HEAD', headers: { Accept: ACCEPT, Authorization: `Bearer ${token}` } });
    }
    const digest = res.headers.get('docker-content-digest');
    if (!res.ok || digest === null)
      throw fail(`the registry answered ${res.status}${digest === null && res.ok ? ' without a digest' : ''}`);
    const name = image.slice(0, image.length - (image.endsWith(`:${ref.tag}`) ? ref.tag.length + 1 : 0));
    return `${name}@${digest}`;
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw fail((error as Error).message);
  }
}

async function bearerToken(challenge: string, fetchImpl: typeof fetch): Promise<string | undefined> {
  if (!/^Bearer /i.test(challenge)) return undefined;
  const params = Object.fromEntries([...challenge.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
  if (!params['realm']) return undefined;
  const url = new URL(params['realm']);
  for (const key of ['service', 'scope']) if (params[key]) url.searchParams.set(key, params[key]);
  const res = await fetchImpl(url);
  if (!res.ok) return undefined;
  const body = (await res.json()) as { token?: string; access_token?: string };
  return body.token ?? body.access_token;
}

/**
 * Pins every image the CSV names (its Deployments' containers and init containers, their
 * RELATED_IMAGE_* variables, the `containerImage` annotation, spec.relatedImages), then lists them
 * all in spec.relatedImages by name, as operator-sdk's pinning does (sorted by name here; operator-sdk's
 * order varies from run to run).
 */
export async function pinImageDigests(
  csv: Csv,
  _collected: Collected,
  _env: NodeJS.ProcessEnv,
  fetchImpl: typeof fetch = fetch,
): Promise<void> {
  const cache = new Map<string, Promise<string>>();
  const pin = (image: string): Promise<string> => {
    if (!cache.has(image)) cache.set(image, resolveDigest(image, fetchImpl));
    return cache.get(image)!;
  };
  const named: Array<{ name: string; holder: Record<string, unknown>; key: string }> = [];
  for (const r of list(csv.spec['relatedImages']))
    if (isObj(r) && typeof r['image'] === 'string')
      named.push({ name: String(r['name'] ?? '').trim(), holder: r, key: 'image' });
  for (const d of list(obj(obj(csv.spec.install)['spec'])['deployments']).map(obj)) {
    const pod = obj(obj(obj(d['spec'])['template'])['spec']);
    for (const c of [...list(pod['containers']), ...list(pod['initContainers'])]) {
      if (!isObj(c)) continue;
      if (typeof c['image'] === 'string') named.push({ name: String(c['name'] ?? '').trim(), holder: c, key: 'image' });
      for (const e of list(c['env'])) {
        if (
          isObj(e) &&
          typeof e['name'] === 'string' &&
          e['name'].startsWith('RELATED_IMAGE_') &&
          typeof e['value'] === 'string'
        ) {
          named.push({ name: e['name'].slice('RELATED_IMAGE_'.length).toLowerCase().trim(), holder: e, key: 'value' });
        }
      }
    }
  }
  for (const n of named) n.holder[n.key] = await pin(n.holder[n.key] as string);
  const annotations = csv.metadata.annotations;
  if (annotations?.['containerImage'] !== undefined)
    annotations['containerImage'] = await pin(annotations['containerImage']);
  const byName = new Map<string, string>();
  for (const n of named) {
    const image = n.holder[n.key] as string;
    const known = byName.get(n.name);
    if (known !== undefined && known !== image)
      throw new UserError(
        `--use-image-digests: two images are named '${n.name}' (${known} and ${image}); give the containers or RELATED_IMAGE_ variables distinct names`,
      );
    byName.set(n.name, image);
  }
  if (byName.size > 0)
    csv.spec['relatedImages'] = [...byName]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, image]) => ({ image, name }));
}
