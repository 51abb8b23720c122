/**
 * `extends` of a core type (issue 11 item 4): TypeScript's form of Go's inline embedding of
 * `corev1.PodSpec`. The core type's properties and required list come along; the class's own
 * fields replace a core field of the same name; markers still apply to the whole.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { coreTypeSchema } from '../../src/codegen/core/index.js';
import { errors, spec } from './harness.js';

describe('extends a core type', () => {
  const podSpec = coreTypeSchema('V1PodSpec')!;

  it('a class extending V1PodSpec has every PodSpec field, its required list, and its own fields', () => {
    const s = spec(
      'runner?: Runner;',
      "import type { V1PodSpec } from '@kubernetes/client-node';\n/** A pod spec with a name. */\nexport class Runner extends V1PodSpec {\n  /** The runner's name. */\n  runnerName!: string;\n}",
    ).properties?.['runner'];
    expect(Object.keys(s?.properties ?? {}).sort()).toEqual(
      [...Object.keys(podSpec.properties ?? {}), 'runnerName'].sort(),
    );
    expect(s?.properties?.['containers']).toEqual(podSpec.properties?.['containers']);
    expect(s?.required).toEqual(['containers', 'runnerName']);
    expect(s?.description).toBe('A pod spec with a name.');
    expect(s?.type).toBe('object');
  });

  it("is byte for byte controller-gen v0.21.0's schema for Go's inline embedding of corev1.PodSpec", () => {
    // controller-gen crd on (k8s.io/api v0.36.3):
    //   // A pod spec with a name.
    //   type Runner struct {
    //     corev1.PodSpec `json:",inline"`
    //     // The runner's name.
    //     RunnerName string `json:"runnerName"`
    //   }
    // gave a `runner` schema of 301,506 bytes as sorted-key JSON, with this SHA-256:
    const CONTROLLER_GEN = '8306e611d9f6f844af97ca90b2bc8eebe09c74c2f34377edb8f2444083b885a8';
    const s = spec(
      'runner?: Runner;',
      "import type { V1PodSpec } from '@kubernetes/client-node';\n/** A pod spec with a name. */\nexport class Runner extends V1PodSpec {\n  /** The runner's name. */\n  runnerName!: string;\n}",
    ).properties?.['runner'];
    const sorted = JSON.stringify(s, (_k, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
        : v,
    );
    expect(createHash('sha256').update(sorted).digest('hex')).toBe(CONTROLLER_GEN);
  });

  it('own fields replace core fields (an optional redeclaration is no longer required); a subclass of it inherits the core fields; namespaced access works', () => {
    const extra = `
export interface Base extends k8s.V1ObjectReference { note?: string }
@XValidation({ rule: 'has(self.name)', message: 'name is required' })
export class Ref extends Base {
  /** Overridden. */
  kind?: 'Pod' | 'Node';
}`;
    const s = spec('ref?: Ref;', extra).properties?.['ref'];
    expect(s?.properties?.['kind']).toEqual({ type: 'string', enum: ['Pod', 'Node'], description: 'Overridden.' });
    expect(s?.properties?.['uid']).toEqual(coreTypeSchema('V1ObjectReference')?.properties?.['uid']);
    expect(s?.properties?.['note']).toEqual({ type: 'string' });
    // ObjectReference is atomic in Go (+structType=atomic); embedding keeps that, as controller-gen does.
    expect(s?.['x-kubernetes-map-type']).toBe('atomic');
    expect(s?.['x-kubernetes-validations']).toEqual([{ rule: 'has(self.name)', message: 'name is required' }]);
  });

  it('extending a client-node name with no schema is one error', () => {
    expect(
      errors(
        'x?: X;',
        "import type { V1Nope } from '@kubernetes/client-node';\nexport class X extends V1Nope { a?: string }",
      ),
    ).toEqual([
      "src/api/v1/t.ts:7: X: extends 'V1Nope' from @kubernetes/client-node, which has no known schema; extend a type of k8s.io/api, or declare the fields yourself",
    ]);
  });
});

describe('a core type the CRD rules refuse', () => {
  it('is one error at the field that embeds it, saying the problem is upstream and how to get around it', () => {
    expect(errors('account?: k8s.V1ServiceAccount;')).toEqual([
      "src/api/v1/t.ts:8: T .spec.account.secrets: list-map key 'name' must be required or " +
        'defaulted; this comes from the upstream schema of a core type the field embeds: declare ' +
        "the shape yourself, or mark the field @Schemaless() @PreserveUnknownFields() @Type('object')",
    ]);
  });
});
