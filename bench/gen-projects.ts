/**
 * Writes the same API twice — once as a tsop project (decorated TypeScript classes), once as a
 * Go project for controller-gen (structs with +kubebuilder markers) — so that `tsop manifests`
 * and `controller-gen crd rbac` are compared on equivalent input. Kind0 embeds a pod template;
 * every other kind has validation markers (bounds, pattern, length, enum, default, list-map,
 * CEL rule on a nested type), a status with conditions, the status subresource and a printer
 * column. One controller carries an RBAC rule per kind.
 *
 *   node --import ./runtime/testing/register.mjs bench/gen-projects.ts <dir> <kinds>
 *   → <dir>/ts (tsop project) and <dir>/go (Go module; run `go mod tidy` there once)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const GROUP = 'bench.example.com';
export const VERSION = 'v1';

// Versions of the Go dependencies, as kubebuilder v4.15.0 scaffolds them.
const GO_MOD = `module example.com/bench

go 1.24.0

require (
\tk8s.io/api v0.36.0
\tk8s.io/apimachinery v0.36.0
)
`;

const MARKERS = "'../../runtime/markers/index.js'";

function tsKind(i: number): string {
  const n = `Kind${i}`;
  const template = i === 0 ? '\n  /** The pod template. */\n  template?: V1PodTemplateSpec;' : '';
  const podImport = i === 0 ? "import type { V1PodTemplateSpec } from '@kubernetes/client-node';\n" : '';
  return `/** ${n}: a benchmark kind. */
${podImport}import { Default, Enum, ListMapKey, ListType, Maximum, MaxLength, Minimum, Pattern, PrintColumn, Resource, SubresourceStatus, XValidation,
  type Condition, type int32, type int64, type IntOrString, type ObjectMeta, type Quantity, type Time } from ${MARKERS};

/** An entry of a keyed list. */
export class ${n}Entry {
  /** Entry name. */
  name!: string;
  /** Entry port. */
  @Minimum(1) port?: int32;
}

/** A bounded range. */
@XValidation({ rule: 'self.min <= self.max', message: 'min must not exceed max' })
export class ${n}Range {
  /** Lower bound. */
  min!: int32;
  /** Upper bound. */
  max!: int32;
}

/** ${n}Spec is the desired state. */
export class ${n}Spec {
  /** Replicas. */
  @Minimum(0) @Maximum(100) replicas!: int32;
  /** A name. */
  @Pattern('^[a-z]+$') @MaxLength(63) title?: string;
  /** Mode. */
  @Enum('A', 'B', 'C') @Default('A') mode?: string;
  /** Entries by name. */
  @ListType('map') @ListMapKey('name') entries?: ${n}Entry[];
  /** Size. */
  size?: Quantity;
  /** Surge. */
  surge?: IntOrString;
  /** Range. */
  range?: ${n}Range;
  /** Labels. */
  labels?: Record<string, string>;
  /** Deadline. */
  deadline?: Time;
  /** Counter. */
  counter?: int64;
  /** Tag. */
  @Enum('x', 'y') tag?: string;${template}
}

/** ${n}Status is the observed state. */
export class ${n}Status {
  /** Conditions. */
  conditions?: Condition[];
  /** Observed generation. */
  observedGeneration?: int64;
}

/** ${n} is a kind. */
@Resource()
@SubresourceStatus()
@PrintColumn({ name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' })
export class ${n} {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  /** Desired state. */
  spec?: ${n}Spec;
  /** Observed state. */
  status?: ${n}Status;
}
`;
}

function goKind(i: number): string {
  const n = `Kind${i}`;
  const template =
    i === 0
      ? '\n\t// The pod template.\n\t// +optional\n\tTemplate *corev1.PodTemplateSpec `json:"template,omitempty"`'
      : '';
  const coreImport = i === 0 ? '\tcorev1 "k8s.io/api/core/v1"\n' : '';
  return `package v1

import (
${coreImport}\t"k8s.io/apimachinery/pkg/api/resource"
\tmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
\t"k8s.io/apimachinery/pkg/util/intstr"
)

// An entry of a keyed list.
type ${n}Entry struct {
\t// Entry name.
\tName string \`json:"name"\`
\t// Entry port.
\t// +kubebuilder:validation:Minimum=1
\t// +optional
\tPort *int32 \`json:"port,omitempty"\`
}

// A bounded range.
// +kubebuilder:validation:XValidation:rule="self.min <= self.max",message="min must not exceed max"
type ${n}Range struct {
\t// Lower bound.
\tMin int32 \`json:"min"\`
\t// Upper bound.
\tMax int32 \`json:"max"\`
}

// ${n}Spec is the desired state.
type ${n}Spec struct {
\t// Replicas.
\t// +kubebuilder:validation:Minimum=0
\t// +kubebuilder:validation:Maximum=100
\tReplicas int32 \`json:"replicas"\`
\t// A name.
\t// +kubebuilder:validation:Pattern=\`^[a-z]+$\`
\t// +kubebuilder:validation:MaxLength=63
\t// +optional
\tTitle string \`json:"title,omitempty"\`
\t// Mode.
\t// +kubebuilder:validation:Enum=A;B;C
\t// +kubebuilder:default=A
\t// +optional
\tMode string \`json:"mode,omitempty"\`
\t// Entries by name.
\t// +listType=map
\t// +listMapKey=name
\t// +optional
\tEntries []${n}Entry \`json:"entries,omitempty"\`
\t// Size.
\t// +optional
\tSize *resource.Quantity \`json:"size,omitempty"\`
\t// Surge.
\t// +optional
\tSurge *intstr.IntOrString \`json:"surge,omitempty"\`
\t// Range.
\t// +optional
\tRange *${n}Range \`json:"range,omitempty"\`
\t// Labels.
\t// +optional
\tLabels map[string]string \`json:"labels,omitempty"\`
\t// Deadline.
\t// +optional
\tDeadline *metav1.Time \`json:"deadline,omitempty"\`
\t// Counter.
\t// +optional
\tCounter int64 \`json:"counter,omitempty"\`
\t// Tag.
\t// +kubebuilder:validation:Enum=x;y
\t// +optional
\tTag string \`json:"tag,omitempty"\`${template}
}

// ${n}Status is the observed state.
type ${n}Status struct {
\t// Conditions.
\t// +optional
\tConditions []metav1.Condition \`json:"conditions,omitempty"\`
\t// Observed generation.
\t// +optional
\tObservedGeneration int64 \`json:"observedGeneration,omitempty"\`
}

// ${n} is a kind.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Replicas",type="integer",JSONPath=".spec.replicas"
type ${n} struct {
\tmetav1.TypeMeta   \`json:",inline"\`
\tmetav1.ObjectMeta \`json:"metadata,omitempty"\`
\t// Desired state.
\tSpec ${n}Spec \`json:"spec,omitempty"\`
\t// Observed state.
\tStatus ${n}Status \`json:"status,omitempty"\`
}
`;
}

const plural = (i: number) => `kind${i}s`;

/** Writes both projects under dir/ts and dir/go. */
export async function writeProjects(dir: string, kinds: number): Promise<{ ts: string; go: string }> {
  const ts = join(dir, 'ts');
  const go = join(dir, 'go');
  await mkdir(join(ts, `src/api/${VERSION}`), { recursive: true });
  await mkdir(join(ts, 'src/controllers'), { recursive: true });
  await mkdir(join(go, `api/${VERSION}`), { recursive: true });
  await mkdir(join(go, 'internal/controller'), { recursive: true });

  await writeFile(
    join(ts, `src/api/${VERSION}/groupversion.ts`),
    `export const groupVersion = { group: '${GROUP}', version: '${VERSION}' } as const;\n`,
  );
  await writeFile(
    join(go, `api/${VERSION}/groupversion_info.go`),
    `// Package ${VERSION} holds the benchmark kinds.\n// +kubebuilder:object:generate=true\n// +groupName=${GROUP}\npackage ${VERSION}\n`,
  );
  await writeFile(join(go, 'go.mod'), GO_MOD);

  const resources = Array.from(
    { length: kinds },
    (_, i) =>
      `- api:\n    crdVersion: v1\n    namespaced: true\n  domain: example.com\n  group: bench\n  kind: Kind${i}\n  path: src/api/${VERSION}\n  version: ${VERSION}\n`,
  );
  await writeFile(
    join(ts, 'PROJECT'),
    `domain: example.com\nlayout:\n- typescript.tsop.dev/v1\nprojectName: bench\nrepo: bench\nresources:\n${resources.join('')}version: "3"\n`,
  );
  const tsRbac: string[] = [];
  const goRbac: string[] = [];
  for (let i = 0; i < kinds; i++) {
    await writeFile(join(ts, `src/api/${VERSION}/kind${i}.ts`), tsKind(i));
    await writeFile(join(go, `api/${VERSION}/kind${i}_types.go`), goKind(i));
    tsRbac.push(
      `@Rbac({ groups: ['${GROUP}'], resources: ['${plural(i)}', '${plural(i)}/status'], verbs: ['get', 'list', 'watch', 'update', 'patch'] })`,
    );
    goRbac.push(
      `// +kubebuilder:rbac:groups=${GROUP},resources=${plural(i)};${plural(i)}/status,verbs=get;list;watch;update;patch`,
    );
  }
  await writeFile(
    join(ts, 'src/controllers/bench.ts'),
    `import { Rbac } from ${MARKERS};\n${tsRbac.join('\n')}\nexport class BenchReconciler {}\n`,
  );
  await writeFile(
    join(go, 'internal/controller/bench.go'),
    `package controller\n\n${goRbac.join('\n')}\n\n// BenchReconciler carries the RBAC markers.\ntype BenchReconciler struct{}\n`,
  );
  return { ts, go };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, kinds] = process.argv.slice(2);
  if (!dir || !kinds) throw new Error('usage: gen-projects.ts <dir> <kinds>');
  const out = await writeProjects(dir, Number(kinds));
  console.log(`${out.ts}\n${out.go}`);
}
