/**
 * `@Webhook` / `@Hub` → config/webhook/manifests.yaml, compared with what controller-gen v0.21
 * writes for the same markers on kubebuilder v4.15's scaffold (Memcached defaulter + validator and
 * a Pod defaulter), and the marker errors, each at its source line.
 */
import { describe, expect, it } from 'vitest';
import { readApiModel } from '../../src/codegen/reader/index.js';
import { generateManifests } from '../../src/manifests/generate.js';

const GV = "export const groupVersion = { group: 'cache.example.com', version: 'v1alpha1' };\n";
const KIND = "import { Resource, StorageVersion } from '../../runtime/markers/index.js';\n@Resource()\n@StorageVersion()\nexport class Memcached { spec?: { size?: number } }\n";
const hook = (opts: string, name = 'MemcachedCustomDefaulter'): string =>
  `import { Webhook } from '../runtime/markers/index.js';\n@Webhook(${opts})\nexport class ${name} {}\n`;
const MUTATE =
  "{ path: '/mutate-cache-example-com-v1alpha1-memcached', mutating: true, failurePolicy: 'fail', sideEffects: 'None', groups: ['cache.example.com'], resources: ['memcacheds'], verbs: ['create', 'update'], versions: ['v1alpha1'], name: 'mmemcached-v1alpha1.kb.io', admissionReviewVersions: ['v1'] }";
const VALIDATE = MUTATE.replace('/mutate-', '/validate-').replace('mutating: true', 'mutating: false').replace("'mmemcached", "'vmemcached");
const POD = "{ path: '/mutate--v1-pod', mutating: true, failurePolicy: 'fail', sideEffects: 'None', groups: [''], resources: ['pods'], verbs: ['create', 'update'], versions: ['v1'], name: 'mpod-v1.kb.io', admissionReviewVersions: ['v1'] }";

function generate(extra: Record<string, string>) {
  const model = readApiModel({ 'src/api/v1alpha1/groupversion.ts': GV, 'src/api/v1alpha1/memcached-types.ts': KIND, ...extra });
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
      'src/webhooks/v1alpha1/memcached-webhook.ts': hook(MUTATE) + hook(VALIDATE, 'MemcachedCustomValidator').split('\n').slice(1).join('\n'),
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
    const opts = MUTATE.replace(" }", ", matchPolicy: 'Equivalent', reinvocationPolicy: 'IfNeeded', timeoutSeconds: 5, namespaceSelector: { matchLabels: { webhooks: 'enabled' } } }");
    const yaml = generate({ 'src/webhooks/m.ts': hook(opts) }).files['webhook/manifests.yaml'] ?? '';
    expect(yaml).toContain('  matchPolicy: Equivalent\n');
    expect(yaml).toContain('  namespaceSelector:\n    matchLabels:\n      webhooks: enabled\n');
    expect(yaml).toContain('  reinvocationPolicy: IfNeeded\n');
    expect(yaml).toContain('  timeoutSeconds: 5\n');
  });

  it.each([
    [MUTATE.replace("sideEffects: 'None'", "sideEffects: 'Some'"), "sideEffects 'Some' is not allowed"],
    [MUTATE.replace("verbs: ['create', 'update']", "verbs: ['patch']"), "verb 'patch' is not an admission operation"],
    [MUTATE.replace("'mmemcached-v1alpha1.kb.io'", "'mmemcached'"), "name 'mmemcached' must be a fully qualified DNS name"],
    [MUTATE.replace("'/mutate-", "'mutate-"), "must start with '/'"],
    [MUTATE.replace(" }", ', timeoutSeconds: 31 }'), 'timeoutSeconds 31 must be between 1 and 30'],
    [VALIDATE.replace(" }", ", reinvocationPolicy: 'IfNeeded' }"), 'reinvocationPolicy applies to mutating webhooks only'],
    [MUTATE.replace("path: '/mutate-cache-example-com-v1alpha1-memcached', ", ''), "option 'path' is required"],
    [MUTATE.replace(" }", ', namespaceSelector: { labels: {} } }'), "option 'namespaceSelector' has unknown key 'labels'"],
  ])('refuses a bad @Webhook at its line: %#', (opts, message) => {
    const r = generate({ 'src/webhooks/m.ts': hook(opts) });
    expect(r.errors).toHaveLength(1);
    expect(String(r.errors[0]?.message)).toContain('src/webhooks/m.ts:2: MemcachedCustomDefaulter: @Webhook');
    expect(String(r.errors[0]?.message)).toContain(message);
    expect(r.files).toEqual({});
  });

  it('refuses two webhooks with one name, at the second', () => {
    const r = generate({ 'src/webhooks/a.ts': hook(MUTATE, 'A'), 'src/webhooks/b.ts': hook(MUTATE, 'B') });
    expect(r.errors.map((e) => e.message)).toEqual([expect.stringContaining("src/webhooks/b.ts:2: @Webhook: name 'mmemcached-v1alpha1.kb.io' is also used at src/webhooks/a.ts:2")]);
  });

  it('@Hub() on one version is accepted; on two it is an error at the second', () => {
    const hub = (v: string): Record<string, string> => ({
      [`src/api/${v}/groupversion.ts`]: GV.replace('v1alpha1', v),
      [`src/api/${v}/memcached-types.ts`]: KIND.replace('import {', 'import { Hub,').replace('@StorageVersion()\n', '').replace('@Resource()', '@Hub()\n@Resource()'),
    });
    expect(generate(hub('v2')).errors).toEqual([]);
    const both = generate({ ...hub('v2'), ...hub('v3') });
    expect(both.errors.map((e) => e.message)).toEqual([expect.stringContaining('src/api/v3/memcached-types.ts:2: Memcached: @Hub() is on v2 and v3 of cache.example.com')]);
  });
});
