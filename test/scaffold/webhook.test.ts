/**
 * `tsop create webhook` in-process: the plan (files, main.ts registration, kustomize layers
 * enabled once), PROJECT as kubebuilder v4.15 records webhooks (spoke list, core kinds), a golden
 * tree, and a table of bad flags that each fail with one line and leave the project unchanged.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseProject, renderProject } from '../../src/project/config.js';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runCreateWebhook, type CreateWebhookFlags } from '../../src/cli/create-webhook.js';
import { runInit } from '../../src/cli/init.js';
import { runtimeChecksums, runtimeFiles } from '../../src/scaffold/embedded-runtime.js';
import { captured, expectGolden, oneLineDecorators, readTree, tempProject } from './harness.js';

/** The golden holds what create webhook writes or changes, so base-template changes elsewhere leave it alone. */
const WEBHOOK_FILES =
  /^(PROJECT|src\/webhooks\/.*|src\/api\/.*-conversion\.ts|config\/(webhook|certmanager|self-provision|default|crd|network-policy)\/.*)$/;
const only = (tree: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(tree).filter(([path]) => WEBHOOK_FILES.test(path)));

async function memcached(name = 'memcached'): Promise<string> {
  const dir = tempProject(name);
  await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
  await runCreateApi(
    { dir, group: 'cache', version: 'v1alpha1', kind: 'Memcached', resource: true, controller: true, make: false },
    captured(),
  );
  await runCreateApi(
    { dir, group: 'cache', version: 'v2', kind: 'Memcached', resource: true, controller: false, make: false },
    captured(),
  );
  return dir;
}

const webhook = (dir: string, flags: CreateWebhookFlags) =>
  runCreateWebhook({ dir, make: false, ...flags }, captured());
const failure = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'no error',
    (e: unknown) => (e as Error).message,
  );

describe('tsop create webhook', { timeout: 60_000 }, () => {
  it('scaffolds defaulting + validation, conversion with a spoke, and a core Pod defaulter and validator (golden: memcached-webhooks)', async () => {
    const dir = await memcached('memcached-webhooks');
    await webhook(dir, {
      group: 'cache',
      version: 'v1alpha1',
      kind: 'Memcached',
      defaulting: true,
      programmaticValidation: true,
    });
    await webhook(dir, { group: 'cache', version: 'v2', kind: 'Memcached', conversion: true, spoke: 'v1alpha1' });
    await webhook(dir, { group: 'core', version: 'v1', kind: 'Pod', defaulting: true, programmaticValidation: true });
    const tree = readTree(dir);
    expectGolden('memcached-webhooks', only(tree));

    // PROJECT as kubebuilder v4.15 writes it for the same commands.
    const resources = (parse(tree['PROJECT'] ?? '') as { resources: Array<Record<string, unknown>> }).resources;
    expect(resources.map((r) => r['webhooks'])).toEqual([
      { defaulting: true, validation: true, webhookVersion: 'v1' },
      { conversion: true, spoke: ['v1alpha1'], webhookVersion: 'v1' },
      { defaulting: true, validation: true, webhookVersion: 'v1' },
    ]);
    expect(resources[2]).toEqual({
      core: true,
      group: 'core',
      kind: 'Pod',
      version: 'v1',
      webhooks: { defaulting: true, validation: true, webhookVersion: 'v1' },
    });
    // A core kind with a known sample is tested through the API server too, without CRDs.
    expect(tree['src/webhooks/v1/pod-webhook.test.ts']).toContain(
      'const plane = { webhooks: { manifests: [webhooks] } };',
    );
    expect(tree['src/webhooks/v1/pod-webhook.test.ts']).toContain(
      "spec: { containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.10' }] }",
    );

    // Enabled once, whatever the number of webhooks.
    const kustomization = tree['config/default/kustomization.yaml'] ?? '';
    expect(kustomization.match(/^- \.\.\/webhook$/gm)).toHaveLength(1);
    expect(kustomization.match(/^- path: manager_webhook_patch\.yaml$/gm)).toHaveLength(1);
    expect(kustomization.match(/^#- \.\.\/self-provision$/gm)).toHaveLength(1);
    expect(kustomization).toContain('- path: certmanager_replacements.yaml\n#');
    expect(kustomization).toContain('#- path: self_provision_replacements.yaml\n');
    // Each configuration and conversion CRD once in both variants, whatever the order of the webhooks.
    const once = (file: string, text: string) => expect(tree[file]?.split(text), `${file}: ${text}`).toHaveLength(2);
    for (const tag of [
      'ValidatingWebhookConfiguration',
      'MutatingWebhookConfiguration',
      'CustomResourceDefinition memcacheds.cache.example.com',
    ]) {
      once('config/default/certmanager_replacements.yaml', `# CA injection: ${tag}\n`);
      once('config/default/manager_webhook_self_provision_patch.yaml', `# CA into ${tag}\n`);
      once('config/self-provision/cluster_role.yaml', `# caBundle of ${tag}\n`);
    }
    for (const flag of [
      '--webhook-validating-configuration=validating-webhook-configuration',
      '--webhook-mutating-configuration=mutating-webhook-configuration',
      '--webhook-conversion-crd=memcacheds.cache.example.com',
    ]) {
      once('config/default/manager_webhook_self_provision_patch.yaml', `value: ${flag}\n`);
    }
    once('config/default/self_provision_replacements.yaml', '# Name of the MutatingWebhookConfiguration\n');
    once('config/default/self_provision_replacements.yaml', '# Name of the ValidatingWebhookConfiguration\n');
    // CRD names take no namePrefix: nothing to replace.
    expect(tree['config/default/self_provision_replacements.yaml']).not.toContain('CustomResourceDefinition');
    expect(tree['config/crd/kustomization.yaml']).toContain('- path: patches/webhook_in_memcacheds.yaml\n');
    // The hub's types (the api template's, not in the golden): @Hub() above @Resource, Hub imported.
    expect(tree['src/api/v2/memcached.ts']).toMatch(/^@Hub\(\)\n@Resource\(/m);
    expect(tree['src/api/v2/memcached.ts']).toMatch(
      /import \{\n {2}Hub,\n[^}]*\} from '\.\.\/\.\.\/runtime\/markers\/index\.js';/,
    );
    expect(tree['src/api/v1alpha1/memcached.ts']).not.toContain('Hub');
    expect(tree['src/main.ts']).toContain(
      "if (process.env['ENABLE_WEBHOOKS'] !== 'false') setupMemcachedV1alpha1Webhook(mgr);\n",
    );
    // PROJECT reads back as written: spoke lists and core kinds (no domain) survive a round trip.
    expect(renderProject(parseProject(tree['PROJECT'] ?? ''))).toBe(tree['PROJECT']);
  });

  it('lists config/webhook/manifests.yaml only once an admission webhook exists (conversion alone writes none)', async () => {
    const dir = await memcached();
    await webhook(dir, { group: 'cache', version: 'v2', kind: 'Memcached', conversion: true, spoke: 'v1alpha1' });
    const layer = join(dir, 'config/webhook/kustomization.yaml');
    expect(readFileSync(layer, 'utf8')).not.toMatch(/^- manifests\.yaml$/m);
    await webhook(dir, { group: 'cache', version: 'v1alpha1', kind: 'Memcached', programmaticValidation: true });
    expect(readFileSync(layer, 'utf8')).toBe('resources:\n- service.yaml\n- manifests.yaml\n');
    await webhook(dir, { group: 'core', version: 'v1', kind: 'Pod', defaulting: true });
    expect(readFileSync(layer, 'utf8').match(/^- manifests\.yaml$/gm)).toHaveLength(1);
  });

  it("writes a spoke's converter that throws, not one that copies, once the versions' types differ", async () => {
    const dir = await memcached();
    const spoke = join(dir, 'src/api/v1alpha1/memcached.ts');
    writeFileSync(spoke, readFileSync(spoke, 'utf8').replace('  foo?: string;', '  size!: number;'));
    await webhook(dir, { group: 'cache', version: 'v2', kind: 'Memcached', conversion: true, spoke: 'v1alpha1' });
    const converter = readFileSync(join(dir, 'src/api/v1alpha1/memcached-conversion.ts'), 'utf8');
    expect(converter).not.toContain('structuredClone');
    expect(converter).toContain(
      "throw new Error('Memcached v1alpha1 → v2: the conversion is not written yet (convertTo in src/api/v1alpha1/memcached-conversion.ts)');",
    );
    expect(converter).toContain(
      "throw new Error('Memcached v2 → v1alpha1: the conversion is not written yet (convertFrom in src/api/v1alpha1/memcached-conversion.ts)');",
    );
  });

  it('registers above the builder marker in a main.ts made before webhooks (no webhook marker)', async () => {
    const dir = await memcached();
    const main = join(dir, 'src/main.ts');
    const old = readFileSync(main, 'utf8').replace(
      /\n\/\/ Webhooks are served[^\n]*\n\/\/ \+kubebuilder:scaffold:webhook\n/,
      '\n',
    );
    expect(old).not.toContain('scaffold:webhook');
    writeFileSync(main, old);
    await webhook(dir, { group: 'cache', version: 'v1alpha1', kind: 'Memcached', defaulting: true });
    expect(readFileSync(main, 'utf8')).toMatch(
      /setupMemcachedV1alpha1Webhook\(mgr\);\n\/\/ \+kubebuilder:scaffold:builder\n/,
    );
  });

  it("brings the runtime's webhook module with the first webhook, and has main.ts make its server for the manager", async () => {
    const dir = await memcached();
    const runtime = (tree: Record<string, string>) => Object.keys(tree).filter((p) => p.startsWith('src/runtime/'));
    const before = readTree(dir);
    expect(runtime(before).filter((p) => p.startsWith('src/runtime/webhook/'))).toEqual([]);
    expect(before['src/runtime/index.ts']).not.toContain('webhook');
    expect(before['src/runtime/CHECKSUMS']).not.toContain('webhook/');
    expect(before['src/main.ts']).not.toContain('webhook/index.js');

    await webhook(dir, { group: 'cache', version: 'v1alpha1', kind: 'Memcached', defaulting: true });
    const after = readTree(dir);
    const added = runtime(after).filter((p) => !(p in before));
    const embedded = runtimeFiles(['webhook']).filter(([p]) => p.startsWith('src/runtime/webhook/'));
    expect(added.sort()).toEqual(embedded.map(([p]) => p).sort());
    for (const [path, content] of embedded) expect(after[path], path).toBe(content);
    // The barrel and CHECKSUMS are what init writes for a project that has the module; VERSION stays.
    const withModule = new Map(runtimeFiles(['webhook']));
    expect(after['src/runtime/index.ts']).toBe(withModule.get('src/runtime/index.ts'));
    expect(after['src/runtime/CHECKSUMS']).toBe(runtimeChecksums(runtimeFiles(['webhook'])));
    expect(after['src/runtime/VERSION']).toBe(before['src/runtime/VERSION']);
    expect(after['src/main.ts']).toContain("import { webhookServerFromFlags } from './runtime/webhook/index.js';\n");
    expect(after['src/main.ts']).toContain(
      [
        '  logger: log,',
        '  // The server the webhooks below register on (HTTPS on --webhook-port).',
        '  webhookServer: webhookServerFromFlags(flags),',
        '  // +kubebuilder:scaffold:manager-options',
      ].join('\n'),
    );

    // A second webhook adds nothing more to either.
    await webhook(dir, { group: 'core', version: 'v1', kind: 'Pod', defaulting: true });
    const again = readTree(dir);
    expect(again['src/runtime/CHECKSUMS']).toBe(after['src/runtime/CHECKSUMS']);
    expect(again['src/main.ts']?.match(/webhookServerFromFlags/g)).toHaveLength(2);
  });

  it('leaves a main.ts of tsop 0.2 (no manager-options marker) to its manager, which makes the server from the flags', async () => {
    const dir = await memcached();
    const main = join(dir, 'src/main.ts');
    writeFileSync(main, readFileSync(main, 'utf8').replace('  // +kubebuilder:scaffold:manager-options\n', ''));
    await webhook(dir, { group: 'cache', version: 'v1alpha1', kind: 'Memcached', defaulting: true });
    const text = readFileSync(main, 'utf8');
    expect(text).not.toContain('webhookServerFromFlags');
    expect(text).toContain("if (process.env['ENABLE_WEBHOOKS'] !== 'false') setupMemcachedV1alpha1Webhook(mgr);\n");
    expect(readFileSync(join(dir, 'src/runtime/webhook/index.ts'), 'utf8')).toContain('webhookServerFromFlags');
  });

  it('refuses a PROJECT whose spoke list is not versions, at its line', () => {
    const text =
      `version: "3"\ndomain: example.com\nlayout:\n- typescript.tsop.dev/v1\nprojectName: ` +
      `p\nresources:\n- group: cache\n  kind: Memcached\n  version: v2\n  webhooks:\n    ` +
      `conversion: true\n    spoke:\n    - one\n    webhookVersion: v1\n`;
    expect(() => parseProject(text)).toThrow(/^PROJECT:13: /);
  });

  it('adds validation to a kind that has defaulting only with --force, keeping both', async () => {
    const dir = await memcached();
    await webhook(dir, { group: 'cache', version: 'v1alpha1', kind: 'Memcached', defaulting: true });
    expect(
      await failure(
        webhook(dir, { group: 'cache', version: 'v1alpha1', kind: 'Memcached', programmaticValidation: true }),
      ),
    ).toBe(
      'src/webhooks/v1alpha1/memcached-webhook.ts already exists; pass --force to write it again with defaulting, validation (your changes to it are replaced)',
    );
    await webhook(dir, {
      group: 'cache',
      version: 'v1alpha1',
      kind: 'Memcached',
      programmaticValidation: true,
      force: true,
    });
    const tree = readTree(dir);
    expect(tree['src/webhooks/v1alpha1/memcached-webhook.ts']).toContain(
      '    .withDefaulter(new MemcachedCustomDefaulter())\n    .withValidator(new MemcachedCustomValidator())',
    );
    expect(tree['src/main.ts']?.match(/setupMemcachedV1alpha1Webhook\(mgr\)/g)).toHaveLength(1);
  });

  it('--dry-run lists the plan and writes nothing', async () => {
    const dir = await memcached();
    const before = readTree(dir);
    const io = captured();
    await runCreateWebhook(
      { dir, group: 'cache', version: 'v1alpha1', kind: 'Memcached', defaulting: true, dryRun: true },
      io,
    );
    expect(io.stdout).toContain('create    src/webhooks/v1alpha1/memcached-webhook.ts\n');
    expect(io.stdout).toContain('create    config/certmanager/certificate-webhook.yaml\n');
    expect(io.stdout).toContain('update    config/default/kustomization.yaml\n');
    expect(readTree(dir)).toEqual(before);
  });

  it.each<[string, CreateWebhookFlags, string]>([
    [
      'no webhook type',
      { group: 'cache', version: 'v1alpha1', kind: 'Memcached' },
      'nothing to scaffold: pass at least one of --defaulting, --programmatic-validation and --conversion',
    ],
    [
      'missing kind',
      { group: 'cache', version: 'v1alpha1', defaulting: true },
      '--kind is required; e.g. tsop create webhook --group batch --version v1 --kind CronJob --defaulting',
    ],
    [
      'unknown resource',
      { group: 'cache', version: 'v1', kind: 'Memcached', defaulting: true },
      "cache/v1, Kind=Memcached is not an API of this project (PROJECT); create it first with 'tsop create api --group cache --version v1 --kind Memcached'",
    ],
    [
      'conversion without spoke',
      { group: 'cache', version: 'v2', kind: 'Memcached', conversion: true },
      '--conversion needs --spoke: the other versions of Memcached that convert through v2 (the hub), e.g. --spoke v1',
    ],
    [
      'spoke that does not exist',
      { group: 'cache', version: 'v2', kind: 'Memcached', conversion: true, spoke: 'v3' },
      "--spoke: Memcached has no version 'v3' in PROJECT (it has v1alpha1, v2)",
    ],
    [
      'spoke is the hub',
      { group: 'cache', version: 'v2', kind: 'Memcached', conversion: true, spoke: 'v2' },
      "--spoke: 'v2' is the hub version itself",
    ],
    [
      'spoke without conversion',
      { group: 'cache', version: 'v2', kind: 'Memcached', defaulting: true, spoke: 'v1alpha1' },
      "--spoke: 'v1alpha1' is only used with --conversion",
    ],
    [
      'bad spoke version',
      { group: 'cache', version: 'v2', kind: 'Memcached', conversion: true, spoke: 'one' },
      "--spoke: 'one' is not a Kubernetes API version",
    ],
    [
      'conversion of a core kind',
      { group: 'core', version: 'v1', kind: 'Pod', conversion: true, spoke: 'v2' },
      "--conversion: Pod is a built-in kind of group 'core'",
    ],
    ['bad kind', { group: 'cache', version: 'v1alpha1', kind: 'memcached', defaulting: true }, "--kind: 'memcached'"],
    [
      'a defaulting path without --defaulting',
      { group: 'cache', version: 'v1alpha1', kind: 'Memcached', programmaticValidation: true, defaultingPath: '/x' },
      "--defaulting-path: '/x' can only be used with --defaulting",
    ],
    [
      'a validation path without --programmatic-validation',
      { group: 'cache', version: 'v1alpha1', kind: 'Memcached', defaulting: true, validationPath: '/x' },
      "--validation-path: '/x' can only be used with --programmatic-validation",
    ],
    [
      'a path without its slash',
      { group: 'cache', version: 'v1alpha1', kind: 'Memcached', defaulting: true, defaultingPath: 'my-mutate' },
      "--defaulting-path: 'my-mutate' is not a URL path (a '/' followed by path characters, no query or fragment); start it with '/', e.g. '/my-mutate'",
    ],
    [
      'a path with a query',
      { group: 'cache', version: 'v1alpha1', kind: 'Memcached', defaulting: true, defaultingPath: '/a?b' },
      "--defaulting-path: '/a?b' is not a URL path",
    ],
    [
      'the conversion path',
      {
        group: 'cache',
        version: 'v1alpha1',
        kind: 'Memcached',
        programmaticValidation: true,
        validationPath: '/convert',
      },
      "--validation-path: '/convert' is where the webhook server serves conversion",
    ],
    [
      'one path for both webhooks',
      {
        group: 'cache',
        version: 'v1alpha1',
        kind: 'Memcached',
        defaulting: true,
        programmaticValidation: true,
        defaultingPath: '/hook',
        validationPath: '/hook',
      },
      "--validation-path: '/hook' is used by both webhooks of Memcached",
    ],
    [
      'another plural for a project kind',
      { group: 'cache', version: 'v1alpha1', kind: 'Memcached', defaulting: true, plural: 'memcachedes' },
      "--plural: Memcached's CRD is served as 'memcacheds' (set by create api)",
    ],
    [
      'a bad plural',
      { group: 'core', version: 'v1', kind: 'Pod', defaulting: true, plural: 'Pods' },
      "--plural: 'Pods' is not a DNS-1123 label",
    ],
    [
      'an external domain without its path',
      { group: 'cert-manager', version: 'v1', kind: 'Certificate', defaulting: true, externalApiDomain: 'io' },
      "--external-api-domain: 'io' names the domain of another project's kind; pass --external-api-path too",
    ],
    [
      'conversion of an external kind',
      {
        group: 'cert-manager',
        version: 'v1',
        kind: 'Certificate',
        conversion: true,
        spoke: 'v2',
        externalApiPath: '@acme/certs/v1',
        externalApiDomain: 'io',
      },
      "--conversion: cert-manager/v1, Kind=Certificate is another project's kind",
    ],
    [
      'an external path that is no module',
      {
        group: 'cert-manager',
        version: 'v1',
        kind: 'Certificate',
        defaulting: true,
        externalApiPath: 'Certs API',
        externalApiDomain: 'io',
      },
      "--external-api-path: 'Certs API' is neither an npm package",
    ],
  ])('refuses %s with one line and changes nothing', async (_name, flags, message) => {
    const dir = await memcached();
    const before = readTree(dir);
    const error = await failure(webhook(dir, flags));
    expect(error).toContain(message);
    expect(error.split('\n')).toHaveLength(1);
    expect(readTree(dir)).toEqual(before);
  });

  it('serves at --defaulting-path and --validation-path, recorded in PROJECT as kubebuilder v4.15 records them, and kept when a webhook is added later', async () => {
    const dir = await memcached();
    await webhook(dir, {
      group: 'cache',
      version: 'v1alpha1',
      kind: 'Memcached',
      defaulting: true,
      defaultingPath: '/my-mutate',
    });
    let tree = readTree(dir);
    expect(tree['src/webhooks/v1alpha1/memcached-webhook.ts']).toContain(
      ".withDefaulter(new MemcachedCustomDefaulter()).withDefaulterCustomPath('/my-mutate').complete();",
    );
    expect(oneLineDecorators(tree['src/webhooks/v1alpha1/memcached-webhook.ts'] ?? '')).toContain(
      "@Webhook({ path: '/my-mutate', mutating: true,",
    );
    // The test registers the handlers as setupMemcachedWebhookWithManager does: at the same paths.
    expect(tree['src/webhooks/v1alpha1/memcached-webhook.test.ts']).toContain(
      ".withDefaulter(defaulter).withDefaulterCustomPath('/my-mutate').complete();",
    );
    await webhook(dir, {
      group: 'cache',
      version: 'v1alpha1',
      kind: 'Memcached',
      programmaticValidation: true,
      validationPath: '/my-validate',
      force: true,
    });
    tree = readTree(dir);
    const code = oneLineDecorators(tree['src/webhooks/v1alpha1/memcached-webhook.ts'] ?? '');
    expect(code).toContain(
      "    .withDefaulterCustomPath('/my-mutate')\n    .withValidator(new MemcachedCustomValidator())\n    .withValidatorCustomPath('/my-validate')\n    .complete();",
    );
    expect(code).toContain("@Webhook({ path: '/my-validate', mutating: false,");
    // kubebuilder v4.15's PROJECT for `create webhook ... --defaulting-path /my-mutate --validation-path /my-validate`
    expect(tree['PROJECT']).toContain(
      '  webhooks:\n    defaulting: true\n    defaultingPath: /my-mutate\n    validation: true\n    validationPath: /my-validate\n    webhookVersion: v1\n',
    );
    expect(parseProject(tree['PROJECT'] ?? '').resources[0]?.webhooks).toEqual({
      defaulting: true,
      defaultingPath: '/my-mutate',
      validation: true,
      validationPath: '/my-validate',
      webhookVersion: 'v1',
    });
    // Another kind may not take a path already served.
    await runCreateApi(
      { dir, group: 'cache', version: 'v1', kind: 'Shelf', resource: true, controller: false, make: false },
      captured(),
    );
    expect(
      await failure(
        webhook(dir, {
          group: 'cache',
          version: 'v1',
          kind: 'Shelf',
          defaulting: true,
          defaultingPath: '/my-validate',
        }),
      ),
    ).toBe(
      "--defaulting-path: '/my-validate' is already served by the validating webhook of cache.example.com/v1alpha1 Memcached; choose another path",
    );
  });

  it('a PROJECT webhook path that is not a path is refused at its line', () => {
    const text =
      `version: "3"\ndomain: example.com\nlayout:\n- typescript.tsop.dev/v1\nprojectName: ` +
      `p\nresources:\n- group: cache\n  kind: Memcached\n  version: v1\n  webhooks:\n    ` +
      `defaulting: true\n    defaultingPath: my-mutate\n    webhookVersion: v1\n`;
    expect(() => parseProject(text)).toThrow(/^PROJECT:12: defaultingPath: 'my-mutate' is not a URL path/);
  });

  it("--plural names a built-in kind's resource, and PROJECT keeps it", async () => {
    const dir = await memcached();
    await webhook(dir, { group: 'core', version: 'v1', kind: 'Endpoints', defaulting: true, plural: 'endpoints' });
    const tree = readTree(dir);
    expect(tree['src/webhooks/v1/endpoints-webhook.ts']).toContain("resources: ['endpoints']");
    expect(parseProject(tree['PROJECT'] ?? '').resources.find((r) => r.kind === 'Endpoints')).toMatchObject({
      core: true,
      plural: 'endpoints',
    });
    expect(
      await failure(
        webhook(dir, {
          group: 'core',
          version: 'v1',
          kind: 'Endpoints',
          programmaticValidation: true,
          plural: 'endpointses',
          force: true,
        }),
      ),
    ).toContain("--plural: PROJECT already names Endpoints's plural 'endpoints'");
  });

  it("scaffolds webhooks for another project's kind (--external-api-path, --external-api-domain) as kubebuilder records them, or for one create api already took in", async () => {
    const dir = await memcached();
    writeFileSync(
      join(dir, 'src/certificate.ts'),
      'export interface Certificate { metadata?: { name?: string }; spec: { secretName: string } }\n',
    );
    await webhook(dir, {
      group: 'cert-manager',
      version: 'v1',
      kind: 'Certificate',
      defaulting: true,
      programmaticValidation: true,
      externalApiPath: 'src/certificate.ts',
      externalApiDomain: 'io',
    });
    const tree = readTree(dir);
    const code = oneLineDecorators(tree['src/webhooks/v1/certificate-webhook.ts'] ?? '');
    expect(code).toContain("import type { Certificate } from '../../certificate.js';");
    expect(code).toContain(
      "export const certificateKind = { group: 'cert-manager.io', version: 'v1', kind: 'Certificate' } as const;",
    );
    // kubebuilder v4.15's marker for the same kind
    expect(code).toContain(
      "@Webhook({ path: '/mutate-cert-manager-io-v1-certificate', mutating: true, failurePolicy: " +
        "'fail', sideEffects: 'None', groups: ['cert-manager.io'], resources: ['certificates'], " +
        "verbs: ['create', 'update'], versions: ['v1'], name: 'mcertificate-v1.kb.io', " +
        "admissionReviewVersions: ['v1'] })",
    );
    // No CRD of the kind here: the test calls the classes (typed loosely: the other project's type may require fields).
    expect(tree['src/webhooks/v1/certificate-webhook.test.ts']).not.toContain('describeWithControlPlane');
    expect(tree['src/webhooks/v1/certificate-webhook.test.ts']).toContain('.default(obj as never, ');
    expect(parseProject(tree['PROJECT'] ?? '').resources.find((r) => r.kind === 'Certificate')).toEqual({
      group: 'cert-manager',
      version: 'v1',
      kind: 'Certificate',
      domain: 'io',
      external: true,
      path: 'src/certificate.ts',
      webhooks: { defaulting: true, validation: true, webhookVersion: 'v1' },
    });
    // Again, from PROJECT: the flags may be left out, and may not disagree.
    expect(
      await failure(
        webhook(dir, {
          group: 'cert-manager',
          version: 'v1',
          kind: 'Certificate',
          defaulting: true,
          force: true,
          externalApiPath: 'src/other.ts',
        }),
      ),
    ).toBe(
      "--external-api-path: PROJECT takes cert-manager/v1, Kind=Certificate from 'src/certificate.ts'; drop --external-api-path or pass 'src/certificate.ts'",
    );
    await webhook(dir, { group: 'cert-manager', version: 'v1', kind: 'Certificate', defaulting: true, force: true });
    expect(readTree(dir)['src/webhooks/v1/certificate-webhook.ts']).toContain(
      "import type { Certificate } from '../../certificate.js';",
    );

    // A kind create api took in from another project gets its webhooks the same way.
    await runCreateApi(
      {
        dir,
        group: 'networking',
        version: 'v1',
        kind: 'Gateway',
        resource: false,
        controller: true,
        externalApiPath: '@acme/gateway-api/v1',
        externalApiDomain: 'example.org',
        make: false,
      },
      captured(),
    );
    await webhook(dir, { group: 'networking', version: 'v1', kind: 'Gateway', programmaticValidation: true });
    const gateway = oneLineDecorators(readTree(dir)['src/webhooks/v1/gateway-webhook.ts'] ?? '');
    expect(gateway).toContain("import type { Gateway } from '@acme/gateway-api/v1';");
    expect(gateway).toContain("groups: ['networking.example.org'], resources: ['gateways']");
  });

  it('ends with what to do next, as kubebuilder does: npm install for a new dependency, the files to fill in, regenerate and test', async () => {
    const dir = await memcached();
    const io = captured();
    await runCreateWebhook(
      { dir, make: false, group: 'cache', version: 'v1alpha1', kind: 'Memcached', defaulting: true },
      io,
    );
    expect(io.stderr.trimEnd().split('\n').at(-1)).toBe(
      "next: fill in src/webhooks/v1alpha1/memcached-webhook.ts, then run 'npm run manifests' (or 'npx tsop manifests') and 'npm test'",
    );
    const external = captured();
    await runCreateWebhook(
      {
        dir,
        make: false,
        group: 'cert-manager',
        version: 'v1',
        kind: 'Certificate',
        defaulting: true,
        externalApiPath: '@acme/certs/v1',
        externalApiDomain: 'io',
        externalApiModule: '@acme/certs@2.1.0',
      },
      external,
    );
    expect(external.stderr).toContain('updated package.json\n');
    expect(external.stderr.trimEnd().split('\n').at(-1)).toBe(
      "next: run 'npm install' (package.json has a new dependency), fill in src/webhooks/v1/certificate-webhook.ts, then run 'npm run manifests' (or 'npx tsop manifests') and 'npm test'",
    );
    const conversion = captured();
    await runCreateWebhook(
      { dir, make: false, group: 'cache', version: 'v2', kind: 'Memcached', conversion: true, spoke: 'v1alpha1' },
      conversion,
    );
    expect(conversion.stderr.trimEnd().split('\n').at(-1)).toBe(
      "next: fill in src/api/v1alpha1/memcached-conversion.ts and src/webhooks/v2/memcached-webhook.ts, then run 'npm run manifests' (or 'npx tsop manifests') and 'npm test'",
    );
  });

  it('refuses a second webhook of the same type without --force', async () => {
    const dir = await memcached();
    await webhook(dir, { group: 'cache', version: 'v1alpha1', kind: 'Memcached', defaulting: true });
    const before = readTree(dir);
    expect(
      await failure(webhook(dir, { group: 'cache', version: 'v1alpha1', kind: 'Memcached', defaulting: true })),
    ).toBe('--defaulting: cache/v1alpha1, Kind=Memcached already has this webhook; pass --force to scaffold it again');
    expect(readTree(dir)).toEqual(before);
  });
});
