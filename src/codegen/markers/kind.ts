/**
 * Kind-level markers: CRD names and scope (`+kubebuilder:resource`), subresources, printer
 * columns, per-version flags (storage, served, deprecated), selectable fields, CRD metadata.
 */
import { none, options } from './args.js';
import { kindMarker, type MarkerDef } from './define.js';
import type { PrintColumn } from './kind-settings.js';

interface ResourceArgs {
  scope?: 'Namespaced' | 'Cluster';
  plural?: string;
  singular?: string;
  shortNames?: string[];
  categories?: string[];
}

const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

const COLUMN_TYPES = ['integer', 'number', 'string', 'boolean', 'date'] as const;
const COLUMN_FORMATS = ['int32', 'int64', 'float', 'double', 'byte', 'date', 'date-time', 'password'] as const;

export const KIND_MARKERS: MarkerDef[] = [
  kindMarker<ResourceArgs>({
    name: 'Resource',
    controllerGen: '+kubebuilder:resource',
    args: options<ResourceArgs>(
      {
        scope: { type: ['Namespaced', 'Cluster'] },
        plural: { type: 'string' },
        singular: { type: 'string' },
        shortNames: { type: 'string[]' },
        categories: { type: 'string[]' },
      },
      true,
    ),
    doc: 'Marks the class as a kind and sets its resource names and scope (default Namespaced; plural as controller-gen derives it).',
    example: "@Resource({ scope: 'Cluster', shortNames: ['cj'], categories: ['all'] })",
    apply(k, v) {
      for (const name of [v.plural, v.singular, ...(v.shortNames ?? [])]) {
        if (name !== undefined && (!DNS_LABEL.test(name) || name.length > 63))
          return `@Resource: '${name}' is not a DNS-1035 label (at most 63 of a-z, 0-9 and '-', starting with a letter)`;
      }
      Object.assign(k, v);
      return undefined;
    },
  }),
  kindMarker<true>({
    name: 'SubresourceStatus',
    controllerGen: '+kubebuilder:subresource:status',
    args: none,
    doc: 'Enables the status subresource: status is written through /status and spec changes bump metadata.generation.',
    example: '@SubresourceStatus()',
    apply: (k) => void (k.status = true),
  }),
  kindMarker<{ specPath: string; statusPath: string; selectorPath?: string }>({
    name: 'SubresourceScale',
    controllerGen: '+kubebuilder:subresource:scale',
    args: options({
      specPath: { type: 'string', required: true },
      statusPath: { type: 'string', required: true },
      selectorPath: { type: 'string' },
    }),
    doc: 'Enables the scale subresource (kubectl scale, HPA). Paths are JSON paths: spec under .spec, status under .status.',
    example:
      "@SubresourceScale({ specPath: '.spec.replicas', statusPath: '.status.replicas', selectorPath: '.status.selector' })",
    apply(k, v) {
      if (!v.specPath.startsWith('.spec.')) return `@SubresourceScale: specPath '${v.specPath}' must start with .spec.`;
      if (!v.statusPath.startsWith('.status.'))
        return `@SubresourceScale: statusPath '${v.statusPath}' must start with .status.`;
      if (v.selectorPath !== undefined && !/^\.(spec|status)\./.test(v.selectorPath))
        return `@SubresourceScale: selectorPath '${v.selectorPath}' must start with .spec. or .status.`;
      k.scale = { specReplicasPath: v.specPath, statusReplicasPath: v.statusPath };
      if (v.selectorPath !== undefined) k.scale.labelSelectorPath = v.selectorPath;
      return undefined;
    },
  }),
  kindMarker<PrintColumn>({
    name: 'PrintColumn',
    controllerGen: '+kubebuilder:printcolumn',
    args: options<PrintColumn>({
      name: { type: 'string', required: true },
      type: { type: COLUMN_TYPES, required: true },
      jsonPath: { type: 'string', required: true },
      description: { type: 'string' },
      format: { type: COLUMN_FORMATS },
      priority: { type: 'integer' },
    }),
    doc: 'An extra column in `kubectl get`; once per column, in order.',
    example: "@PrintColumn({ name: 'Schedule', type: 'string', jsonPath: '.spec.schedule' })",
    apply(k, v) {
      if (!v.jsonPath.startsWith('.')) return `@PrintColumn '${v.name}': jsonPath '${v.jsonPath}' must start with '.'`;
      if (v.priority !== undefined && v.priority < 0) return `@PrintColumn '${v.name}': priority must be 0 or more`;
      k.printColumns.push({ ...v });
      return undefined;
    },
  }),
  kindMarker<true>({
    name: 'StorageVersion',
    controllerGen: '+kubebuilder:storageversion',
    args: none,
    doc: 'This version is the one stored in etcd; exactly one version of a multi-version kind has it.',
    example: '@StorageVersion()',
    apply: (k) => void (k.storage = true),
  }),
  kindMarker<true>({
    name: 'SkipVersion',
    controllerGen: '+kubebuilder:skipversion',
    args: none,
    doc: 'Leaves this version out of the CRD (an internal version, e.g. a conversion hub that is never served); the kind needs another version.',
    example: '@SkipVersion()',
    apply: (k) => void (k.skip = true),
  }),
  kindMarker<true>({
    name: 'Unserved',
    controllerGen: '+kubebuilder:unservedversion',
    args: none,
    doc: 'This version is not served by the API server (kept for stored objects only).',
    example: '@Unserved()',
    apply: (k) => void (k.served = false),
  }),
  kindMarker<{ warning?: string }>({
    name: 'DeprecatedVersion',
    controllerGen: '+kubebuilder:deprecatedversion',
    args: options({ warning: { type: 'string' } }, true),
    doc: 'Marks this version deprecated; clients get the warning (or a default one) on every request.',
    example: "@DeprecatedVersion({ warning: 'example.com/v1alpha1 CronJob is deprecated; use v1' })",
    apply(k, v) {
      k.deprecated = true;
      if (v.warning !== undefined) k.deprecationWarning = v.warning;
      return undefined;
    },
  }),
  kindMarker<{ jsonPath: string }>({
    name: 'SelectableField',
    controllerGen: '+kubebuilder:selectablefield',
    args: options({ jsonPath: { type: 'string', required: true } }),
    doc: 'A scalar field usable in field selectors (`kubectl get --field-selector`); at most 8, not under metadata.',
    example: "@SelectableField({ jsonPath: '.spec.color' })",
    apply(k, v) {
      if (!v.jsonPath.startsWith('.') || v.jsonPath.startsWith('.metadata'))
        return `@SelectableField: jsonPath '${v.jsonPath}' must start with '.' and not be under .metadata`;
      k.selectableFields.push({ jsonPath: v.jsonPath });
      return k.selectableFields.length > 8 ? '@SelectableField: at most 8 selectable fields per version' : undefined;
    },
  }),
  kindMarker<{ labels?: Record<string, string>; annotations?: Record<string, string> }>({
    name: 'Metadata',
    controllerGen: '+kubebuilder:metadata',
    args: options({ labels: { type: 'string map' }, annotations: { type: 'string map' } }),
    doc: 'Labels and annotations to put on the CustomResourceDefinition itself.',
    example:
      "@Metadata({ annotations: { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/enhancements/pull/1111' } })",
    apply(k, v) {
      Object.assign(k.labels, v.labels);
      Object.assign(k.annotations, v.annotations);
      return undefined;
    },
  }),
];
