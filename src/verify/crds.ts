/**
 * The generated CRDs on the real API server: each is server-side applied for real (the plane is
 * thrown away afterwards, and a CRD must exist before its samples can be checked). A refusal's
 * causes — CEL that does not compile, rules over the cost budget, schemas that are not structural
 * — become findings at the decorator that wrote that part of the schema; the refused parts are then
 * left out and the CRD applied again, so one run finds every problem and the samples still run.
 */
import type { ApiModel, KindDef } from '../codegen/model.js';
import type { JSONValue } from '../codegen/jsonschema.js';
import { causesOf, type ApiClient, type Cause } from './api.js';
import type { Finding } from './finding.js';
import { parseSchemaPath, schemaAt, type SourceMap } from './origins.js';

export interface Crd {
  metadata: { name: string };
  spec: {
    group: string;
    scope: string;
    names: { kind: string; plural: string };
    versions: Array<{ name: string; served?: boolean; schema?: { openAPIV3Schema?: JSONValue } }>;
  };
}

/** A CRD the server accepted: what the samples step needs to address its objects. */
export interface InstalledCrd {
  group: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const ATTEMPTS = 8;

export async function installCrds(
  api: ApiClient,
  crds: Crd[],
  model: ApiModel,
  sources: SourceMap,
  findings: Finding[],
): Promise<InstalledCrd[]> {
  const installed: InstalledCrd[] = [];
  for (const crd of crds) {
    const kindOf = (version: number | undefined): KindDef | undefined => {
      const name = crd.spec.versions[version ?? 0]?.name;
      return model.kinds.find(
        (k) => k.group === crd.spec.group && k.kind === crd.spec.names.kind && k.version === name,
      );
    };
    const first = kindOf(0);
    const anchor = first?.pos ?? { file: `config/crd/bases/${crd.spec.group}_${crd.spec.names.plural}.yaml`, line: 1 };
    let accepted = false;
    for (let attempt = 0; attempt < ATTEMPTS && !accepted; attempt++) {
      const res = await api.apply(`${CRD_PATH}/${crd.metadata.name}`, crd, false);
      for (const w of res.warnings)
        findings.push({ severity: 'warning', pos: anchor, message: `${crd.spec.names.kind} CRD: ${w}` });
      if (res.status < 300) {
        accepted = true;
        break;
      }
      let causes = causesOf(res);
      // The schema's total over budget follows from a rule over budget alone: that rule is the finding.
      if (causes.some((c) => /estimated rule cost exceeds budget/.test(c.message ?? '')))
        causes = causes.filter((c) => !/rule cost total for entire OpenAPIv3 schema/.test(c.message ?? ''));
      let pruned = false;
      for (const cause of causes) {
        const found = locateCause(cause, crd, kindOf, sources, anchor);
        if (found.finding) findings.push(found.finding);
        pruned = prune(crd, cause) || pruned;
      }
      if (!pruned) break;
    }
    if (!accepted) {
      findings.push({
        severity: 'error',
        pos: anchor,
        message: `${crd.spec.names.kind}: the API server refused the CRD ${crd.metadata.name}; its samples were not checked`,
      });
      continue;
    }
    await served(api, crd);
    installed.push({
      group: crd.spec.group,
      kind: crd.spec.names.kind,
      plural: crd.spec.names.plural,
      namespaced: crd.spec.scope === 'Namespaced',
    });
  }
  return installed;
}

function locateCause(
  cause: Cause,
  crd: Crd,
  kindOf: (version: number | undefined) => KindDef | undefined,
  sources: SourceMap,
  anchor: { file: string; line: number },
): { finding?: Finding } {
  const message = cleanMessage(cause.message ?? '');
  // Each rule of an over-budget total is also named alone; the total itself is the finding.
  if (message.startsWith('Forbidden: contributed to estimated rule cost total')) return {};
  const at = cause.field ? parseSchemaPath(cause.field) : undefined;
  const kind = at ? kindOf(at.version) : undefined;
  if (!at || !kind)
    return {
      finding: {
        severity: 'error',
        pos: anchor,
        message: `${crd.spec.names.kind} CRD${cause.field ? ` ${cause.field}` : ''}: ${message}`,
      },
    };
  const rule = /^x-kubernetes-validations\[(\d+)\]/.exec(at.rest);
  const node = schemaAt(crd.spec.versions[at.version ?? 0]?.schema?.openAPIV3Schema, at.path);
  const rules = node?.['x-kubernetes-validations'];
  const ruleText =
    rule && Array.isArray(rules) ? (rules[Number(rule[1])] as { rule?: string } | undefined)?.rule : undefined;
  const keyword = at.rest.split(/[.[]/)[0] ?? '';
  const origin = sources.locate(
    kind,
    at.path,
    ruleText !== undefined ? { rule: ruleText } : keyword ? { keyword } : undefined,
  );
  // The marker first: a CEL compile error ends with a caret diagram that only its first line survives.
  const what = `${origin.marker ? `@${origin.marker} ` : ''}${ruleText !== undefined ? `rule ${JSON.stringify(ruleText)}` : at.rest || 'schema'}`;
  return {
    finding: {
      severity: 'error',
      pos: origin.pos,
      message: `${kind.kind} ${kind.version} ${at.path || '(root)'}: ${what}: ${message}`,
    },
  };
}

/** The server's text without the echo of the whole rule object it prints before the reason. */
function cleanMessage(message: string): string {
  if (message.startsWith('Invalid value: {"Rule":')) {
    const end = message.indexOf('}: ');
    if (end > 0) return message.slice(end + 3);
  }
  return message;
}

/** Leaves out the part of the schema a cause names; false when there is nothing to leave out. */
function prune(crd: Crd, cause: Cause): boolean {
  const at = cause.field ? parseSchemaPath(cause.field) : undefined;
  if (!at || at.rest === '') return false;
  const versions = at.version === undefined ? crd.spec.versions : [crd.spec.versions[at.version]];
  let done = false;
  for (const v of versions) {
    const node = schemaAt(v?.schema?.openAPIV3Schema, at.path);
    if (!node) continue;
    const rule = /^x-kubernetes-validations\[(\d+)\]/.exec(at.rest);
    const rules = node['x-kubernetes-validations'];
    if (rule && Array.isArray(rules)) {
      // Marked, not spliced: later causes of the same answer still count from the original list.
      const i = Number(rule[1]);
      if (rules[i] !== null && rules[i] !== undefined) {
        rules[i] = null;
        done = true;
      }
      continue;
    }
    const key = at.rest.split(/[.[]/)[0] ?? '';
    if (key in node) {
      delete node[key];
      done = true;
    }
  }
  for (const v of versions) compactRules(v?.schema?.openAPIV3Schema);
  return done;
}

/** Drops the rules marked null (see prune), and the list when none is left. */
function compactRules(node: JSONValue | undefined): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    for (const n of node) compactRules(n);
    return;
  }
  const rules = node['x-kubernetes-validations'];
  if (Array.isArray(rules)) {
    const kept = rules.filter((r) => r !== null);
    if (kept.length === 0) delete node['x-kubernetes-validations'];
    else node['x-kubernetes-validations'] = kept;
  }
  for (const [k, v] of Object.entries(node))
    if (k !== 'x-kubernetes-validations' && k !== 'default' && k !== 'example') compactRules(v);
}

/** Waits until discovery lists the CRD's served versions, so its samples can be sent. */
async function served(api: ApiClient, crd: Crd): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (const v of crd.spec.versions.filter((x) => x.served !== false)) {
    for (;;) {
      const res = await api.get(`/apis/${crd.spec.group}/${v.name}`);
      const list = res.body as { resources?: Array<{ name: string }> };
      if (res.status === 200 && (list.resources ?? []).some((r) => r.name === crd.spec.names.plural)) break;
      if (Date.now() > deadline)
        throw new Error(
          `CRD ${crd.metadata.name} was accepted but ${crd.spec.group}/${v.name} is not served after 30 s`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
