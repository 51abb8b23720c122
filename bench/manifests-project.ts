/**
 * Writes the benchmark project for `bench/manifests.ts`: ten kinds in one group-version, each
 * with a dozen validated fields, nested types, a status with conditions; Kind0 embeds a full pod
 * template (V1PodTemplateSpec); one controller with @Rbac markers.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const MARKERS = "'../../runtime/markers/index.js'";

function kindSource(i: number): string {
  const name = `Kind${i}`;
  const template = i === 0 ? '\n  /** The pod template. */\n  template!: V1PodTemplateSpec;\n' : '';
  return `/** ${name}: a benchmark kind. */
import type { V1PodTemplateSpec } from '@kubernetes/client-node';
import { Default, Enum, ListMapKey, ListType, Maximum, MaxLength, Minimum, Pattern, PrintColumn, Resource, SubresourceStatus, XValidation,
  type Condition, type int32, type int64, type IntOrString, type ObjectMeta, type Quantity, type Time } from ${MARKERS};

/** An entry of a keyed list. */
export class ${name}Entry {
  /** Entry name. */
  name!: string;
  @Minimum(1) port?: int32;
}

/** A bounded range. */
@XValidation({ rule: 'self.min <= self.max', message: 'min must not exceed max' })
export class ${name}Range {
  min!: int32;
  max!: int32;
}

/** ${name}Spec is the desired state. */
export class ${name}Spec {
  /** Replicas. */
  @Minimum(0) @Maximum(100) replicas!: int32;
  /** A name. */
  @Pattern('^[a-z]+$') @MaxLength(63) title?: string;
  /** Mode. */
  @Default('A') mode?: 'A' | 'B' | 'C';
  @ListType('map') @ListMapKey('name') entries?: ${name}Entry[];
  size?: Quantity;
  surge?: IntOrString;
  range?: ${name}Range;
  labels?: Record<string, string>;
  deadline?: Time;
  weight?: number;
  counter?: int64;
  @Enum('x', 'y') tag?: string;${template}
}

/** ${name}Status is the observed state. */
export class ${name}Status {
  conditions?: Condition[];
  observedGeneration?: int64;
}

/** ${name} is a kind. */
@Resource()
@SubresourceStatus()
@PrintColumn({ name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' })
export class ${name} {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: ${name}Spec;
  status?: ${name}Status;
}
`;
}

export async function writeBenchProject(dir: string): Promise<void> {
  await mkdir(join(dir, 'src/api/v1'), { recursive: true });
  await mkdir(join(dir, 'src/controllers'), { recursive: true });
  await writeFile(
    join(dir, 'src/api/v1/groupversion.ts'),
    "export const groupVersion = { group: 'bench.example.com', version: 'v1' } as const;\n",
  );
  const rbac: string[] = [];
  for (let i = 0; i < 10; i++) {
    await writeFile(join(dir, `src/api/v1/kind${i}.ts`), kindSource(i));
    rbac.push(
      `@Rbac({ groups: ['bench.example.com'], resources: ['kind${i}s', 'kind${i}s/status'], verbs: ['get', 'list', 'watch', 'update', 'patch'] })`,
    );
  }
  await writeFile(
    join(dir, 'src/controllers/bench.ts'),
    `import { Rbac } from ${MARKERS};\n${rbac.join('\n')}\nexport class BenchReconciler {}\n`,
  );
}
