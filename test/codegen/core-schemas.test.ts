// Tests of the committed core-type data through the public API: the shapes controller-gen emits
// for corev1.Container, PodTemplateSpec, batchv1.JobTemplateSpec and metav1.LabelSelector.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../src/codegen/jsonschema.js';
import {
  coreDefinitionName,
  coreSchemasSource,
  coreTypeNames,
  coreTypeSchema,
  isCoreTypeName,
} from '../../src/codegen/core/index.js';
import { QUANTITY_PATTERN } from '../../src/codegen/core/convert.mjs';
import { checkStructural } from '../../src/manifests/structural.js';

function must(name: string): JSONSchemaProps {
  const s = coreTypeSchema(name);
  if (s === undefined) throw new Error(`${name} has no schema`);
  return s;
}

function prop(s: JSONSchemaProps | undefined, ...path: string[]): JSONSchemaProps {
  let cur = s;
  for (const p of path) {
    cur = p === '[]' ? cur?.items : cur?.properties?.[p];
    if (cur === undefined) throw new Error(`no ${path.join('.')}`);
  }
  return cur as JSONSchemaProps;
}

/** Calls `visit` on every schema node with its path. */
function walk(s: JSONSchemaProps, path: string, visit: (s: JSONSchemaProps, path: string) => void): void {
  visit(s, path);
  for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${path}.${k}`, visit);
  if (s.items) walk(s.items, `${path}[]`, visit);
  if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${path}{}`, visit);
  for (const a of s.anyOf ?? []) walk(a, `${path}|`, visit);
}

describe('core type names', () => {
  it('knows the pod template family, apps and batch specs, and meta LabelSelector', () => {
    for (const n of [
      'V1Container',
      'V1PodTemplateSpec',
      'V1JobTemplateSpec',
      'V1JobSpec',
      'V1PodSpec',
      'V1Volume',
      'V1ResourceRequirements',
      'V1EnvVar',
      'V1LabelSelector',
      'V1Toleration',
      'V1Affinity',
      'V1SecurityContext',
      'V1ServicePort',
      'V1LocalObjectReference',
      'V1ObjectReference',
      'V1DeploymentSpec',
      'V1DeploymentStrategy',
      'V1StatefulSetSpec',
      'V1Probe',
      'V1ObjectMeta',
    ]) {
      expect(isCoreTypeName(n), n).toBe(true);
    }
    expect(coreDefinitionName('V1Container')).toBe('io.k8s.api.core.v1.Container');
    expect(coreDefinitionName('V1LabelSelector')).toBe('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector');
    expect(coreDefinitionName('CoreV1ResourceClaim')).toBe('io.k8s.api.core.v1.ResourceClaim');
    expect(coreSchemasSource()).toMatch(/^k8s\.io\/kubernetes@v1\.\d+\.\d+ api\/openapi-spec\/v3$/);
  });

  it('answers no for user names, primitives and prototype keys', () => {
    for (const n of ['CronJobSpec', 'V1Nope', 'Container', 'V1Time', 'toString', 'constructor', '']) {
      expect(isCoreTypeName(n), n).toBe(false);
      expect(coreTypeSchema(n), n).toBeUndefined();
    }
  });

  it('every core type inlines to a structural schema, except where upstream leaves a list-map key optional', () => {
    // Built-in types are exempt from the CRD rule that list-map keys be required or defaulted; a
    // CRD embedding ServiceAccount.secrets or a FlowSchema status gets that error at its field.
    const refused = new Map<string, string>();
    for (const name of coreTypeNames()) {
      const issues = checkStructural({ type: 'object', properties: { f: must(name) } });
      if (issues[0]) refused.set(name, issues[0].message);
    }
    expect(refused.size).toBeLessThan(25);
    for (const [name, message] of refused)
      expect(message, name).toMatch(/^list-map key '\w+' must be required or defaulted/);
    expect([...refused.keys()]).toContain('V1ServiceAccount');
  });

  it('uses names that are @kubernetes/client-node model classes', () => {
    const require = createRequire(import.meta.url);
    const models = join(dirname(require.resolve('@kubernetes/client-node')), 'gen', 'models');
    // Types added to Kubernetes after the installed client-node was generated (alpha groups, new
    // status types) have no model file yet; all the others must match a model class by name.
    const missing = coreTypeNames().filter((n) => !existsSync(join(models, `${n}.d.ts`)));
    expect(missing.length).toBeLessThan(coreTypeNames().length / 10);
    for (const n of [
      'V1PodTemplateSpec',
      'V1Container',
      'V1LabelSelector',
      'V1Pod',
      'V1Secret',
      'V1Service',
      'V1OwnerReference',
      'V1PolicyRule',
      'V1PodStatus',
    ]) {
      expect(missing, n).not.toContain(n);
    }
  });

  it('knows every type of k8s.io/api of the pinned release, status and list types included', () => {
    expect(coreTypeNames().length).toBeGreaterThan(700);
    for (const [name, definition] of [
      ['V1Pod', 'io.k8s.api.core.v1.Pod'],
      ['V1Secret', 'io.k8s.api.core.v1.Secret'],
      ['V1Service', 'io.k8s.api.core.v1.Service'],
      ['V1OwnerReference', 'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference'],
      ['V1PolicyRule', 'io.k8s.api.rbac.v1.PolicyRule'],
      ['V1PodStatus', 'io.k8s.api.core.v1.PodStatus'],
      ['V1DeploymentStatus', 'io.k8s.api.apps.v1.DeploymentStatus'],
      ['V1PodList', 'io.k8s.api.core.v1.PodList'],
      ['V1Ingress', 'io.k8s.api.networking.v1.Ingress'],
      ['V1CSIDriverSpec', 'io.k8s.api.storage.v1.CSIDriverSpec'],
    ]) {
      expect(coreDefinitionName(name as string), name).toBe(definition);
    }
    expect(must('V1OwnerReference').required).toEqual(['apiVersion', 'kind', 'name', 'uid']);
    expect(prop(must('V1PolicyRule'), 'verbs').items).toEqual({ type: 'string' });
    expect(prop(must('V1Secret'), 'data').additionalProperties).toEqual({ type: 'string', format: 'byte' });
    // A field's +structType overrides the referenced type's: ObjectReference is atomic, but
    // PersistentVolumeSpec.claimRef is marked granular.
    expect(must('V1ObjectReference')['x-kubernetes-map-type']).toBe('atomic');
    expect(prop(must('V1PersistentVolumeSpec'), 'claimRef')['x-kubernetes-map-type']).toBe('granular');
  });
});

describe('V1Container', () => {
  const c = must('V1Container');

  it('is an object requiring name, with its upstream description', () => {
    expect(c.type).toBe('object');
    expect(c.required).toEqual(['name']);
    expect(c.description).toBe('A single application container that you want to run within a pod.');
  });

  it('keeps list-map keys and the TCP default that makes protocol a valid key', () => {
    const ports = prop(c, 'ports');
    expect(ports['x-kubernetes-list-type']).toBe('map');
    expect(ports['x-kubernetes-list-map-keys']).toEqual(['containerPort', 'protocol']);
    expect(prop(ports, '[]', 'protocol').default).toBe('TCP');
    expect(prop(ports, '[]', 'containerPort')).toMatchObject({ type: 'integer', format: 'int32' });
    expect(prop(ports, '[]', 'containerPort').default).toBeUndefined();
    expect(prop(ports, '[]').required).toEqual(['containerPort']);
    expect(prop(c, 'env')['x-kubernetes-list-map-keys']).toEqual(['name']);
  });

  it('renders Quantity and IntOrString as controller-gen does', () => {
    const limits = prop(c, 'resources', 'limits');
    expect(limits.type).toBe('object');
    expect(limits.additionalProperties).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      pattern: QUANTITY_PATTERN,
      'x-kubernetes-int-or-string': true,
    });
    const port = prop(c, 'livenessProbe', 'httpGet', 'port');
    expect(port.anyOf).toEqual([{ type: 'integer' }, { type: 'string' }]);
    expect(port['x-kubernetes-int-or-string']).toBe(true);
    expect(port.pattern).toBeUndefined();
    expect(port.description).toMatch(/port/i);
  });

  it('keeps +default="" markers (LocalObjectReference.name) and drops openapi-gen zero defaults', () => {
    expect(prop(c, 'env', '[]', 'valueFrom', 'secretKeyRef', 'name').default).toBe('');
    expect(prop(c, 'args', '[]')).toEqual({ type: 'string' });
    expect(prop(c, 'resources').default).toBeUndefined();
  });
});

describe('what only the Go source tells', () => {
  it('descriptions keep the doc comment line breaks', () => {
    expect(prop(must('V1Container'), 'image').description).toBe(
      'Container image name.\nMore info: https://kubernetes.io/docs/concepts/containers/images\n' +
        'This field is optional to allow higher level config management to default or override\n' +
        'container images in workload controllers like Deployments and StatefulSets.',
    );
  });

  it('metav1.Condition carries its kubebuilder validations', () => {
    const c = must('V1Condition');
    expect(prop(c, 'type').maxLength).toBe(316);
    expect(prop(c, 'status').enum).toEqual(['True', 'False', 'Unknown']);
    expect(prop(c, 'reason')).toMatchObject({ minLength: 1, maxLength: 1024 });
    expect(prop(c, 'observedGeneration').minimum).toBe(0);
    expect(c.required).toEqual(['lastTransitionTime', 'message', 'reason', 'status', 'type']);
  });

  it('structs embedding an atomic reference are atomic, items of named types carry its doc', () => {
    const c = must('V1Container');
    expect(prop(c, 'envFrom', '[]', 'configMapRef')['x-kubernetes-map-type']).toBe('atomic');
    expect(prop(c, 'securityContext', 'capabilities', 'add', '[]').description).toBe(
      'Capability represent POSIX capabilities type',
    );
  });
});

describe('whole-tree rules', () => {
  for (const name of [
    'V1PodTemplateSpec',
    'V1JobTemplateSpec',
    'V1DeploymentSpec',
    'V1StatefulSetSpec',
    'V1LabelSelector',
  ]) {
    it(`${name} is structural: no $ref/allOf/oneOf, a type on every node, sorted required, no patch hints`, () => {
      const s = must(name);
      const text = JSON.stringify(s);
      expect(text).not.toMatch(
        /"\$ref"|"allOf"|"oneOf"|x-kubernetes-patch|x-kubernetes-group-version-kind|x-kubernetes-unions/,
      );
      const problems: string[] = [];
      walk(s, name, (n, path) => {
        const intOrString = n['x-kubernetes-int-or-string'] === true;
        if (n.type === undefined && !intOrString && !path.endsWith('|')) problems.push(`${path}: no type`);
        if (n.required && [...n.required].sort().join() !== n.required.join()) problems.push(`${path}: unsorted`);
        if (n.type === 'object' && n.properties && n.additionalProperties) problems.push(`${path}: both`);
        if (n.type === 'array' && !n.items) problems.push(`${path}: no items`);
      });
      expect(problems).toEqual([]);
    });
  }

  it('renders nested ObjectMeta as {type: object} with the field description', () => {
    const meta = prop(must('V1PodTemplateSpec'), 'metadata');
    expect(Object.keys(meta).sort()).toEqual(['description', 'type']);
    expect(meta.type).toBe('object');
    expect(prop(must('V1JobTemplateSpec'), 'spec', 'template', 'metadata').type).toBe('object');
    expect(must('V1ObjectMeta')).toEqual({ type: 'object' });
  });

  it('renders Time as a date-time string', () => {
    const t = prop(must('V1PersistentVolumeClaim'), 'status', 'conditions', '[]', 'lastProbeTime');
    expect(t).toMatchObject({ type: 'string', format: 'date-time' });
  });

  it('embeds the full pod spec under a job template, with containers keyed by name', () => {
    const containers = prop(must('V1JobTemplateSpec'), 'spec', 'template', 'spec', 'containers');
    expect(containers['x-kubernetes-list-map-keys']).toEqual(['name']);
    expect(prop(containers, '[]').required).toEqual(['name']);
    expect(prop(must('V1JobTemplateSpec'), 'spec', 'template', 'spec').required).toEqual(['containers']);
  });

  it('LabelSelector: atomic struct, matchExpressions items require key and operator', () => {
    const s = must('V1LabelSelector');
    expect(s['x-kubernetes-map-type']).toBe('atomic');
    expect(prop(s, 'matchExpressions', '[]').required).toEqual(['key', 'operator']);
    expect(prop(s, 'matchLabels').additionalProperties).toEqual({ type: 'string' });
  });

  it('returns a fresh copy each call', () => {
    const a = must('V1Container');
    a.description = 'changed';
    prop(a, 'ports').maxItems = 3;
    const b = must('V1Container');
    expect(b.description).not.toBe('changed');
    expect(prop(b, 'ports').maxItems).toBeUndefined();
  });
});

/**
 * Fingerprints of what controller-gen v0.21.0 emits for a Go field of each type (k8s.io/api
 * v0.36.3): sha256 of the schema as JSON with keys sorted, without the field's own description.
 * Obtained by running controller-gen on a Go type embedding every root; our schemas matched them
 * byte for byte, descriptions included. When the data is regenerated for another Kubernetes
 * version these change: redo that comparison, then update the table.
 */
const CONTROLLER_GEN_V0_21_0: Record<string, string> = {
  V1Condition: 'a82bb84e0e73daab',
  V1Container: 'ca9bae5c5961ec95',
  V1CronJobSpec: '1e581a87a1a1bdc0',
  V1DaemonSetSpec: 'd4d7609b8612ed43',
  V1DeploymentSpec: 'a300bce0b229a676',
  V1IngressSpec: '4276ee136edf7d4c',
  V1JobTemplateSpec: '7f6467ffde728a54',
  V1LabelSelector: 'c7ae570ac19613fe',
  V1NetworkPolicySpec: 'a04bfd0fc838a3ef',
  V1ObjectReference: 'c24f3e5699de951e',
  V1PersistentVolumeClaim: 'e1c6f06a4e8245c3',
  V1PersistentVolumeClaimSpec: 'b92658dab30a8ea9',
  V1PodDisruptionBudgetSpec: 'c8795bf41c9fa448',
  V1PodTemplateSpec: 'c91d9f8f9c343299',
  V1ReplicaSetSpec: '28f65dbacba60e40',
  V1SecretReference: 'ee7396d6a1dd966a',
  V1ServicePort: '377dc37371fffbba',
  V1ServiceSpec: 'b77ba292c67b33d8',
  V1StatefulSetSpec: '7da8fc171486d18c',
  V1TypedLocalObjectReference: '2890ab2e4d77ea68',
  V1Volume: 'a8d90db8711908d1',
  V2HorizontalPodAutoscalerSpec: '19ad151acf06ce8d',
};

describe('parity with controller-gen', () => {
  const sortDeep = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sortDeep)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
          )
        : v;

  it('data comes from Kubernetes 1.36.3, which the fingerprints were taken for', () => {
    expect(coreSchemasSource()).toBe('k8s.io/kubernetes@v1.36.3 api/openapi-spec/v3');
  });

  for (const [name, want] of Object.entries(CONTROLLER_GEN_V0_21_0)) {
    it(`${name} is what controller-gen v0.21.0 emits`, () => {
      const s = must(name);
      delete s.description;
      expect(
        createHash('sha256')
          .update(JSON.stringify(sortDeep(s)))
          .digest('hex')
          .slice(0, 16),
      ).toBe(want);
    });
  }
});
