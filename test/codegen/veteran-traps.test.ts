/**
 * Traps for a kubebuilder veteran (issue 12 item 6): Go markers written in comments, plain
 * `number` fields, a field declared twice, and a decorator from the markers module that is no marker.
 */
import { describe, expect, it } from 'vitest';
import { GROUP_VERSION, PRELUDE, crds, run, specFiles } from './harness.js';

const M = "import { Maximum, Minimum, Resource, Type, Enum } from '../../runtime/markers/index.js';";
const kindFile = (body: string, extra = ''): Record<string, string> => ({
  'src/api/v1/groupversion.ts': GROUP_VERSION,
  'src/api/v1/t.ts': `${PRELUDE}\n${M}\n${extra}\nexport class TSpec {\n${body}\n}\n@Resource()\nexport class T { spec?: TSpec; }\n`,
});
const specOf = (result: ReturnType<typeof run>): Record<string, any> =>
  Object.values(crds(result))[0]?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec;

describe('Go markers in comments', () => {
  it('are warnings naming the decorator, at their line, and stay out of the description', () => {
    const result = run(
      kindFile(
        [
          '  /**',
          '   * How many replicas.',
          '   * +kubebuilder:validation:Maximum=5',
          '   */',
          '  replicas?: int32;',
          '  // +kubebuilder:validation:Enum=fast;slow',
          '  // +optional',
          '  mode?: string;',
          '  /** +kubebuilder:validation:XValidation:rule="self.size() > 1",message="too short" */',
          '  name?: string;',
        ].join('\n'),
        '// +kubebuilder:object:root=true\n// +kubebuilder:scaffold:imports',
      ),
    );
    expect(result.errors).toEqual([]);
    const lines = result.warnings.filter((w) => w.includes('in a comment'));
    expect(lines).toEqual([
      "src/api/v1/t.ts:7: '+kubebuilder:object:root=true' in a comment does nothing in tsop, and it has no decorator; markers are decorators ('tsop manifests --help' lists them)",
      "src/api/v1/t.ts:12: '+kubebuilder:validation:Maximum=5' in a comment does nothing in tsop; write the decorator @Maximum(5) instead (it is not copied into the description)",
      "src/api/v1/t.ts:15: '+kubebuilder:validation:Enum=fast;slow' in a comment does nothing in tsop; write the decorator @Enum('fast', 'slow') instead (it is not copied into the description)",
      "src/api/v1/t.ts:16: '+optional' in a comment does nothing in tsop; write the decorator @Optional() instead (it is not copied into the description)",
      `src/api/v1/t.ts:18: '+kubebuilder:validation:XValidation:rule="self.size() > ` +
        `1",message="too short"' in a comment does nothing in tsop; write the decorator ` +
        `@XValidation({ rule: 'self.size() > 1', message: 'too short' }) instead (it is not copied ` +
        `into the description)`,
    ]);
    const spec = specOf(result);
    expect(spec.properties.replicas).toEqual({ type: 'integer', format: 'int32', description: 'How many replicas.' });
    expect(spec.properties.name).toEqual({ type: 'string' });
    expect(spec.properties.replicas.maximum).toBeUndefined();
  });

  it('kind markers, printer columns and RBAC get their decorators too', () => {
    const result = run({
      ...specFiles(
        'a?: string;',
        '// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=".metadata.creationTimestamp"\n// +kubebuilder:resource:scope=Cluster,shortName=tt',
      ),
      'src/controllers/c.ts':
        "import { Rbac } from '../runtime/markers/index.js';\n// " +
        "+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list\n@Rbac({ groups: [''], " +
        "resources: ['pods'], verbs: ['get'] })\nexport class C {}\n",
    });
    expect(
      result.warnings
        .filter((w) => w.includes('in a comment'))
        .map((w) => w.replace(/^.*write the decorator (.*) instead.*$/, '$1')),
    ).toEqual([
      "@PrintColumn({ name: 'Age', type: 'date', JSONPath: '.metadata.creationTimestamp' })",
      "@Resource({ scope: 'Cluster', shortName: 'tt' })",
      "@Rbac({ groups: 'apps', resources: 'deployments', verbs: ['get', 'list'] })",
    ]);
  });
});

describe("plain 'number'", () => {
  it("warns once, at the first field, counting the others; int32 and @Type('number') do not", () => {
    const result = run(
      kindFile(
        "ratio?: number;\nweights?: number[];\nscale?: Record<string, number>;\ncount?: int32;\n@Type('number') factor?: number;",
      ),
    );
    expect(result.errors).toEqual([]);
    const floats = result.warnings.filter((w) => w.includes("'number'"));
    expect(floats).toEqual([
      'src/api/v1/t.ts:9: TSpec.ratio and 2 more fields (TSpec.weights, TSpec.scale): TypeScript ' +
        "'number' becomes a float (type: number) in the CRD; use int32 or int64 for whole numbers, " +
        "or add @Type('number') where a float is meant to silence this",
    ]);
    expect(specOf(result).properties.factor).toEqual({ type: 'number' });
  });

  it('says nothing when no field is a plain number', () => {
    const result = run(kindFile("count?: int32;\n@Type('number') factor?: number;"));
    expect(result.warnings).toEqual([]);
  });
});

describe('a field declared twice', () => {
  it('in a class, in an interface and in an object type: an error at the second, naming the first', () => {
    const result = run(
      kindFile(
        'replicas?: int32;\nname?: string;\nreplicas?: string;\nnested?: { a?: string; a?: int32 };\ni?: I;',
        'export interface I { x?: string; x?: string }',
      ),
    );
    expect(result.errors.map((e) => e.message)).toEqual([
      'src/api/v1/t.ts:7: I.x is declared twice (also at line 7); keep one declaration',
      'src/api/v1/t.ts:11: TSpec.replicas is declared twice (also at line 9); keep one declaration',
      'src/api/v1/t.ts:12: { … }.a is declared twice (also at line 12); keep one declaration',
    ]);
  });

  it('a subclass redeclaring a base field, and a parameter property next to other fields, are fine', () => {
    const result = run(
      kindFile(
        'replicas?: int32;',
        'export class Base { replicas?: string; other?: string }\nexport class Sub extends Base { replicas?: int32; constructor(public extra?: string) { super(); } }',
      ),
    );
    expect(result.errors).toEqual([]);
  });
});

describe('a decorator from the markers module that is no marker', () => {
  it("is an error at its line (with the nearest marker); a decorator from elsewhere is the user's own", () => {
    const result = run(
      kindFile(
        '@Maximun(5) replicas?: int32;\n@m.Minimun(1) size?: int32;\n@Track() name?: string;',
        "import { Maximun } from '../../runtime/markers/index.js';\nimport * as m from '../../runtime/markers';\nimport { Track } from '../../lib/track.js';",
      ),
    );
    expect(result.errors.map((e) => e.message)).toEqual([
      "src/api/v1/t.ts:11: @Maximun is not a tsop marker (did you mean @Maximum?); 'tsop manifests --help' lists them",
      "src/api/v1/t.ts:12: @Minimun is not a tsop marker (did you mean @Minimum?); 'tsop manifests --help' lists them",
    ]);
  });

  it('on a kind or a controller too', () => {
    const result = run({
      ...specFiles('a?: string;', "import { SubresourceStatuz } from '../../runtime/markers/index.js';\n"),
      'src/api/v1/u.ts': `${PRELUDE}\nimport { Resource, ShortNames } from '../../runtime/markers/index.js';\n@Resource() @ShortNames('u')\nexport class U { spec?: { a?: string } }\n`,
      'src/controllers/c.ts':
        "import { Rbak } from '../runtime/markers/index.js';\n@Rbak({ verbs: ['get'] })\nexport class C {}\n",
    });
    expect(result.errors.map((e) => e.message)).toContain(
      "src/api/v1/u.ts:7: @ShortNames is not a tsop marker; 'tsop manifests --help' lists them",
    );
  });
});
