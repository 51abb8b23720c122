/**
 * The release's names in place of kustomize's: `<prefix>-system` becomes the release namespace,
 * `<prefix>-<rest>` the chart's `resourceName` helper with suffix `<rest>` (so two releases never
 * share a cluster-scoped name), references to the manager's ServiceAccount (`serviceAccountName`,
 * a binding's subject) the `serviceAccountName` helper, and
 * the `app.kubernetes.io/name` label the chart's name. Applied to every string of an object, so a
 * reference (a roleRef, a Service in a webhook's clientConfig, a cert-manager annotation, a DNS
 * name) always matches the object it names.
 */
import type { ChartLayout } from './manifests.js';
import type { HelmTemplate } from './template.js';

const NAME_LABEL = 'app.kubernetes.io/name';

export class ReleaseNames {
  private readonly namespace: RegExp;
  private readonly prefixed: RegExp;

  constructor(
    private readonly tpl: HelmTemplate,
    private readonly layout: ChartLayout,
  ) {
    this.namespace = new RegExp(`(^|[^a-z0-9-])${escapeRegExp(layout.namespace)}(?![a-z0-9-])`, 'g');
    this.prefixed = new RegExp(
      `(^|[^a-z0-9-])${escapeRegExp(layout.prefix)}([a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?![a-z0-9-])`,
      'g',
    );
  }

  /** `{{ include "<chart>.<helper>" $ }}` as a token. */
  helper(name: string): string {
    return this.tpl.value(`{{ include "${this.layout.chart}.${name}" $ }}`);
  }

  /** The expression of the release name of an object kustomize called `<prefix><suffix>`. */
  resource(suffix: string): string {
    return `{{ include "${this.layout.chart}.resourceName" (dict "suffix" "${suffix}" "context" $) }}`;
  }

  /** The object's name suffix after kustomize's prefix (the name itself if it has none). */
  suffix(name: string): string {
    return name.startsWith(this.layout.prefix) ? name.slice(this.layout.prefix.length) : name;
  }

  string(s: string): string {
    return s
      .replace(this.namespace, (_m, lead: string) => lead + this.tpl.value('{{ .Release.Namespace }}'))
      .replace(this.prefixed, (_m, lead: string, rest: string) => lead + this.tpl.value(this.resource(rest)));
  }

  /** `value` with every string renamed and the name label pointed at the chart. */
  deep(value: unknown): unknown {
    if (typeof value === 'string') return this.string(value);
    if (Array.isArray(value)) return value.map((v) => this.deep(v));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    // The manager's ServiceAccount may be an existing one (values), wherever it is referred to.
    const account = this.layout.serviceAccount;
    const isAccountRef =
      account !== undefined &&
      (value as Record<string, unknown>)['kind'] === 'ServiceAccount' &&
      (value as Record<string, unknown>)['name'] === account;
    for (const [k, v] of Object.entries(value)) {
      if (k === NAME_LABEL && v === this.layout.chart) out[k] = this.helper('name');
      else if ((k === 'serviceAccountName' && v === account) || (isAccountRef && k === 'name'))
        out[k] = this.helper('serviceAccountName');
      else out[k] = this.deep(v);
    }
    return out;
  }

  /** Helm's recommended labels first, then the object's own (kustomize's managed-by dropped). */
  labels(own: Record<string, string> | undefined): Record<string, string> {
    const rest = Object.fromEntries(
      Object.entries(own ?? {}).filter(([k]) => k !== NAME_LABEL && k !== 'app.kubernetes.io/managed-by'),
    );
    return {
      'app.kubernetes.io/managed-by': this.tpl.value('{{ .Release.Service }}'),
      [NAME_LABEL]: this.helper('name'),
      'helm.sh/chart': this.helper('chart'),
      'app.kubernetes.io/instance': this.tpl.value('{{ .Release.Name }}'),
      ...(this.deep(rest) as Record<string, string>),
    };
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
