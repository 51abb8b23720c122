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
    versions: { name: string; served: boolean; [key: string]: unknown }[];
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
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'CustomResourceDefinition';
}

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

export async function installCRDs(server: string, tls: TlsIdentity, crds: readonly CustomResourceDefinition[], timeoutMs: number): Promise<void> {
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
      if (updated.status >= 300) throw new Error(`updating CRD ${crd.metadata.name} failed (${updated.status}): ${updated.body}`);
    } else if (created.status >= 300) {
      throw new Error(`creating CRD ${crd.metadata.name} failed (${created.status}): ${created.body}`);
    }
  }
  for (const crd of crds) {
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
}
