/**
 * The Kubernetes-version deprecation checks (alpha-deprecated-apis, also run by operatorhub):
 * objects of APIs removed in 1.22, 1.25 and 1.26. An error when the bundle targets that version
 * or later (--optional-values k8s-version=…, or spec.minKubeVersion), a warning otherwise.
 */
import type { Check, CheckContext } from '../check.js';
import { errFailedValidation, goQuoteList, warnFailedValidation, type Finding } from '../finding.js';
import { compareSemver, parseSemverTolerant, type SemVer } from '../../semver.js';
import { list, obj, str, type Obj } from '../../objects.js';

const REMOVED_122: Record<string, string[]> = {
  'scheduling.k8s.io/v1beta1': ['PriorityClass'],
  'rbac.authorization.k8s.io/v1beta1': ['Role', 'ClusterRoleBinding', 'RoleBinding', 'ClusterRole'],
  'apiregistration.k8s.io/v1beta1': ['APIService'],
  'authentication.k8s.io/v1beta1': ['TokenReview'],
  'authorization.k8s.io/v1beta1': ['LocalSubjectAccessReview', 'SelfSubjectAccessReview', 'SubjectAccessReview'],
  'admissionregistration.k8s.io/v1beta1': ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'],
  'coordination.k8s.io/v1beta1': ['Lease'],
  'extensions/v1beta1': ['Ingress'],
  'networking.k8s.io/v1beta1': ['Ingress', 'IngressClass'],
  'storage.k8s.io/v1beta1': ['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment'],
  'certificates.k8s.io/v1beta1': ['CertificateSigningRequest'],
};
const REMOVED_125 = new Set([
  'batch/v1beta1/CronJob',
  'discovery.k8s.io/v1beta1/EndpointSlice',
  'events.k8s.io/v1beta1/Event',
  'autoscaling/v2beta1/HorizontalPodAutoscaler',
  'policy/v1beta1/PodDisruptionBudget',
  'policy/v1beta1/PodSecurityPolicy',
  'node.k8s.io/v1beta1/RuntimeClass',
]);
const REMOVED_125_RESOURCES = new Set([
  'batch/cronjobs',
  'discovery.k8s.io/endpointslices',
  'events.k8s.io/events',
  'autoscaling/horizontalpodautoscalers',
  'policy/poddisruptionbudgets',
  'policy/podsecuritypolicies',
  'node.k8s.io/runtimeclasses',
]);

type Found = Map<string, string[]>;
const add = (m: Found, key: string, value: string): void => void m.set(key, [...(m.get(key) ?? []), value]);

function removedIn122(objects: readonly Obj[], crds: readonly Obj[]): Found {
  const found: Found = new Map();
  const v1beta1 = crds.filter((c) => c['apiVersion'] === 'apiextensions.k8s.io/v1beta1');
  if (v1beta1.length > 0)
    found.set(
      'CRD',
      v1beta1.map((c) => str(obj(c['metadata'])['name'])),
    );
  for (const o of objects)
    if (REMOVED_122[str(o['apiVersion'])]?.includes(str(o['kind'])))
      add(found, str(o['kind']), str(obj(o['metadata'])['name']));
  return found;
}

function removedIn125(objects: readonly Obj[]): { found: Found; warned: Found } {
  const found: Found = new Map();
  const warned: Found = new Map();
  for (const o of objects) {
    if (o['apiVersion'] === 'operators.coreos.com/v1alpha1' && o['kind'] === 'ClusterServiceVersion') {
      const spec = obj(o['spec']);
      const inCrds = new Set<string>();
      for (const field of ['owned', 'required'])
        for (const d of list(obj(spec['customresourcedefinitions'])[field]).map(obj))
          for (const r of list(d['resources']).map(obj)) inCrds.add(`${str(r['kind']).toLowerCase()}s`);
      const strategy = obj(obj(spec['install'])['spec']);
      for (const [field, name] of [
        ['clusterPermissions', 'ClusterPermissions'],
        ['permissions', 'Permissions'],
      ] as const) {
        list(strategy[field]).forEach((perm, i) => {
          list(obj(perm)['rules']).forEach((rule, j) => {
            for (const group of list(obj(rule)['apiGroups']).map(String)) {
              for (const res of list(obj(rule)['resources']).map(String)) {
                if (!inCrds.has(res) && REMOVED_125_RESOURCES.has(`${group}/${res}`))
                  add(warned, res, `ClusterServiceVersion.Spec.InstallStrategy.StrategySpec.${name}[${i}].Rules[${j}]`);
              }
            }
          });
        });
      }
      continue;
    }
    if (REMOVED_125.has(`${str(o['apiVersion'])}/${str(o['kind'])}`))
      add(found, str(o['kind']), str(obj(o['metadata'])['name']));
  }
  return { found, warned };
}

function removedIn126(objects: readonly Obj[]): Found {
  const found: Found = new Map();
  for (const o of objects)
    if (o['apiVersion'] === 'autoscaling/v2beta2' && o['kind'] === 'HorizontalPodAutoscaler')
      add(found, 'HorizontalPodAutoscaler', str(obj(o['metadata'])['name']));
  return found;
}

function message(major: number, minor: number, found: Found): string {
  const apis = [...found.keys()]
    .sort()
    .map((k) => `${k}: (${goQuoteList(found.get(k)!)})`)
    .join(',');
  return [
    `this bundle is using APIs which were deprecated and removed in v${major}.${minor}. More info:`,
    `https://kubernetes.io/docs/reference/using-api/deprecation-guide/#v${major}-${minor}. Migrate the`,
    `API(s) for ${apis}`,
  ].join(' ');
}

export function deprecatedApiFindings(ctx: CheckContext, csvName: string): Finding[] {
  const given = ctx.values['k8s-version'] ?? '';
  const errs: string[] = [];
  const warns: string[] = [];
  const provided = parseSemverTolerant(given);
  if (given !== '' && provided === undefined) errs.push(`invalid value informed via the k8s key option : ${given}`);
  const minKubeText = str(ctx.bundle.csv?.spec['minKubeVersion']);
  let minKube: SemVer | undefined;
  if (minKubeText !== '') {
    minKube = parseSemverTolerant(minKubeText);
    if (minKube === undefined)
      errs.push(
        `unable to use csv.Spec.MinKubeVersion to verify the CRD/Webhook apis because it has an invalid value: ${minKubeText}`,
      );
  }
  const targets = (v: SemVer): boolean =>
    (provided !== undefined && compareSemver(provided, v) >= 0) ||
    (minKube !== undefined && compareSemver(minKube, v) >= 0);
  const at125 = removedIn125(ctx.bundle.objects);
  const steps: Array<[SemVer, Found, Found]> = [
    [
      { major: 1, minor: 22, patch: 0, pre: [], build: [] },
      removedIn122(ctx.bundle.objects, ctx.bundle.crds),
      new Map(),
    ],
    [{ major: 1, minor: 25, patch: 0, pre: [], build: [] }, at125.found, at125.warned],
    [{ major: 1, minor: 26, patch: 0, pre: [], build: [] }, removedIn126(ctx.bundle.objects), new Map()],
  ];
  for (const [v, found, warned] of steps) {
    if (found.size > 0) (targets(v) ? errs : warns).push(message(v.major, v.minor, found));
    if (warned.size > 0) warns.push(message(v.major, v.minor, warned));
  }
  return [...errs.map((e) => errFailedValidation(e, csvName)), ...warns.map((w) => warnFailedValidation(w, csvName))];
}

export const DEPRECATED_API_CHECKS: Check[] = [
  {
    id: 'deprecated-apis',
    validator: 'AlphaDeprecatedAPIsValidator',
    level: 'Error or Warning',
    doc: 'no object uses an API removed in Kubernetes 1.22, 1.25 or 1.26 (an error when k8s-version or minKubeVersion reaches that release)',
    run: (ctx) => (ctx.bundle.csv ? deprecatedApiFindings(ctx, str(obj(ctx.bundle.csv.metadata)['name'])) : []),
  },
];
