/**
 * The manifests a bundle is made from (kubectl kustomize config/manifests), sorted by what the CSV
 * does with them: the base CSV, RBAC and Deployments go into its install strategy, CRDs are owned,
 * webhook configurations become webhook definitions, samples of the CRDs' kinds become
 * alm-examples, the scorecard configuration goes to tests/, the rest are copied if OLM accepts
 * them. Objects repeated byte for byte are kept once, as operator-sdk does.
 */
import { CSV_KIND, type Csv } from './csv.js';
import { groupVersionOf, isObj, list, obj, str, type Obj } from './objects.js';

export interface Collected {
  csvs: Csv[];
  roles: Obj[];
  clusterRoles: Obj[];
  roleBindings: Obj[];
  clusterRoleBindings: Obj[];
  deployments: Obj[];
  serviceAccounts: Obj[];
  services: Obj[];
  crds: Obj[];
  validatingWebhooks: Obj[];
  mutatingWebhooks: Obj[];
  customResources: Obj[];
  scorecardConfig?: Obj;
  others: Obj[];
}

export function collect(docs: readonly Obj[]): Collected {
  const c: Collected = {
    csvs: [],
    roles: [],
    clusterRoles: [],
    roleBindings: [],
    clusterRoleBindings: [],
    deployments: [],
    serviceAccounts: [],
    services: [],
    crds: [],
    validatingWebhooks: [],
    mutatingWebhooks: [],
    customResources: [],
    others: [],
  };
  for (const doc of docs) {
    const { group, kind } = groupVersionOf(doc);
    if (kind === '') continue;
    const gk = `${group}/${kind}`;
    switch (gk) {
      case `operators.coreos.com/${CSV_KIND}`:
        c.csvs.push(doc as Csv);
        break;
      case 'rbac.authorization.k8s.io/Role':
        c.roles.push(doc);
        break;
      case 'rbac.authorization.k8s.io/ClusterRole':
        c.clusterRoles.push(doc);
        break;
      case 'rbac.authorization.k8s.io/RoleBinding':
        c.roleBindings.push(doc);
        break;
      case 'rbac.authorization.k8s.io/ClusterRoleBinding':
        c.clusterRoleBindings.push(doc);
        break;
      case '/ServiceAccount':
        c.serviceAccounts.push(doc);
        break;
      case '/Service':
        c.services.push(doc);
        break;
      case 'apps/Deployment':
        c.deployments.push(doc);
        break;
      case 'apiextensions.k8s.io/CustomResourceDefinition':
        c.crds.push(doc);
        break;
      case 'admissionregistration.k8s.io/ValidatingWebhookConfiguration':
        c.validatingWebhooks.push(...list(doc['webhooks']).filter(isObj));
        break;
      case 'admissionregistration.k8s.io/MutatingWebhookConfiguration':
        c.mutatingWebhooks.push(...list(doc['webhooks']).filter(isObj));
        break;
      case 'scorecard.operatorframework.io/Configuration':
        c.scorecardConfig = doc;
        break;
      default:
        c.others.push(doc);
    }
  }
  const crdKinds = new Set(crdGvks(c.crds));
  c.customResources = c.others.filter((o) => {
    const { group, version, kind } = groupVersionOf(o);
    return crdKinds.has(`${group}/${version}/${kind}`);
  });
  for (const key of [
    'roles',
    'clusterRoles',
    'deployments',
    'crds',
    'validatingWebhooks',
    'mutatingWebhooks',
    'customResources',
  ] as const)
    c[key] = unique(c[key]);
  return c;
}

/** `group/version/kind` of every version of every CRD. */
function crdGvks(crds: readonly Obj[]): string[] {
  return crds.flatMap((crd) => {
    const spec = obj(crd['spec']);
    const kind = str(obj(spec['names'])['kind']);
    return list(spec['versions']).map((v) => `${str(spec['group'])}/${str(obj(v)['name'])}/${kind}`);
  });
}

function unique(items: Obj[]): Obj[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const key = JSON.stringify(i);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The service account a Deployment's pods run as (`default` when unset). */
export function serviceAccountOf(deployment: Obj): string {
  return str(obj(obj(obj(deployment['spec'])['template'])['spec'])['serviceAccountName']) || 'default';
}
