// Tests of the committed core-type data through the public API: the shapes controller-gen emits
// for corev1.Container, PodTemplateSpec, batchv1.JobTemplateSpec and metav1.LabelSelector.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../src/manifests/jsonschema.js';
import {
  coreDefinitionName,
  coreSchemasSource,
  coreTypeNames,
  coreTypeSchema,
  isCoreTypeName,
} from '../../src/codegen/core/index.js';
import { QUANTITY_PATTERN } from '../../src/codegen/core/convert.mjs';

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
      'V1Container', 'V1PodTemplateSpec', 'V1JobTemplateSpec', 'V1JobSpec', 'V1PodSpec', 'V1Volume',
      'V1ResourceRequirements', 'V1EnvVar', 'V1LabelSelector', 'V1Toleration', 'V1Affinity',
      'V1SecurityContext', 'V1ServicePort', 'V1LocalObjectReference', 'V1ObjectReference',
      'V1DeploymentSpec', 'V1DeploymentStrategy', 'V1StatefulSetSpec', 'V1Probe', 'V1ObjectMeta',
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

  it('uses names that are @kubernetes/client-node model classes', () => {
    const require = createRequire(import.meta.url);
    const models = join(dirname(require.resolve('@kubernetes/client-node')), 'gen', 'models');
    // types added to Kubernetes after the installed client-node was generated
    const newerThanClient = new Set(['V1PodSchedulingGroup']);
    const missing = coreTypeNames().filter((n) => !newerThanClient.has(n) && !existsSync(join(models, `${n}.d.ts`)));
    expect(missing).toEqual([]);
    expect(coreTypeNames().length).toBeGreaterThan(150);
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

describe('whole-tree rules', () => {
  for (const name of ['V1PodTemplateSpec', 'V1JobTemplateSpec', 'V1DeploymentSpec', 'V1StatefulSetSpec', 'V1LabelSelector']) {
    it(`${name} is structural: no $ref/allOf/oneOf, a type on every node, sorted required, no patch hints`, () => {
      const s = must(name);
      const text = JSON.stringify(s);
      expect(text).not.toMatch(/"\$ref"|"allOf"|"oneOf"|x-kubernetes-patch|x-kubernetes-group-version-kind|x-kubernetes-unions/);
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
