/**
 * The command-line flags of a generated operator's main.ts (kubebuilder's main.go flags), read as
 * Go's flag package reads them, and turned into ManagerOptions. One table drives parsing, the
 * defaults and `--help`, so a flag cannot be documented differently from how it behaves.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { withAuthenticationAndAuthorization } from '../metrics/index.js';
import type { ManagerOptions } from './options.js';
import type { WebhookServerOptions } from './webhook-server.js';
import { invalidName } from './sharding-engine.js';

/** The values of every flag, defaults filled in. */
export interface ManagerFlags {
  metricsBindAddress: string;
  metricsSecure: boolean;
  metricsCertPath: string;
  metricsCertName: string;
  metricsCertKey: string;
  healthProbeBindAddress: string;
  /** Serve /debug/controllers on the health-probe port. */
  debugControllers: boolean;
  leaderElect: boolean;
  /** The ring to shard the controllers in ('' or absent: not sharded). */
  sharding?: string;
  /** The webhook server's port; undefined: 9443 once a webhook is registered. */
  webhookPort: number | undefined;
  webhookCertPath: string;
  webhookCertName: string;
  webhookCertKey: string;
  /** The manager makes and renews its own webhook certificate (no cert-manager). */
  webhookSelfProvision: boolean;
  webhookServiceName: string;
  webhookCertSecret: string;
  webhookCertHosts: string[];
  webhookMutatingConfigurations: string[];
  webhookValidatingConfigurations: string[];
  webhookConversionCrds: string[];
}

/** A flag that is unknown, misspelt or has a value it cannot take; the message is one line. */
export class InvalidFlagError extends Error {
  override readonly name = 'InvalidFlagError';
}

type FlagName =
  | 'metrics-bind-address'
  | 'metrics-secure'
  | 'metrics-cert-path'
  | 'metrics-cert-name'
  | 'metrics-cert-key'
  | 'health-probe-bind-address'
  | 'debug-controllers'
  | 'leader-elect'
  | 'sharding'
  | 'webhook-port'
  | 'webhook-cert-path'
  | 'webhook-cert-name'
  | 'webhook-cert-key'
  | 'webhook-self-provision'
  | 'webhook-service-name'
  | 'webhook-cert-secret'
  | 'webhook-cert-hosts'
  | 'webhook-mutating-configuration'
  | 'webhook-validating-configuration'
  | 'webhook-conversion-crd';

interface FlagSpec {
  name: FlagName;
  /** A list flag may be repeated and takes comma-separated values. */
  type: 'string' | 'boolean' | 'list';
  default: string | boolean;
  /** Shown in --help after the name; '' for booleans. */
  arg: string;
  help: string;
  /** Only read together with this boolean flag; given without it, it is refused. */
  needs?: FlagName;
}

const FLAGS: readonly FlagSpec[] = [
  {
    name: 'metrics-bind-address',
    type: 'string',
    default: '0',
    arg: '<addr>',
    help: "where the metrics endpoint listens: ':8443' for HTTPS, ':8080' for HTTP; '0' turns it off (default '0')",
  },
  {
    name: 'metrics-secure',
    type: 'boolean',
    default: true,
    arg: '',
    help: 'serve metrics over HTTPS to callers allowed to get /metrics (config/rbac/metrics_reader_role.yaml); =false for plain HTTP (default true)',
  },
  {
    name: 'metrics-cert-path',
    type: 'string',
    default: '',
    arg: '<dir>',
    help: 'directory holding the metrics server certificate; without it a self-signed one is generated at start',
  },
  {
    name: 'metrics-cert-name',
    type: 'string',
    default: 'tls.crt',
    arg: '<file>',
    help: "certificate file in --metrics-cert-path (default 'tls.crt')",
  },
  {
    name: 'metrics-cert-key',
    type: 'string',
    default: 'tls.key',
    arg: '<file>',
    help: "key file in --metrics-cert-path (default 'tls.key')",
  },
  {
    name: 'health-probe-bind-address',
    type: 'string',
    default: ':8081',
    arg: '<addr>',
    help: "where /healthz and /readyz listen; '0' turns them off (default ':8081')",
  },
  {
    name: 'debug-controllers',
    type: 'boolean',
    default: false,
    arg: '',
    help: "serve /debug/controllers on the health-probe port: each controller's queue, in-flight keys, delayed requeues and last results as JSON (default false)",
  },
  {
    name: 'leader-elect',
    type: 'boolean',
    default: false,
    arg: '',
    help:
      'elect a leader, so that only one replica reconciles at a time (default false). The Lease is in the namespace the pod runs in;' +
      " outside a cluster in $POD_NAMESPACE, else 'default'",
  },
  {
    name: 'sharding',
    type: 'string',
    default: '',
    arg: '<ring>',
    help:
      'shard the controllers across the replicas: each holds a Lease of ring <ring> (in the Lease namespace, as --leader-elect) and reconciles' +
      ' and caches only the objects labelled with its shard; the elected leader assigns them. Implies leader election (default off)',
  },
  {
    name: 'webhook-port',
    type: 'string',
    default: '',
    arg: '<port>',
    help: 'port of the webhook server, started when a webhook is registered (default 9443)',
  },
  {
    name: 'webhook-cert-path',
    type: 'string',
    default: '',
    arg: '<dir>',
    help: 'directory holding the webhook server certificate (default <tmpdir>/k8s-webhook-server/serving-certs)',
  },
  {
    name: 'webhook-cert-name',
    type: 'string',
    default: 'tls.crt',
    arg: '<file>',
    help: "certificate file in --webhook-cert-path (default 'tls.crt')",
  },
  {
    name: 'webhook-cert-key',
    type: 'string',
    default: 'tls.key',
    arg: '<file>',
    help: "key file in --webhook-cert-path (default 'tls.key')",
  },
  {
    name: 'webhook-self-provision',
    type: 'boolean',
    default: false,
    arg: '',
    help:
      'make and renew the webhook certificate here instead of reading --webhook-cert-path (no cert-manager needed): a CA and a certificate for' +
      ' <--webhook-service-name>.<pod namespace>.svc, kept in the Secret --webhook-cert-secret, the CA written into the caBundle of the' +
      ' configurations and CRDs named below (default false)',
  },
  {
    name: 'webhook-service-name',
    type: 'string',
    default: 'webhook-service',
    arg: '<name>',
    help: "with --webhook-self-provision: the Service in front of the webhook server (default 'webhook-service')",
    needs: 'webhook-self-provision',
  },
  {
    name: 'webhook-cert-secret',
    type: 'string',
    default: 'webhook-server-cert',
    arg: '<name>',
    help: "with --webhook-self-provision: the Secret in the pod's namespace that keeps the CA and certificate for every replica (default 'webhook-server-cert')",
    needs: 'webhook-self-provision',
  },
  {
    name: 'webhook-cert-hosts',
    type: 'list',
    default: '',
    arg: '<host,...>',
    help: 'with --webhook-self-provision: more DNS names or IP addresses the certificate covers, e.g. 127.0.0.1 for a run outside the cluster',
    needs: 'webhook-self-provision',
  },
  {
    name: 'webhook-mutating-configuration',
    type: 'list',
    default: '',
    arg: '<name,...>',
    help: 'with --webhook-self-provision: MutatingWebhookConfigurations whose caBundle gets the CA',
    needs: 'webhook-self-provision',
  },
  {
    name: 'webhook-validating-configuration',
    type: 'list',
    default: '',
    arg: '<name,...>',
    help: 'with --webhook-self-provision: ValidatingWebhookConfigurations whose caBundle gets the CA',
    needs: 'webhook-self-provision',
  },
  {
    name: 'webhook-conversion-crd',
    type: 'list',
    default: '',
    arg: '<name,...>',
    help: 'with --webhook-self-provision: CRDs (e.g. memcacheds.cache.example.com) whose conversion webhook caBundle gets the CA',
    needs: 'webhook-self-provision',
  },
];

/** The --help text: every flag, its argument and default, one line each. */
export function managerUsage(command = 'node build/main.js'): string {
  const rows: Array<readonly [string, string]> = FLAGS.map((f) => [
    `--${f.name}${f.type === 'boolean' ? '[=false]' : ` ${f.arg}`}`,
    f.help,
  ]);
  rows.push(['-h, --help', 'show this help']);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return (
    `Usage: ${command} [flags]\n${rows.map(([left, help]) => `  ${left.padEnd(width)}${help}`).join('\n')}\n` +
    'Environment: KUBECONFIG (else ~/.kube/config, else the in-cluster service account), WATCH_NAMESPACE (watch one namespace), LOG_LEVEL.\n'
  );
}

/**
 * Reads `argv` (without node and the script); `'help'` when -h/--help is given. Throws
 * InvalidFlagError for an unknown flag or a bad value. Pure: prints nothing, never exits.
 */
export function readManagerFlags(argv: readonly string[]): ManagerFlags | 'help' {
  const booleanDefaults = Object.fromEntries(
    FLAGS.filter((f) => f.type === 'boolean').map((f) => [f.name, f.default as boolean]),
  );
  const { args, values: booleans } = takeBooleanFlags(argv, booleanDefaults);
  const options = Object.fromEntries(
    FLAGS.filter((f) => f.type !== 'boolean').map((f) =>
      f.type === 'list'
        ? [f.name, { type: 'string' as const, multiple: true as const, default: [] }]
        : [f.name, { type: 'string' as const, default: f.default as string }],
    ),
  );
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h', default: false } } }));
  } catch (err) {
    // parseArgs' messages are one line and name the flag; its error code adds nothing for a user.
    throw new InvalidFlagError((err as Error).message.split('\n')[0]!);
  }
  if (values['help']) return 'help';
  const text = (name: FlagName): string => values[name] as string;
  const flag = (name: FlagName): boolean => booleans[name]!;
  // Repeated or comma-separated, as Go's StringSlice flags.
  const list = (name: FlagName): string[] =>
    (values[name] as string[])
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean);
  const selfProvision = flag('webhook-self-provision');
  if (selfProvision && text('webhook-cert-path') !== '') {
    throw new InvalidFlagError(
      '--webhook-self-provision and --webhook-cert-path both say where the webhook certificate comes from; pass one of them',
    );
  }
  const given = (name: FlagName): boolean => argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  const stray = FLAGS.find((f) => f.needs !== undefined && !flag(f.needs) && given(f.name));
  if (stray?.needs)
    throw new InvalidFlagError(
      `--${stray.name} is only read with --${stray.needs}; add --${stray.needs} or drop --${stray.name}`,
    );
  return {
    metricsBindAddress: text('metrics-bind-address'),
    metricsSecure: flag('metrics-secure'),
    metricsCertPath: text('metrics-cert-path'),
    metricsCertName: text('metrics-cert-name'),
    metricsCertKey: text('metrics-cert-key'),
    healthProbeBindAddress: text('health-probe-bind-address'),
    debugControllers: flag('debug-controllers'),
    leaderElect: flag('leader-elect'),
    sharding: ring(text('sharding')),
    webhookPort: port(text('webhook-port')),
    webhookCertPath: text('webhook-cert-path'),
    webhookCertName: text('webhook-cert-name'),
    webhookCertKey: text('webhook-cert-key'),
    webhookSelfProvision: selfProvision,
    webhookServiceName: text('webhook-service-name'),
    webhookCertSecret: text('webhook-cert-secret'),
    webhookCertHosts: list('webhook-cert-hosts'),
    webhookMutatingConfigurations: list('webhook-mutating-configuration'),
    webhookValidatingConfigurations: list('webhook-validating-configuration'),
    webhookConversionCrds: list('webhook-conversion-crd'),
  };
}

/**
 * The flags of this process. `--help` prints the usage and exits 0; a bad flag prints one line
 * and the usage to stderr and exits 2, as Go's flag package does.
 */
export function parseManagerFlags(argv: readonly string[] = process.argv.slice(2)): ManagerFlags {
  try {
    const flags = readManagerFlags(argv);
    if (flags !== 'help') return flags;
    process.stdout.write(managerUsage());
    process.exit(0);
  } catch (err) {
    if (!(err instanceof InvalidFlagError)) throw err;
    process.stderr.write(`${err.message}\n${managerUsage()}`);
    process.exit(2);
  }
}

/** What main.ts passes besides the flags. */
export interface FlagContext {
  /** Name of the leader-election Lease (kubebuilder: `<hash>.<domain>`). */
  leaderElectionId: string;
}

/** The part of ManagerOptions the flags decide; main.ts adds kubeConfig, logger and its own. */
export type FlagManagerOptions = Omit<ManagerOptions, 'kubeConfig' | 'logger' | 'webhookServer'> & {
  /** @deprecated since tsop 0.3.0, removed in 0.4.0: main.ts passes webhookServer: webhookServerFromFlags(flags) (runtime/webhook). */
  webhookServer?: WebhookServerOptions;
};

/**
 * ManagerOptions from the flags: metrics over HTTPS behind TokenReview/SubjectAccessReview unless
 * --metrics-secure=false, WATCH_NAMESPACE as the cache's namespace, the Lease in the pod's
 * namespace, and (deprecated, for main.ts of tsop ≤ 0.2) the webhook server's options when a
 * --webhook-* flag is given; main.ts passes the server itself (webhookServerFromFlags).
 */
export function managerOptionsFromFlags(flags: ManagerFlags, ctx: FlagContext): FlagManagerOptions {
  const webhookGiven = flags.webhookPort !== undefined || flags.webhookCertPath !== '' || flags.webhookSelfProvision;
  return {
    namespace: process.env['WATCH_NAMESPACE'] || undefined,
    metricsBindAddress: flags.metricsBindAddress,
    metricsServer: flags.metricsSecure
      ? {
          secureServing: true,
          filterProvider: withAuthenticationAndAuthorization,
          certDir: flags.metricsCertPath || undefined,
          certName: flags.metricsCertName,
          keyName: flags.metricsCertKey,
        }
      : undefined,
    healthProbeBindAddress: flags.healthProbeBindAddress,
    debugControllers: flags.debugControllers || undefined,
    // A missing CRD, a dead API server or Lease namespace: one line at start, not minutes of retries.
    startupChecks: true,
    leaderElection: flags.leaderElect
      ? { id: ctx.leaderElectionId, namespace: podNamespace(), releaseOnCancel: true }
      : undefined,
    // Without --leader-elect, sharding elects its own leader (the assigner's) on <ring>.leader.
    sharding: flags.sharding ? { ring: flags.sharding, namespace: podNamespace() } : undefined,
    // Deprecated (main.ts of tsop ≤ 0.2, which passes no server): only when asked for, since the
    // manager then starts a server even with no webhook registered. main.ts now passes
    // webhookServer: webhookServerFromFlags(flags) (runtime/webhook), which overrides this.
    webhookServer: webhookGiven ? webhookServerOptionsFromFlags(flags) : undefined,
  };
}

/**
 * The webhook server's options from the --webhook-* flags: its port and certificate directory,
 * or a self-provisioned certificate in the pod's namespace (--webhook-self-provision). main.ts
 * passes the server made from them (webhookServerFromFlags, runtime/webhook) as the manager's webhookServer.
 */
export function webhookServerOptionsFromFlags(flags: ManagerFlags): WebhookServerOptions {
  return {
    port: flags.webhookPort,
    certDir: flags.webhookCertPath || undefined,
    certName: flags.webhookCertName,
    keyName: flags.webhookCertKey,
    selfProvision: flags.webhookSelfProvision
      ? {
          serviceName: flags.webhookServiceName,
          namespace: podNamespace(),
          secretName: flags.webhookCertSecret,
          extraHosts: flags.webhookCertHosts,
          mutatingWebhookConfigurations: flags.webhookMutatingConfigurations,
          validatingWebhookConfigurations: flags.webhookValidatingConfigurations,
          crds: flags.webhookConversionCrds,
        }
      : undefined,
  };
}

/** The namespace the pod runs in (for the leader-election Lease); $POD_NAMESPACE or 'default' outside a cluster. */
export function podNamespace(): string {
  try {
    return readFileSync('/var/run/secrets/kubernetes.io/serviceaccount/namespace', 'utf8').trim();
  } catch {
    return process.env['POD_NAMESPACE'] || 'default';
  }
}

function ring(text: string): string {
  const problem = text === '' ? undefined : invalidName('ring', text);
  if (problem) throw new InvalidFlagError(`invalid value "${text}" for --sharding: ${problem}`);
  return text;
}

function port(text: string): number | undefined {
  if (text === '') return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535)
    throw new InvalidFlagError(`invalid value "${text}" for --webhook-port: expected a port number 0-65535`);
  return n;
}

/**
 * Boolean flags as Go's flag package reads them: `--name`, `--name=true` and `--name=false`
 * (also 1/0, t/f, T/F, TRUE/FALSE, True/False). parseArgs rejects a value on a boolean, so
 * these are taken out of `args` before it runs; the last occurrence wins.
 */
function takeBooleanFlags(
  argv: readonly string[],
  defaults: Record<string, boolean>,
): { args: string[]; values: Record<string, boolean> } {
  const values: Record<string, boolean> = { ...defaults };
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      args.push(...argv.slice(i));
      break;
    }
    const m = /^--([^=]+)(?:=(.*))?$/.exec(arg);
    const name = m?.[1];
    if (!m || name === undefined || !Object.hasOwn(defaults, name)) {
      args.push(arg);
      continue;
    }
    const text = m[2];
    // Exactly strconv.ParseBool's spellings, as tsop's own CLI reads them (src/cli/flags.ts): not 'tRuE'.
    if (text === undefined || /^(1|t|T|TRUE|true|True)$/.test(text)) values[name] = true;
    else if (/^(0|f|F|FALSE|false|False)$/.test(text)) values[name] = false;
    else throw new InvalidFlagError(`invalid boolean value ${JSON.stringify(text)} for --${name} (use true or false)`);
  }
  return { args, values };
}
