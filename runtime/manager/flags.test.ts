import { describe, expect, it } from 'vitest';
import {
  InvalidFlagError,
  managerOptionsFromFlags,
  managerUsage,
  readManagerFlags,
  type ManagerFlags,
} from './index.js';

const defaults = readManagerFlags([]) as ManagerFlags;

describe('manager flags', () => {
  it("default to kubebuilder's main.go", () => {
    expect(defaults).toEqual({
      metricsBindAddress: '0',
      metricsSecure: true,
      metricsCertPath: '',
      metricsCertName: 'tls.crt',
      metricsCertKey: 'tls.key',
      healthProbeBindAddress: ':8081',
      debugControllers: false,
      leaderElect: false,
      sharding: '',
      webhookPort: undefined,
      webhookCertPath: '',
      webhookCertName: 'tls.crt',
      webhookCertKey: 'tls.key',
      webhookSelfProvision: false,
      webhookServiceName: 'webhook-service',
      webhookCertSecret: 'webhook-server-cert',
      webhookCertHosts: [],
      webhookMutatingConfigurations: [],
      webhookValidatingConfigurations: [],
      webhookConversionCrds: [],
    });
  });

  it('read booleans as Go does, the last occurrence winning', () => {
    expect(readManagerFlags(['--leader-elect', '--metrics-secure=false'])).toMatchObject({
      leaderElect: true,
      metricsSecure: false,
    });
    expect(readManagerFlags(['--leader-elect=t', '--leader-elect=0'])).toMatchObject({ leaderElect: false });
    expect(readManagerFlags(['--leader-elect=TRUE', '--metrics-secure=F'])).toMatchObject({
      leaderElect: true,
      metricsSecure: false,
    });
    expect(
      readManagerFlags(['--metrics-bind-address=:8443', '--webhook-port', '9444', '--webhook-cert-path=/certs']),
    ).toMatchObject({
      metricsBindAddress: ':8443',
      webhookPort: 9444,
      webhookCertPath: '/certs',
    });
    expect(readManagerFlags(['-h'])).toBe('help');
  });

  it.each([
    [['--metrics-secure=maybe'], 'invalid boolean value "maybe" for --metrics-secure (use true or false)'],
    [['--leader-elect=tRuE'], 'invalid boolean value "tRuE" for --leader-elect (use true or false)'],
    [['--webhook-port=http'], 'invalid value "http" for --webhook-port: expected a port number 0-65535'],
    [['--metrics-bind'], /^Unknown option '--metrics-bind'/],
    [
      ['--webhook-self-provision', '--webhook-cert-path=/certs'],
      '--webhook-self-provision and --webhook-cert-path both say where the webhook certificate comes from; pass one of them',
    ],
    [
      ['--webhook-service-name', 'svc'],
      '--webhook-service-name is only read with --webhook-self-provision; add --webhook-self-provision or drop --webhook-service-name',
    ],
    [
      ['--webhook-self-provision=false', '--webhook-conversion-crd=a.b.c'],
      '--webhook-conversion-crd is only read with --webhook-self-provision; add --webhook-self-provision or drop --webhook-conversion-crd',
    ],
  ] as const)('refuse %j in one line', (argv, message) => {
    expect(() => readManagerFlags(argv)).toThrow(InvalidFlagError);
    expect(() => readManagerFlags(argv)).toThrow(message);
    try {
      readManagerFlags(argv);
    } catch (err) {
      expect((err as Error).message).not.toContain('\n');
    }
  });

  it('--help documents every flag, and where the Lease lives outside a cluster', () => {
    const usage = managerUsage();
    for (const name of [
      'metrics-bind-address',
      'metrics-secure',
      'metrics-cert-path',
      'metrics-cert-name',
      'metrics-cert-key',
      'health-probe-bind-address',
      'leader-elect',
      'webhook-port',
      'webhook-cert-path',
      'webhook-cert-name',
      'webhook-cert-key',
      'webhook-self-provision',
      'webhook-service-name',
      'webhook-cert-secret',
      'webhook-cert-hosts',
      'webhook-mutating-configuration',
      'webhook-validating-configuration',
      'webhook-conversion-crd',
    ]) {
      expect(usage).toMatch(new RegExp(`^  --${name}[ []`, 'm'));
    }
    expect(usage).toContain("outside a cluster in $POD_NAMESPACE, else 'default'");
  });

  it('become manager options: HTTPS metrics with auth by default, the Lease named by main.ts, no webhook server unless asked', () => {
    const opts = managerOptionsFromFlags({ ...defaults, leaderElect: true }, { leaderElectionId: 'abc.example.com' });
    expect(opts.metricsServer).toMatchObject({ secureServing: true, certName: 'tls.crt', keyName: 'tls.key' });
    expect(typeof opts.metricsServer?.filterProvider).toBe('function');
    expect(opts.leaderElection).toMatchObject({ id: 'abc.example.com', releaseOnCancel: true });
    expect(opts.webhookServer).toBeUndefined();
    const plain = managerOptionsFromFlags(
      { ...defaults, metricsSecure: false, webhookPort: 0 },
      { leaderElectionId: 'x' },
    );
    expect(plain.metricsServer).toBeUndefined();
    expect(plain.leaderElection).toBeUndefined();
    expect(plain.webhookServer).toMatchObject({ port: 0, certName: 'tls.crt' });
  });

  it('--webhook-self-provision: the webhook server makes its certificate in the pod namespace and injects the CA into what is named', () => {
    const before = process.env['POD_NAMESPACE'];
    process.env['POD_NAMESPACE'] = 'memcached-system';
    try {
      const flags = readManagerFlags([
        '--webhook-self-provision',
        '--webhook-service-name=memcached-webhook-service',
        '--webhook-mutating-configuration=memcached-mutating-webhook-configuration',
        '--webhook-validating-configuration',
        'memcached-validating-webhook-configuration',
        '--webhook-conversion-crd=memcacheds.cache.example.com,gizmos.cache.example.com',
        '--webhook-conversion-crd=widgets.cache.example.com',
        '--webhook-cert-hosts=127.0.0.1, localhost',
      ]) as ManagerFlags;
      expect(managerOptionsFromFlags(flags, { leaderElectionId: 'x' }).webhookServer).toEqual({
        port: undefined,
        certDir: undefined,
        certName: 'tls.crt',
        keyName: 'tls.key',
        selfProvision: {
          serviceName: 'memcached-webhook-service',
          namespace: 'memcached-system',
          secretName: 'webhook-server-cert',
          extraHosts: ['127.0.0.1', 'localhost'],
          mutatingWebhookConfigurations: ['memcached-mutating-webhook-configuration'],
          validatingWebhookConfigurations: ['memcached-validating-webhook-configuration'],
          crds: ['memcacheds.cache.example.com', 'gizmos.cache.example.com', 'widgets.cache.example.com'],
        },
      });
    } finally {
      if (before === undefined) delete process.env['POD_NAMESPACE'];
      else process.env['POD_NAMESPACE'] = before;
    }
  });

  it('--debug-controllers turns /debug/controllers on (off by default)', () => {
    const on = readManagerFlags(['--debug-controllers']);
    expect(on !== 'help' && on.debugControllers).toBe(true);
    expect(on !== 'help' && managerOptionsFromFlags(on, { leaderElectionId: 'x' }).debugControllers).toBe(true);
    expect(managerOptionsFromFlags(defaults, { leaderElectionId: 'x' }).debugControllers).toBeUndefined();
    expect(managerUsage()).toContain('--debug-controllers[=false]');
  });

  it('--sharding <ring> shards the controllers in that ring, its Leases in the pod namespace; a bad ring name is one line', () => {
    const before = process.env['POD_NAMESPACE'];
    process.env['POD_NAMESPACE'] = 'memcached-system';
    try {
      const flags = readManagerFlags(['--sharding', 'memcached']);
      expect(flags !== 'help' && flags.sharding).toBe('memcached');
      const opts = managerOptionsFromFlags(flags as ManagerFlags, { leaderElectionId: 'x' });
      expect(opts.sharding).toEqual({ ring: 'memcached', namespace: 'memcached-system' });
      expect(managerOptionsFromFlags(defaults, { leaderElectionId: 'x' }).sharding).toBeUndefined();
    } finally {
      if (before === undefined) delete process.env['POD_NAMESPACE'];
      else process.env['POD_NAMESPACE'] = before;
    }
    expect(() => readManagerFlags(['--sharding=Mem_Cached'])).toThrow(InvalidFlagError);
    expect(() => readManagerFlags(['--sharding=Mem_Cached'])).toThrow(
      /^invalid value "Mem_Cached" for --sharding: the ring name "Mem_Cached" must be lower-case letters/,
    );
    expect(managerUsage()).toContain('--sharding <ring>');
  });
});
