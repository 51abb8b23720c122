/**
 * The built-in resources that are cluster-scoped (with their subresources), per API group (''
 * is the core group): what `edit --namespaced` keeps in the ClusterRole. Generated from the
 * discovery of a real kube-apiserver by test/manifests/rbac-cluster-scope-table.int.test.ts
 * (UPDATE_CLUSTER_SCOPED=1 rewrites it); do not edit by hand.
 */
export const CLUSTER_SCOPED_SOURCE = 'kube-apiserver v1.36.3 discovery';

export const CLUSTER_SCOPED_RESOURCES: Readonly<Record<string, readonly string[]>> = {
  '': [
    'componentstatuses',
    'namespaces',
    'namespaces/finalize',
    'namespaces/status',
    'nodes',
    'nodes/proxy',
    'nodes/status',
    'persistentvolumes',
    'persistentvolumes/status',
  ],
  'admissionregistration.k8s.io': [
    'mutatingadmissionpolicies',
    'mutatingadmissionpolicybindings',
    'mutatingwebhookconfigurations',
    'validatingadmissionpolicies',
    'validatingadmissionpolicies/status',
    'validatingadmissionpolicybindings',
    'validatingwebhookconfigurations',
  ],
  'apiextensions.k8s.io': ['customresourcedefinitions', 'customresourcedefinitions/status'],
  'apiregistration.k8s.io': ['apiservices', 'apiservices/status'],
  'authentication.k8s.io': ['selfsubjectreviews', 'tokenreviews'],
  'authorization.k8s.io': ['selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'subjectaccessreviews'],
  'certificates.k8s.io': [
    'certificatesigningrequests',
    'certificatesigningrequests/approval',
    'certificatesigningrequests/status',
  ],
  'flowcontrol.apiserver.k8s.io': [
    'flowschemas',
    'flowschemas/status',
    'prioritylevelconfigurations',
    'prioritylevelconfigurations/status',
  ],
  'networking.k8s.io': ['ingressclasses', 'ipaddresses', 'servicecidrs', 'servicecidrs/status'],
  'node.k8s.io': ['runtimeclasses'],
  'rbac.authorization.k8s.io': ['clusterrolebindings', 'clusterroles'],
  'resource.k8s.io': ['deviceclasses', 'resourceslices'],
  'scheduling.k8s.io': ['priorityclasses'],
  'storage.k8s.io': [
    'csidrivers',
    'csinodes',
    'storageclasses',
    'volumeattachments',
    'volumeattachments/status',
    'volumeattributesclasses',
  ],
};
