/**
 * `@Webhook` / `@Hub` → config/webhook/manifests.yaml, compared with what controller-gen v0.21
 * writes for the same markers on kubebuilder v4.15's scaffold (Memcached defaulter + validator and
 * a Pod defaulter), and the marker errors, each at its source line.
 */
import { describe, expect, it } from 'vitest';
import { readApiModel } from '../../src/codegen/reader/index.js';
import { generateManifests } from '../../src/manifests/generate.js';

const GV = "export const groupVersion = { group: 'cache.example.com', version: 'v1alpha1' };\n";
const KIND =
  "import { Resource, StorageVersion } from '../../runtime/markers/index.js';\n@Resource()\n@StorageVersion()\nexport class Memcached { spec?: { size?: number } }\n";
const hook = (opts: string, name = 'MemcachedCustomDefaulter'): string =>
  `import { Webhook } from '../runtime/markers/index.js';\n@Webhook(${opts})\nexport class ${name} {}\n`;
const MUTATE =
  "{ path: '/mutate-cache-example-com-v1alpha1-memcached', mutating: true, failurePolicy: " +
  "'fail', sideEffects: 'None', groups: ['cache.example.com'], resources: ['memcacheds'], " +
  "verbs: ['create', 'update'], versions: ['v1alpha1'], name: 'mmemcached-v1alpha1.kb.io', " +
  "admissionReviewVersions: ['v1'] }";
const VALIDATE = MUTATE.replace('/mutate-', '/validate-')
  .replace('mutating: true', 'mutating: false')
  .replace("'mmemcached", "'vmemcached");
const POD =
  "{ path: '/mutate--v1-pod', mutating: true, failurePolicy: 'fail', sideEffects: 'None', " +
  "groups: [''], resources: ['pods'], verbs: ['create', 'update'], versions: ['v1'], name: " +
  "'mpod-v1.kb.io', admissionReviewVersions: ['v1'] }";

function generate(extra: Record<string, string>) {
  const model = readApiModel({
    'src/api/v1alpha1/groupversion.ts': GV,
    'src/api/v1alpha1/memcached-types.ts': KIND,
    ...extra,
  });
  return generateManifests(model, { tsopVersion: '0.0.0-test' });
}

const CONTROLLER_GEN = `---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: mutating-webhook-configuration
webhooks:
- admissionReviewVersions:
  - v1
  clientConfig:
    service:
      name: webhook-service
      namespace: system
      path: /mutate-cache-example-com-v1alpha1-memcached
  failurePolicy: Fail
  name: mmemcached-v1alpha1.kb.io
  rules:
  - apiGroups:
    - cache.example.com
    apiVersions:
    - v1alpha1
    operations:
    - CREATE
    - UPDATE
    resources:
    - memcacheds
  sideEffects: None
- admissionReviewVersions:
  - v1
  clientConfig:
    service:
      name: webhook-service
      namespace: system
      path: /mutate--v1-pod
  failurePolicy: Fail
  name: mpod-v1.kb.io
  rules:
  - apiGroups:
    - ""
    apiVersions:
    - v1
    operations:
    - CREATE
    - UPDATE
    resources:
    - pods
  sideEffects: None
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: validating-webhook-configuration
webhooks:
- admissionReviewVersions:
  - v1
  clientConfig:
    service:
      name: webhook-service
      namespace: system
      path: /validate-cache-example-com-v1alpha1-memcached
  failurePolicy: Fail
  name: vmemcached-v1alpha1.kb.io
  rules:
  - apiGroups:
    - cache.example.com
    apiVersions:
    - v1alpha1
    operations:
    - CREATE
    - UPDATE
    resources:
    - memcacheds
  sideEffects: None
`;

describe('webhook manifests', () => {
  it("writes controller-gen's manifests.yaml: sorted by name whatever the file order", () => {
    const r = generate({
      'src/webhooks/v1/pod-webhook.ts': hook(POD, 'PodCustomDefaulter'),
      'src/webhooks/v1alpha1/memcached-webhook.ts':
        hook(MUTATE) + hook(VALIDATE, 'MemcachedCustomValidator').split('\n').slice(1).join('\n'),
    });
    expect(r.errors.map(String)).toEqual([]);
    expect(r.files['webhook/manifests.yaml']).toBe(CONTROLLER_GEN);
  });

  it('writes no webhook file without @Webhook, and only the configuration that has webhooks', () => {
    expect(generate({}).files['webhook/manifests.yaml']).toBeUndefined();
    const only = generate({ 'src/webhooks/v.ts': hook(VALIDATE, 'V') }).files['webhook/manifests.yaml'] ?? '';
    expect(only).toContain('kind: ValidatingWebhookConfiguration');
    expect(only).not.toContain('Mutating');
  });

  it('keeps the optional settings (matchPolicy, reinvocationPolicy, timeoutSeconds, selectors)', () => {
    const opts = MUTATE.replace(
      ' }',
      ", matchPolicy: 'Equivalent', reinvocationPolicy: 'IfNeeded', timeoutSeconds: 5, namespaceSelector: { matchLabels: { webhooks: 'enabled' } } }",
    );
    const yaml = generate({ 'src/webhooks/m.ts': hook(opts) }).files['webhook/manifests.yaml'] ?? '';
    expect(yaml).toContain('  matchPolicy: Equivalent\n');
    expect(yaml).toContain('  namespaceSelector:\n    matchLabels:\n      webhooks: enabled\n');
    expect(yaml).toContain('  reinvocationPolicy: IfNeeded\n');
    expect(yaml).toContain('  timeoutSeconds: 5\n');
  });

  it.each([
    [MUTATE.replace("sideEffects: 'None'", "sideEffects: 'Some'"), "sideEffects 'Some' is not allowed"],
    [MUTATE.replace("verbs: ['create', 'update']", "verbs: ['patch']"), "verb 'patch' is not an admission operation"],
    [
      MUTATE.replace("'mmemcached-v1alpha1.kb.io'", "'mmemcached'"),
      "name 'mmemcached' must be a fully qualified DNS name",
    ],
    [MUTATE.replace("'/mutate-", "'mutate-"), "must start with '/'"],
    [MUTATE.replace(' }', ', timeoutSeconds: 31 }'), 'timeoutSeconds 31 must be between 1 and 30'],
    [
      VALIDATE.replace(' }', ", reinvocationPolicy: 'IfNeeded' }"),
      'reinvocationPolicy applies to mutating webhooks only',
    ],
    [
      MUTATE.replace("path: '/mutate-cache-example-com-v1alpha1-memcached', ", ''),
      'give path (served by the manager behind the webhook Service',
    ],
    [MUTATE.replace(' }', ", url: 'https://hooks.example.com/mutate' }"), 'path and url exclude each other'],
    [
      MUTATE.replace("path: '/mutate-cache-example-com-v1alpha1-memcached'", "url: 'http://hooks.example.com/mutate'"),
      "url 'http://hooks.example.com/mutate' must use https",
    ],
    [
      MUTATE.replace(
        "path: '/mutate-cache-example-com-v1alpha1-memcached'",
        "url: 'https://hooks.example.com/mutate?x=1'",
      ),
      'must not have a query or a fragment',
    ],
    [
      MUTATE.replace(
        "path: '/mutate-cache-example-com-v1alpha1-memcached'",
        "url: 'https://me:pw@hooks.example.com/mutate'",
      ),
      'must not carry a user or password',
    ],
    [
      MUTATE.replace("path: '/mutate-cache-example-com-v1alpha1-memcached'", "url: 'hooks.example.com/mutate'"),
      "url 'hooks.example.com/mutate' is not a URL",
    ],
    [
      MUTATE.replace(
        "path: '/mutate-cache-example-com-v1alpha1-memcached'",
        "url: 'https://hooks.example.com/mutate', servicePort: 8443",
      ),
      'servicePort applies to a webhook reached through a Service (path), not to one called at url',
    ],
    [MUTATE.replace(' }', ", serviceName: 'Webhook_Service' }"), "serviceName 'Webhook_Service' is not a Service name"],
    [MUTATE.replace(' }', ", serviceNamespace: 'Ops' }"), "serviceNamespace 'Ops' is not a namespace name"],
    [MUTATE.replace(' }', ', servicePort: 70000 }'), 'servicePort 70000 must be between 1 and 65535'],
    [MUTATE.replace(' }', ", webhookVersions: ['v1beta1'] }"), "webhookVersions 'v1beta1' is not supported"],
    [
      MUTATE.replace(' }', ', namespaceSelector: { labels: {} } }'),
      "option 'namespaceSelector' has unknown key 'labels'",
    ],
  ])('refuses a bad @Webhook at its line: %#', (opts, message) => {
    const r = generate({ 'src/webhooks/m.ts': hook(opts) });
    expect(r.errors).toHaveLength(1);
    expect(String(r.errors[0]?.message)).toContain('src/webhooks/m.ts:2: MemcachedCustomDefaulter: @Webhook');
    expect(String(r.errors[0]?.message)).toContain(message);
    expect(r.files).toEqual({});
  });

  it("points at another Service, or at a url, as controller-gen's serviceName / serviceNamespace / servicePort / url do", () => {
    const svc = MUTATE.replace(
      ' }',
      ", serviceName: 'svc-a', serviceNamespace: 'ns-a', servicePort: 8443, webhookVersions: ['v1'] }",
    );
    const url = POD.replace("path: '/mutate--v1-pod'", "url: 'https://example.com:9443/mutate-b'");
    const port = VALIDATE.replace(' }', ', servicePort: 8443 }');
    const r = generate({
      'src/webhooks/a.ts': hook(svc),
      'src/webhooks/b.ts': hook(url, 'B'),
      'src/webhooks/c.ts': hook(port, 'C'),
    });
    expect(r.errors.map(String)).toEqual([]);
    const yaml = r.files['webhook/manifests.yaml'] ?? '';
    // controller-gen v0.21 for the same markers
    expect(yaml).toContain(
      '  clientConfig:\n    service:\n      name: svc-a\n      namespace: ns-a\n      path: ' +
        '/mutate-cache-example-com-v1alpha1-memcached\n      port: 8443\n  failurePolicy: Fail\n  ' +
        'name: mmemcached-v1alpha1.kb.io\n',
    );
    expect(yaml).toContain(
      '  clientConfig:\n    url: https://example.com:9443/mutate-b\n  failurePolicy: Fail\n  name: mpod-v1.kb.io\n',
    );
    expect(yaml).toContain(
      '  clientConfig:\n    service:\n      name: webhook-service\n      namespace: system\n      path: /validate-cache-example-com-v1alpha1-memcached\n      port: 8443\n',
    );
  });

  it('names the configurations after @WebhookConfiguration, wherever it stands', () => {
    const named = (opts: string, config: string, cls: string): string =>
      `import { Webhook, WebhookConfiguration } from '../runtime/markers/index.js';\n@WebhookConfiguration(${config})\n@Webhook(${opts})\nexport class ${cls} {}\n`;
    const r = generate({
      'src/webhooks/m.ts': named(MUTATE, "{ mutating: true, name: 'my-mutating-config' }", 'M'),
      'src/webhooks/v.ts': named(VALIDATE, "{ mutating: false, name: 'my-validating-config' }", 'V'),
      // the same name again is no conflict
      'src/webhooks/p.ts': named(POD, "{ mutating: true, name: 'my-mutating-config' }", 'P'),
    });
    expect(r.errors.map(String)).toEqual([]);
    const yaml = r.files['webhook/manifests.yaml'] ?? '';
    expect(yaml).toBe(
      CONTROLLER_GEN.replace('name: mutating-webhook-configuration', 'name: my-mutating-config').replace(
        'name: validating-webhook-configuration',
        'name: my-validating-config',
      ),
    );
    // on a class of its own, without @Webhook, it is read too
    const apart = generate({
      'src/webhooks/m.ts': hook(MUTATE),
      'src/webhooks/names.ts':
        "import { WebhookConfiguration } from '../runtime/markers/index.js';\n@WebhookConfiguration({ mutating: true, name: 'apart' })\nexport class Names {}\n",
    });
    expect(apart.files['webhook/manifests.yaml']).toContain(
      'kind: MutatingWebhookConfiguration\nmetadata:\n  name: apart\n',
    );
  });

  it('refuses two names for one configuration, and a name the API server would refuse, at their lines', () => {
    const config = (c: string, cls: string): string =>
      `import { WebhookConfiguration } from '../runtime/markers/index.js';\n@WebhookConfiguration(${c})\nexport class ${cls} {}\n`;
    const two = generate({
      'src/webhooks/m.ts': hook(MUTATE),
      'src/webhooks/a.ts': config("{ mutating: true, name: 'one' }", 'A'),
      'src/webhooks/b.ts': config("{ mutating: true, name: 'two' }", 'B'),
    });
    expect(two.errors.map((e) => e.message)).toEqual([
      expect.stringContaining(
        "src/webhooks/b.ts:2: @WebhookConfiguration: the mutating configuration is named 'two' here and 'one' at src/webhooks/a.ts:2",
      ),
    ]);
    expect(two.files).toEqual({});
    const bad = generate({
      'src/webhooks/m.ts': hook(MUTATE),
      'src/webhooks/a.ts': config("{ mutating: true, name: 'My_Config' }", 'A'),
    });
    expect(bad.errors.map((e) => e.message)).toEqual([
      expect.stringContaining("src/webhooks/a.ts:2: A: @WebhookConfiguration: name 'My_Config' is not an object name"),
    ]);
    const missing = generate({ 'src/webhooks/a.ts': config("{ name: 'x' }", 'A') });
    expect(missing.errors.map((e) => e.message)).toEqual([expect.stringContaining("option 'mutating' is required")]);
  });

  it('refuses two webhooks with one name, at the second', () => {
    const r = generate({ 'src/webhooks/a.ts': hook(MUTATE, 'A'), 'src/webhooks/b.ts': hook(MUTATE, 'B') });
    expect(r.errors.map((e) => e.message)).toEqual([
      expect.stringContaining(
        "src/webhooks/b.ts:2: @Webhook: name 'mmemcached-v1alpha1.kb.io' is also used at src/webhooks/a.ts:2",
      ),
    ]);
  });

  it('@Hub() on one version is accepted; on two it is an error at the second', () => {
    const hub = (v: string): Record<string, string> => ({
      [`src/api/${v}/groupversion.ts`]: GV.replace('v1alpha1', v),
      [`src/api/${v}/memcached-types.ts`]: KIND.replace('import {', 'import { Hub,')
        .replace('@StorageVersion()\n', '')
        .replace('@Resource()', '@Hub()\n@Resource()'),
    });
    expect(generate(hub('v2')).errors).toEqual([]);
    const both = generate({ ...hub('v2'), ...hub('v3') });
    expect(both.errors.map((e) => e.message)).toEqual([
      expect.stringContaining(
        'src/api/v3/memcached-types.ts:2: Memcached: @Hub() is on v2 and v3 of cache.example.com',
      ),
    ]);
  });
});
