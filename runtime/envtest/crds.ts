/**
 * Installing CRDs into a control plane: read them from files or directories (YAML, several
 * documents per file, other kinds ignored, like envtest), create or update each, then poll
 * discovery until every served version is there.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { send, waitFor, type TlsIdentity } from './http.js';

export interface CustomResourceDefinition {
  apiVersion: string;
  kind: 'CustomResourceDefinition';
  metadata: { name: string; resourceVersion?: string; [key: string]: unknown };
  spec: {
    group: string;
    names: { plural: string; kind: string; [key: string]: unknown };
    versions: { name: string; served: boolean; storage?: boolean; [key: string]: unknown }[];
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

function manifestFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((f) => MANIFEST_EXTENSIONS.has(extname(f)))
    .sort()
    .map((f) => join(path, f))
    .filter((f) => statSync(f).isFile());
}

/** Every CustomResourceDefinition found in the given files and directories. */
export function readCRDs(paths: readonly string[]): CustomResourceDefinition[] {
  const crds: CustomResourceDefinition[] = [];
  for (const file of paths.flatMap(manifestFiles)) {
    for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message ?? 'invalid YAML'}`);
      const value: unknown = doc.toJS();
      if (isCRD(value)) crds.push(value);
    }
  }
  return crds;
}

function isCRD(value: unknown): value is CustomResourceDefinition {
  return (
    typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'CustomResourceDefinition'
  );
}

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

export async function installCRDs(
  server: string,
  tls: TlsIdentity,
  crds: readonly CustomResourceDefinition[],
  timeoutMs: number,
): Promise<void> {
  for (const crd of crds) {
    const created = await send(`${server}${CRD_PATH}`, { method: 'POST', body: crd, tls });
    if (created.status === 409) {
      const existing = await send(`${server}${CRD_PATH}/${crd.metadata.name}`, { tls });
      const resourceVersion = (JSON.parse(existing.body) as CustomResourceDefinition).metadata.resourceVersion;
      const updated = await send(`${server}${CRD_PATH}/${crd.metadata.name}`, {
        method: 'PUT',
        body: { ...crd, metadata: { ...crd.metadata, resourceVersion } },
        tls,
      });
      if (updated.status >= 300)
        throw new Error(`updating CRD ${crd.metadata.name} failed (${updated.status}): ${updated.body}`);
    } else if (created.status >= 300) {
      throw new Error(`creating CRD ${crd.metadata.name} failed (${created.status}): ${created.body}`);
    }
  }
  for (const crd of crds) await waitForServed(server, tls, crd, timeoutMs);
}

/** Polls discovery until every served version of `crd` lists its plural. */
async function waitForServed(
  server: string,
  tls: TlsIdentity,
  crd: CustomResourceDefinition,
  timeoutMs: number,
): Promise<void> {
  for (const version of crd.spec.versions.filter((v) => v.served)) {
    const groupVersion = `${crd.spec.group}/${version.name}`;
    await waitFor(`CRD ${crd.metadata.name} to be served at ${groupVersion}`, timeoutMs, async () => {
      const res = await send(`${server}/apis/${groupVersion}`, { tls });
      if (res.status !== 200) return false;
      const list = JSON.parse(res.body) as { resources?: { name: string }[] };
      return (list.resources ?? []).some((r) => r.name === crd.spec.names.plural);
    });
  }
}

function isEstablished(crd: CustomResourceDefinition): boolean {
  return ((crd['status'] as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some(
    (c) => c.type === 'Established' && c.status === 'True',
  );
}

/**
 * Waits until the API server has set Established=True on each named CRD (every CRD when `names`
 * is empty) and discovery serves each of its served versions: what a CRD applied by other means
 * (kubectl, helm, an operator) needs before objects of its kind can be written. Reads the
 * condition the API server sets, so a CRD read before it has any status is simply not ready yet.
 */
export async function waitForEstablished(
  server: string,
  tls: TlsIdentity,
  names: readonly string[],
  timeoutMs: number,
): Promise<void> {
  const wanted = async (): Promise<CustomResourceDefinition[]> => {
    if (names.length > 0) {
      return Promise.all(
        names.map(async (name) => {
          const res = await send(`${server}${CRD_PATH}/${name}`, { tls });
          if (res.status === 404) throw new Error(`CRD ${name} does not exist; apply it before waiting for it`);
          if (res.status !== 200) throw new Error(`reading CRD ${name} failed (${res.status}): ${res.body}`);
          return JSON.parse(res.body) as CustomResourceDefinition;
        }),
      );
    }
    const res = await send(`${server}${CRD_PATH}`, { tls });
    if (res.status !== 200) throw new Error(`listing CRDs failed (${res.status}): ${res.body}`);
    return (JSON.parse(res.body) as { items: CustomResourceDefinition[] }).items;
  };
  let crds: CustomResourceDefinition[] = [];
  await waitFor(`CRDs ${names.length > 0 ? names.join(', ') : '(all)'} to be Established`, timeoutMs, async () => {
    crds = await wanted();
    return crds.every(isEstablished);
  });
  for (const crd of crds) await waitForServed(server, tls, crd, timeoutMs);
}

/**
 * Waits until every established CRD in the API server answers a list request. After a restart,
 * /readyz turns ok before the CRDs' handlers are installed, and requests in between get 503
 * ("before all known HTTP paths have been installed") or 404.
 */
export async function waitForCustomResources(server: string, tls: TlsIdentity, timeoutMs: number): Promise<void> {
  let crds: CustomResourceDefinition[] = [];
  await waitFor('the list of CRDs', timeoutMs, async () => {
    const res = await send(`${server}${CRD_PATH}`, { tls });
    if (res.status !== 200) return false;
    crds = (JSON.parse(res.body) as { items: CustomResourceDefinition[] }).items;
    return true;
  });
  for (const crd of crds.filter(isEstablished)) {
    for (const version of crd.spec.versions.filter((v) => v.served))
      await waitForList(server, tls, crd, version.name, 'served again', timeoutMs);
  }
}

/**
 * Waits until a list of `crd`'s objects in `version` answers 200. The API server makes a kind's
 * storage on the first request for it and answers 404, 503 or 429 ("storage is (re)initializing")
 * until its handler and watch cache are there.
 */
export async function waitForList(
  server: string,
  tls: TlsIdentity,
  crd: CustomResourceDefinition,
  version: string,
  what: string,
  timeoutMs: number,
): Promise<void> {
  const path = `/apis/${crd.spec.group}/${version}/${crd.spec.names.plural}?limit=1`;
  await waitFor(
    `${path} to be ${what}`,
    timeoutMs,
    async () => (await send(`${server}${path}`, { tls })).status === 200,
    50,
  );
}
