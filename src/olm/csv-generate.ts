/**
 * The bundle's ClusterServiceVersion from the collected manifests and a base, as operator-sdk's
 * `generate bundle` makes it: name and version from --version; the install strategy from the
 * Deployments, with permissions (Roles and ClusterRoles bound in a namespace) and cluster
 * permissions (ClusterRoles bound cluster-wide) per service account the Deployments run as; owned
 * CRDs for every version of every CRD, keeping the base's descriptions; the samples as
 * alm-examples; admission and conversion webhooks as webhook definitions; related images from
 * RELATED_IMAGE_* variables. Pure: the caller supplies the time for `createdAt`.
 */
import { UserError } from '../errors.js';
import { newBaseCsv, csvName, type CrdDescription, type Csv } from './csv.js';
import { serviceAccountOf, type Collected } from './collector.js';
import { parseSemver } from './semver.js';
import { csvVersionMessage, csvVersionProblem, csvVersionText } from './csv-version.js';
import { isObj, list, nameOf, obj, str, type Obj } from './objects.js';

export interface CsvGenerateOptions {
  packageName: string;
  version?: string;
  /** The base from config/manifests/bases when the input had no CSV of the package. */
  fallbackBase?: Csv;
  /** RFC 3339 time written to metadata.annotations.createdAt. */
  now: string;
  /** Annotations tsop stamps on the CSV (its builder and project layout). */
  annotations: Record<string, string>;
}

export function generateCsv(c: Collected, opts: CsvGenerateOptions): Csv {
  const found = c.csvs.find((csv) => str(obj(csv['metadata'])['name']).startsWith(`${opts.packageName}.`));
  const csv = structuredClone(found ?? opts.fallbackBase ?? newBaseCsv(opts.packageName));
  // Decoded as OLM decodes it (operator-sdk stops here too), and written back as OLM writes it.
  const problem = csvVersionProblem(csv.spec.version);
  if (problem !== undefined)
    throw new UserError(
      csvVersionMessage(`generate bundle: ClusterServiceVersion ${csv.metadata.name}`, csv.spec.version, problem),
    );
  if (typeof csv.spec.version === 'string') csv.spec.version = csvVersionText(csv.spec.version);
  if (opts.version !== undefined) {
    if (parseSemver(opts.version) === undefined) throw badVersion(opts.version);
    csv.metadata.name = csvName(opts.packageName, opts.version);
    csv.spec.version = opts.version;
  }
  const related = relatedImages(c.deployments);
  if (related.length > 0) csv.spec['relatedImages'] = related;
  else delete csv.spec['relatedImages'];
  const install = obj(csv.spec.install);
  const strategy = str(install['strategy']) || 'deployment';
  if (strategy === 'deployment') {
    const sas = new Set(c.deployments.map(serviceAccountOf));
    install['spec'] = {
      ...obj(install['spec']),
      permissions: permissions(sas, c.roleBindings, [...c.roles, ...c.clusterRoles]),
      clusterPermissions: permissions(sas, c.clusterRoleBindings, c.clusterRoles),
      deployments: c.deployments.map(deploymentSpec),
    };
    const spec = obj(install['spec']);
    for (const key of ['permissions', 'clusterPermissions'] as const)
      if (list(spec[key]).length === 0) delete spec[key];
  }
  csv.spec.install = { ...install, strategy };
  csv.metadata.annotations = {
    ...(csv.metadata.annotations ?? {}),
    createdAt: opts.now,
    'alm-examples': JSON.stringify(c.customResources, null, 2),
    ...opts.annotations,
  };
  csv.spec.customresourcedefinitions = {
    ...(csv.spec.customresourcedefinitions ?? {}),
    owned: ownedCrds(c.crds, csv.spec.customresourcedefinitions?.owned ?? []),
  };
  const webhooks = webhookDefinitions(c);
  if (webhooks.length > 0) csv.spec['webhookdefinitions'] = webhooks;
  else delete csv.spec['webhookdefinitions'];
  return csv;
}

export function badVersion(version: string): UserError {
  return new UserError(
    `--version: '${version}' is not a semantic version (MAJOR.MINOR.PATCH, e.g. 0.0.1, no leading 'v'); OLM orders bundles by it`,
  );
}

/** Rules of the roles each of the Deployments' service accounts is bound to, one entry per account, sorted. */
function permissions(accounts: ReadonlySet<string>, bindings: readonly Obj[], roles: readonly Obj[]): Obj[] {
  const rulesBySa = new Map<string, unknown[]>();
  for (const binding of bindings) {
    const ref = obj(binding['roleRef']);
    const role = roles.find((r) => nameOf(r) === str(ref['name']) && r['kind'] === str(ref['kind']));
    if (!role) continue;
    for (const subject of list(binding['subjects']).map(obj)) {
      if (subject['kind'] !== 'ServiceAccount' || !accounts.has(str(subject['name']))) continue;
      const sa = str(subject['name']);
      rulesBySa.set(sa, [...(rulesBySa.get(sa) ?? []), ...list(role['rules'])]);
    }
  }
  return [...rulesBySa]
    .filter(([, rules]) => rules.length > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([serviceAccountName, rules]) => ({ rules, serviceAccountName }));
}

function deploymentSpec(d: Obj): Obj {
  const labels = obj(d['metadata'])['labels'];
  const spec = structuredClone(obj(d['spec']));
  // What Go's round trip of a Deployment writes even when empty.
  if (!isObj(spec['strategy'])) spec['strategy'] = {};
  for (const container of [
    ...list(obj(obj(spec['template'])['spec'])['containers']),
    ...list(obj(obj(spec['template'])['spec'])['initContainers']),
  ]) {
    if (!isObj(container)) continue;
    if (!isObj(container['resources'])) container['resources'] = {};
    // OLM tells the operator which namespaces it serves through this annotation of its pod.
    container['env'] = list(container['env']).map((e) =>
      isObj(e) && e['name'] === 'WATCH_NAMESPACE'
        ? {
            name: 'WATCH_NAMESPACE',
            valueFrom: { fieldRef: { fieldPath: "metadata.annotations['olm.targetNamespaces']" } },
          }
        : e,
    );
    if (list(container['env']).length === 0) delete container['env'];
    // Go drops empty lists (omitempty), e.g. what the overlay's certificate patch leaves behind.
    for (const key of ['volumeMounts', 'ports', 'args', 'command'])
      if (Array.isArray(container[key]) && list(container[key]).length === 0) delete container[key];
  }
  const pod = obj(obj(spec['template'])['spec']);
  for (const key of ['volumes', 'initContainers', 'imagePullSecrets', 'tolerations'])
    if (Array.isArray(pod[key]) && list(pod[key]).length === 0) delete pod[key];
  return { name: nameOf(d), spec, ...(isObj(labels) ? { label: labels } : {}) };
}

function ownedCrds(crds: readonly Obj[], existing: readonly CrdDescription[]): CrdDescription[] {
  const out: CrdDescription[] = [];
  for (const crd of crds) {
    const spec = obj(crd['spec']);
    const kind = str(obj(spec['names'])['kind']);
    for (const v of list(spec['versions']).map(obj)) {
      const version = str(v['name']);
      const known = existing.find((d) => d.name === nameOf(crd) && d.version === version && d.kind === kind);
      out.push(known ?? { kind, name: nameOf(crd), version });
    }
  }
  return out;
}

function relatedImages(deployments: readonly Obj[]): Obj[] {
  const found: Array<{ name: string; image: string; ref: string }> = [];
  for (const d of deployments) {
    const pod = obj(obj(obj(d['spec'])['template'])['spec']);
    const containers = [...list(pod['containers']), ...list(pod['initContainers'])].map(obj);
    for (const c of containers) {
      const ref = containers.length > 1 ? `${nameOf(d)}-${str(c['name'])}` : nameOf(d);
      for (const env of list(c['env']).map(obj)) {
        const name = str(env['name']);
        if (!name.startsWith('RELATED_IMAGE_')) continue;
        if (env['valueFrom'] !== undefined)
          throw new UserError(
            `${nameOf(d)}: ${name} takes its value from valueFrom; related images need a literal value (the image reference)`,
          );
        const short = name.slice('RELATED_IMAGE_'.length).replaceAll('_', '-').toLowerCase();
        if (!found.some((f) => f.name === short && f.image === str(env['value'])))
          found.push({ name: short, image: str(env['value']), ref });
      }
    }
  }
  const out: Obj[] = [];
  for (const f of found) {
    const sameImage = found.filter((g) => g.image === f.image);
    if (sameImage.length > 1 && sameImage[0]!.name !== f.name) continue;
    const name =
      sameImage.length > 1 ? '' : found.filter((g) => g.name === f.name).length > 1 ? `${f.ref}-${f.name}` : f.name;
    out.push({ image: f.image, name });
  }
  return out;
}

function webhookDefinitions(c: Collected): Obj[] {
  const out: Obj[] = [];
  for (const [type, hooks] of [
    ['ValidatingAdmissionWebhook', c.validatingWebhooks],
    ['MutatingAdmissionWebhook', c.mutatingWebhooks],
  ] as const) {
    for (const hook of hooks) {
      const d: Obj = { type, generateName: str(hook['name']) };
      for (const key of [
        'rules',
        'failurePolicy',
        'matchPolicy',
        'objectSelector',
        'sideEffects',
        'timeoutSeconds',
        'admissionReviewVersions',
        ...(type === 'MutatingAdmissionWebhook' ? ['reinvocationPolicy'] : []),
      ]) {
        if (hook[key] !== undefined) d[key] = hook[key];
      }
      if (list(d['admissionReviewVersions']).length === 0) d['admissionReviewVersions'] = ['v1beta1'];
      if (d['sideEffects'] === undefined) d['sideEffects'] = 'None';
      const ref = obj(obj(hook['clientConfig'])['service']);
      if (Object.keys(ref).length > 0) {
        const { deployment, service } = deploymentForService(c, str(ref['name']));
        placePorts(d, service, typeof ref['port'] === 'number' ? ref['port'] : 443);
        d['deploymentName'] = deployment || str(ref['name']).replace(/-service$/, '');
        if (ref['path'] !== undefined) d['webhookPath'] = ref['path'];
      }
      out.push(d);
    }
  }
  out.push(...conversionDefinitions(c));
  return out.sort((a, b) =>
    str(a['generateName']) < str(b['generateName']) ? -1 : str(a['generateName']) > str(b['generateName']) ? 1 : 0,
  );
}

function placePorts(d: Obj, service: Obj | undefined, port: number): void {
  const match = list(obj(service?.['spec'])['ports'])
    .map(obj)
    .find((p) => p['port'] === port);
  if (!match) return;
  d['containerPort'] = match['port'];
  if (match['targetPort'] !== undefined) d['targetPort'] = match['targetPort'];
}

function deploymentForService(c: Collected, name: string): { deployment: string; service?: Obj } {
  const service = c.services.find((s) => nameOf(s) === name);
  if (!service) return { deployment: '' };
  const spec = obj(service['spec']);
  const selector = obj(spec['selector']);
  if (spec['type'] === 'ExternalName' || Object.keys(selector).length === 0) return { deployment: '', service };
  return { deployment: deploymentSelectedBy(c, selector), service };
}

function deploymentSelectedBy(c: Collected, selector: Obj): string {
  for (const d of c.deployments) {
    const labels = obj(obj(obj(obj(d['spec'])['template'])['metadata'])['labels']);
    if (Object.keys(labels).length === 0) continue;
    if (Object.entries(selector).every(([k, v]) => labels[k] === v)) return nameOf(d);
  }
  return '';
}

/** One conversion webhook definition per (service port, path), naming the CRDs converted there. */
function conversionDefinitions(c: Collected): Obj[] {
  const out: Obj[] = [];
  for (const service of c.services) {
    const groups = new Map<string, { crds: string[]; config: Obj; port?: number; path: string }>();
    for (const crd of c.crds) {
      const webhook = obj(obj(obj(crd['spec'])['conversion'])['webhook']);
      const ref = obj(obj(webhook['clientConfig'])['service']);
      if (str(ref['name']) !== nameOf(service) || nameOf(service) === '') continue;
      const port = typeof ref['port'] === 'number' ? ref['port'] : undefined;
      const key = `${port ?? ''}|${str(ref['path'])}`;
      const group = groups.get(key) ?? {
        crds: [],
        config: webhook,
        path: str(ref['path']),
        ...(port !== undefined ? { port } : {}),
      };
      group.crds.push(nameOf(crd));
      groups.set(key, group);
    }
    for (const group of groups.values()) {
      const crds = [...group.crds].sort();
      const d: Obj = {
        type: 'ConversionWebhook',
        conversionCRDs: crds,
        admissionReviewVersions: group.config['conversionReviewVersions'],
        webhookPath: group.path,
        generateName: `c${crds.map((n) => n.split('.')[0]).join('')}.kb.io`,
        sideEffects: 'None',
      };
      if (d['admissionReviewVersions'] === undefined) delete d['admissionReviewVersions'];
      placePorts(d, service, group.port ?? 443);
      const selector = obj(obj(service['spec'])['selector']);
      const deployment = deploymentSelectedBy(c, selector);
      d['deploymentName'] = deployment || nameOf(service).replace(/-service$/, '');
      out.push(d);
    }
  }
  return out;
}
