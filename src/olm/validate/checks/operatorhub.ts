/**
 * OperatorHub's metadata checks (operatorhubv2, and the deprecated operatorhub which also checks
 * capabilities and categories), the capabilities and categories validators on their own, and the
 * good-practices validator.
 */
import type { Check, CheckContext } from '../check.js';
import {
  invalidCsv,
  warnDeprecatedValidator,
  warnFailedValidation,
  errFailedValidation,
  type Finding,
} from '../finding.js';
import { MIN_KUBE_VERSION_WARNING } from './csv.js';
import { isZero, parseSemver, parseSemverTolerant } from '../../semver.js';
import { deprecatedApiFindings } from './deprecated-apis.js';
import { list, obj, str } from '../../objects.js';

const MEDIA_TYPES = new Set(['image/gif', 'image/jpeg', 'image/png', 'image/svg+xml']);
const CAPABILITIES = new Set(['Basic Install', 'Seamless Upgrades', 'Full Lifecycle', 'Deep Insights', 'Auto Pilot']);
const CATEGORIES = new Set([
  'AI/Machine Learning',
  'Application Runtime',
  'Big Data',
  'Cloud Provider',
  'Developer Tools',
  'Database',
  'Integration & Delivery',
  'Logging & Tracing',
  'Monitoring',
  'Modernization & Migration',
  'Networking',
  'OpenShift Optional',
  'Security',
  'Storage',
  'Streaming & Messaging',
  'Observability',
]);

interface Messages {
  errs: string[];
  warns: string[];
}

function provider(spec: Record<string, unknown>, m: Messages): void {
  if (str(obj(spec['provider'])['name']).trim() === '') m.errs.push('csv.Spec.Provider.Name not specified');
}

function maintainers(spec: Record<string, unknown>, m: Messages): void {
  for (const maintainer of list(spec['maintainers']).map(obj)) {
    if (str(maintainer['name']) === '' || str(maintainer['email']) === '')
      m.errs.push('csv.Spec.Maintainers elements should contain both name and email');
    const email = str(maintainer['email']);
    const problem = email === '' ? undefined : mailProblem(email);
    if (problem) m.errs.push(`csv.Spec.Maintainers email ${email} is invalid: ${problem}`);
  }
}

function links(spec: Record<string, unknown>, m: Messages): void {
  for (const link of list(spec['links']).map(obj)) {
    if (str(link['name']) === '' || str(link['url']) === '')
      m.errs.push('csv.Spec.Links elements should contain both name and url');
    const url = str(link['url']);
    if (url !== '' && !/^([a-zA-Z][a-zA-Z0-9+.-]*:|\/)/.test(url))
      m.errs.push(`csv.Spec.Links url ${url} is invalid: parse "${url}": invalid URI for request`);
  }
}

function version(spec: Record<string, unknown>, m: Messages): void {
  // The bundle loaded, so the version decodes (tolerantly, as OLM reads it); 0.0.0 is "not set".
  if (isZero(parseSemverTolerant(str(spec['version'])))) m.errs.push('csv.Spec.Version must be set');
}

function icon(spec: Record<string, unknown>, m: Messages): void {
  const icons = spec['icon'];
  if (!Array.isArray(icons)) {
    m.warns.push('csv.Spec.Icon not specified');
    return;
  }
  if (icons.length !== 1) m.errs.push('csv.Spec.Icon should only have one element');
  const first = obj(icons[0]);
  if (str(first['mediatype']) === '' || str(first['base64data']) === '')
    m.errs.push('csv.Spec.Icon elements should contain both data and mediatype');
  if (str(first['mediatype']) !== '' && !MEDIA_TYPES.has(str(first['mediatype'])))
    m.errs.push(`csv.Spec.Icon ${str(first['mediatype'])} does not have a valid mediatype`);
}

function minKube(spec: Record<string, unknown>, m: Messages): void {
  const v = str(spec['minKubeVersion']);
  if (v.trim() === '') m.warns.push(MIN_KUBE_VERSION_WARNING);
  else if (parseSemver(v) === undefined) m.errs.push(`csv.Spec.MinKubeVersion has an invalid value: ${v}`);
}

function capabilities(annotations: Record<string, unknown>, m: Messages): void {
  if ('capabilities' in annotations && !CAPABILITIES.has(str(annotations['capabilities'])))
    m.errs.push(
      `csv.Metadata.Annotations.Capabilities "${str(annotations['capabilities'])}" is not a valid capabilities level`,
    );
}

function categories(annotations: Record<string, unknown>, m: Messages): void {
  if (!('categories' in annotations)) return;
  for (const c of str(annotations['categories']).split(',')) {
    if (!CATEGORIES.has(c.trim()))
      m.errs.push(`csv.Metadata.Annotations["categories"] value "${c}" is not in the set of standard categories`);
  }
}

/** Go's net/mail for the cases that matter in a CSV: a plain address needs a local part, '@' and a domain. */
function mailProblem(address: string): string | undefined {
  const angle = /<([^>]*)>\s*$/.exec(address);
  const addr = (angle ? angle[1]! : address).trim();
  const at = addr.lastIndexOf('@');
  if (at < 0) return angle ? 'mail: missing @ in addr-spec' : "mail: missing '@' or angle-addr";
  if (at === 0) return 'mail: invalid string';
  if (at === addr.length - 1) return 'mail: no domain in addr-spec';
  return undefined;
}

function run(
  ctx: CheckContext,
  parts: Array<(spec: Record<string, unknown>, m: Messages, annotations: Record<string, unknown>) => void>,
  deprecated: boolean,
): Finding[] {
  const csv = ctx.bundle.csv;
  if (!csv) return [];
  const m: Messages = { errs: [], warns: [] };
  const annotations = obj(csv.metadata.annotations);
  for (const part of parts) part(csv.spec, m, annotations);
  const name = str(obj(csv.metadata)['name']);
  const out = [
    ...m.errs.map((e) => invalidCsv('Error', e, name)),
    ...m.warns.map((w) => invalidCsv('Warning', w, name)),
  ];
  if (deprecated) out.push(...deprecatedApiFindings(ctx, name));
  return out;
}

export const OPERATORHUB_V2_CHECKS: Check[] = [
  {
    id: 'operatorhub-metadata',
    validator: 'OperatorHubV2Validator',
    level: 'Error or Warning',
    doc: 'provider name, maintainers (name and email), links (name and URL), spec.version, one icon with data and an image media type, minKubeVersion; and the deprecated-API checks',
    run: (ctx) => run(ctx, [provider, maintainers, links, version, icon, minKube], true),
  },
];

export const OPERATORHUB_DEPRECATED_CHECKS: Check[] = [
  {
    id: 'operatorhub-metadata-v1',
    validator: 'OperatorHubValidator',
    level: 'Error or Warning',
    doc: 'operatorhubv2 plus capabilities and categories; says it is deprecated',
    run: (ctx) => [
      ...run(
        ctx,
        [
          provider,
          maintainers,
          links,
          (_s, m, a) => capabilities(a, m),
          (_s, m, a) => categories(a, m),
          version,
          icon,
          minKube,
        ],
        true,
      ),
      warnDeprecatedValidator(
        'The "operatorhub" validator is deprecated; for equivalent validation use "operatorhub/v2", "standardcapabilities" and "standardcategories" validators',
      ),
    ],
  },
];

export const CAPABILITIES_CHECKS: Check[] = [
  {
    id: 'capabilities',
    validator: 'StandardCapabilitiesValidator',
    level: 'Error',
    doc: 'the capabilities annotation is one of the five levels',
    run: (ctx) => run(ctx, [(_s, m, a) => capabilities(a, m)], false),
  },
];

export const CATEGORIES_CHECKS: Check[] = [
  {
    id: 'categories',
    validator: 'StandardCategoriesValidator',
    level: 'Error',
    doc: "each of the categories annotation's values is a standard category",
    run: (ctx) => run(ctx, [(_s, m, a) => categories(a, m)], false),
  },
];

export const GOOD_PRACTICES_CHECKS: Check[] = [
  {
    id: 'good-practices',
    validator: 'GoodPracticesValidator',
    level: 'Error or Warning',
    doc: 'a Deployment to install, resource requests on every container, descriptions on owned CRDs, channel names, no permission to create CRDs, a <name>.v<semver> CSV name',
    run({ bundle }) {
      const csv = bundle.csv;
      if (!csv) return [];
      const name = str(obj(csv.metadata)['name']);
      const errs: string[] = [];
      const warns: string[] = [];
      const strategy = obj(obj(csv.spec['install'])['spec']);
      const deployments = strategy['deployments'];
      if (!Array.isArray(deployments)) errs.push('unable to find a deployment to install in the CSV');
      else {
        for (const d of deployments.map(obj)) {
          for (const c of list(obj(obj(obj(d['spec'])['template'])['spec'])['containers']).map(obj)) {
            if (obj(c['resources'])['requests'] === undefined) {
              warns.push(
                [
                  `unable to find the resource requests for the container: (${str(c['name'])}). It is recommended to`,
                  `ensure the resource request for CPU and Memory. Be aware that for some clusters configurations it is`,
                  `required to specify requests or limits for those values. Otherwise, the system or quota may reject`,
                  `Pod creation. More info:`,
                  `https://master.sdk.operatorframework.io/docs/best-practices/managing-resources/`,
                ].join(' '),
              );
            }
          }
        }
      }
      for (const [relation, key] of [
        ['owned', 'owned'],
        ['required', 'required'],
      ] as const) {
        for (const d of list(obj(csv.spec['customresourcedefinitions'])[key]).map(obj))
          if (str(d['description']) === '') warns.push(`${relation} CRD "${str(d['name'])}" has an empty description`);
      }
      const channels = [...new Set([...bundle.channels, bundle.defaultChannel].map((c) => c.trim()))].filter(
        (c) => c !== '' && !/^(candidate|stable|fast)/.test(c),
      );
      if (channels.length > 0)
        warns.push(
          `channel(s) [${channels.map((c) => JSON.stringify(c)).join(' ')}] are not following the recommended naming convention: https://olm.operatorframework.io/docs/best-practices/channel-naming`,
        );
      const createsCrds = [...list(strategy['permissions']), ...list(strategy['clusterPermissions'])].some((p) =>
        list(obj(p)['rules'])
          .map(obj)
          .some(
            (r) =>
              list(r['apiGroups']).includes('apiextensions.k8s.io') &&
              list(r['resources']).some((x) => ['customresourcedefinitions', '*', '[*]'].includes(String(x))) &&
              list(r['verbs']).some((v) => ['create', '*', '[*]', 'patch'].includes(String(v))),
          ),
      );
      if (createsCrds) {
        warns.push(
          [
            "CSV contains permissions to create CRD. An Operator shouldn't deploy or manage other operators (such",
            "patterns are known as meta or super operators or include CRDs in its Operands). It's the Operator",
            "Lifecycle Manager's job to manage the deployment and lifecycle of operators.  Please, review the",
            'design of your solution and if you should not be using Dependency Resolution from OLM instead. More',
            'info: https://sdk.operatorframework.io/docs/best-practices/common-recommendation/',
          ].join(' '),
        );
      }
      const semverTail =
        /([0-9]+)\.([0-9]+)\.([0-9]+)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+)?$/.exec(name);
      if (!semverTail || parseSemver(semverTail[0]) === undefined)
        warns.push(
          `csv.metadata.Name ${name} is not following the versioning convention (MAJOR.MINOR.PATCH e.g 0.0.1): https://semver.org/`,
        );
      if (name.split('.v').length !== 2)
        warns.push(
          `csv.metadata.Name ${name} is not following the recommended naming convention: <operator-name>.v<semver> e.g. memcached-operator.v0.0.1`,
        );
      return [...errs.map((e) => errFailedValidation(e, name)), ...warns.map((w) => warnFailedValidation(w, name))];
    },
  },
];
