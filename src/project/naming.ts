/**
 * Naming rules for what a user types into `init` and `create api`. Each check returns one
 * sentence naming the flag, the value, the rule it breaks and how to fix it — the CLI prints it
 * as `tsop: <sentence>`. The rules are Kubernetes' own (DNS-1123 labels and subdomains) plus
 * kubebuilder's (a kind is UpperCamelCase, a version is `v1`, `v1alpha1`, `v2beta3`).
 */
import { UserError } from '../errors.js';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** What the API server requires of a CRD's plural (and singular): a DNS-1123 label starting with a letter. */
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_RULE =
  "is not a DNS-1035 label (at most 63 lower-case letters, digits and '-', starting with a letter and ending with a letter or digit)";
const VERSION = /^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$/;
const KIND = /^[A-Z][A-Za-z0-9]*$/;

/** One invalid flag value. */
export class InvalidFlagError extends UserError {
  constructor(flag: string, value: string, rule: string, fix: string) {
    super(`--${flag}: '${value}' ${rule}; ${fix}`);
  }
}

function dnsSubdomainProblem(value: string): string | undefined {
  if (value.length === 0) return 'is empty';
  if (value.length > 253) return 'is longer than 253 characters';
  for (const label of value.split('.')) {
    if (label.length > 63) return `has a label '${label}' longer than 63 characters`;
    if (!DNS1123_LABEL.test(label))
      return "is not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.'; each part starts and ends with a letter or digit)";
  }
  return undefined;
}

export function checkDomain(value: string): void {
  const problem = dnsSubdomainProblem(value);
  if (problem) throw new InvalidFlagError('domain', value, problem, "use something like 'example.com'");
}

export function checkProjectName(value: string, flag = 'project-name'): void {
  if (value.length > 63 || !DNS1123_LABEL.test(value)) {
    throw new InvalidFlagError(
      flag,
      value,
      "is not a DNS-1123 label (at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit)",
      "pass --project-name with a name like 'memcached-operator'",
    );
  }
}

/**
 * The group alone (`batch`, or dotted as `foo.policy`: kubebuilder takes any DNS-1123 subdomain and
 * keeps it whole in paths and names); together with the domain it must still be a DNS-1123 subdomain.
 */
export function checkGroup(value: string, domain: string): void {
  if (value === '') return; // the core group of an external type; kubebuilder allows it for --resource=false
  const own = dnsSubdomainProblem(value);
  if (own)
    throw new InvalidFlagError(
      'group',
      value,
      own,
      "use a name like 'batch' or 'foo.policy' (the domain is added from PROJECT)",
    );
  const problem = dnsSubdomainProblem(fullGroup(value, domain));
  if (problem)
    throw new InvalidFlagError('group', value, `with domain '${domain}' ${problem}`, 'choose a shorter group');
}

/** `flag` names the flag in the error (`--spoke` lists versions too). */
export function checkVersion(value: string, flag = 'version'): void {
  if (!VERSION.test(value)) {
    throw new InvalidFlagError(
      flag,
      value,
      'is not a Kubernetes API version (v<N>, optionally followed by alpha<N> or beta<N>)',
      "use e.g. 'v1', 'v1alpha1' or 'v2beta1'",
    );
  }
}

export function checkKind(value: string): void {
  if (!KIND.test(value)) {
    const fixed = value.replace(/[^A-Za-z0-9]/g, '');
    const hint =
      fixed && /^[A-Za-z]/.test(fixed)
        ? `use '${fixed[0]!.toUpperCase()}${fixed.slice(1)}'`
        : "use an UpperCamelCase name like 'CronJob'";
    throw new InvalidFlagError(
      'kind',
      value,
      'is not UpperCamelCase (starts with an upper-case letter; only letters and digits)',
      hint,
    );
  }
  if (value.length > 63)
    throw new InvalidFlagError('kind', value, 'is longer than 63 characters', 'choose a shorter kind');
}

export function checkPlural(value: string): void {
  if (!DNS1123_LABEL.test(value)) {
    throw new InvalidFlagError(
      'plural',
      value,
      "is not a DNS-1123 label (lower-case letters, digits and '-')",
      "use the lower-case plural, e.g. 'cronjobs'",
    );
  }
  if (!isDns1035Label(value))
    throw new InvalidFlagError('plural', value, DNS1035_RULE, "use the lower-case plural, e.g. 'cronjobs'");
}

/**
 * The plural derived from `--kind` (no `--plural` given) must be one the API server accepts;
 * kubebuilder refuses such kinds too. Checked while planning, before anything is written.
 */
export function checkDerivedPlural(kind: string, plural: string): void {
  if (!isDns1035Label(plural)) {
    throw new InvalidFlagError(
      'kind',
      kind,
      `derives the CRD plural '${plural}', which ${DNS1035_RULE}`,
      'pass --plural with the plural to use',
    );
  }
}

/**
 * A controller's name (`--controller-name`): its file, its metrics label and its logs carry it.
 * Dots are allowed: kubebuilder runs a multigroup project's controllers as `<group>-<name>`, and a
 * group may be a subdomain (`foo.policy-healthcheckpolicy`), which an import keeps.
 */
export function checkControllerName(value: string): void {
  if (!value.split('.').every((label) => DNS1123_LABEL.test(label)) || value.length > 253) {
    throw new InvalidFlagError(
      'controller-name',
      value,
      "is not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.' between them, at most 253)",
      "use e.g. 'memcached-backup'",
    );
  }
}

/** A URL path the API server can call: `/`, then RFC 3986 path characters (no query, no fragment). */
const WEBHOOK_PATH = /^\/[A-Za-z0-9\-._~%!$&'()*+,;=:@/]+$/;

/** A custom webhook path (`--defaulting-path`, `--validation-path`): a path the webhook server can serve. */
export function checkWebhookPath(value: string, flag: string): void {
  if (!WEBHOOK_PATH.test(value)) {
    const fix = value.startsWith('/')
      ? "use letters, digits and '-', '_', '.', '/' only, e.g. '/mutate-my-kind'"
      : `start it with '/', e.g. '/${value.replace(/^\/*/, '')}'`;
    throw new InvalidFlagError(
      flag,
      value,
      "is not a URL path (a '/' followed by path characters, no query or fragment)",
      fix,
    );
  }
  if (value === '/convert')
    throw new InvalidFlagError(flag, value, 'is where the webhook server serves conversion', 'choose another path');
}

export function isDns1035Label(value: string): boolean {
  return value.length <= 63 && DNS1035_LABEL.test(value);
}

/** The npm package name rules (`--repo`): lower case, URL-safe, optionally scoped. */
export function checkRepo(value: string): void {
  if (!/^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/.test(value) || value.length > 214) {
    throw new InvalidFlagError(
      'repo',
      value,
      'is not a valid npm package name (lower case, no spaces, optionally @scope/name)',
      "use e.g. 'memcached-operator' or '@example/memcached-operator'",
    );
  }
}

export function fullGroup(group: string, domain: string): string {
  if (group === '') return domain;
  return domain === '' ? group : `${group}.${domain}`;
}

/** `CronJob` → `cronjob` (file names, sample names, role names: kubebuilder lower-cases). */
export function lowerKind(kind: string): string {
  return kind.toLowerCase();
}

/**
 * A name as a TypeScript type or identifier part: `cert-manager` → `CertManager`, `tlsConfig` →
 * `TlsConfig`, `v1alpha1` → `V1alpha1`, `9lives` → `N9lives` (an identifier cannot start with a digit).
 */
export function pascal(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  if (joined === '') return 'Field';
  return /^[0-9]/.test(joined) ? `N${joined}` : joined;
}

/** `cronJob`: the kind as a variable name. */
export function camelKind(kind: string): string {
  return kind[0]!.toLowerCase() + kind.slice(1);
}

/** A directory name turned into a DNS-1123 label for the default project name, or undefined. */
/**
 * The project name a directory name suggests when it has letters beyond ASCII: accents dropped
 * ('opérateur' → 'operateur'), other scripts left out. Only a suggestion: init asks or says so.
 */
export function asciiProjectName(dir: string): string | undefined {
  return projectNameFromDir(
    dir
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\x00-\x7f]/g, '-'),
  );
}

/** Whether a directory name has letters a project name cannot hold even lower-cased (beyond ASCII). */
export function hasNonAsciiLetters(dir: string): boolean {
  return /[^\x00-\x7f]/.test(dir);
}

export function projectNameFromDir(dir: string): string | undefined {
  const name = dir
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return name && name.length <= 63 ? name : undefined;
}
