/**
 * The Makefile's controller-gen options as the tsop project's manifests settings: what each
 * `crd:` option becomes (src/import/makefile.ts), and maxDescLen kept in PROJECT and read by every
 * `tsop manifests` run, a flag winning over it (src/manifests/project-options.ts, run.ts).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runManifests } from '../../src/cli/manifests.js';
import { UserError } from '../../src/errors.js';
import { makefileOptions } from '../../src/import/makefile.js';

/** kubebuilder v4's manifests target, with the options `crd` is given. */
const makefile = (crd: string, output = 'output:crd:artifacts:config=config/crd/bases'): string =>
  [
    '.PHONY: manifests',
    'manifests: controller-gen ## Generate WebhookConfiguration, ClusterRole and CustomResourceDefinition objects.',
    `\t$(CONTROLLER_GEN) rbac:roleName=manager-role ${crd} webhook paths="./..." ${output}`,
    '',
    '.PHONY: generate',
    'generate: controller-gen',
    '\t$(CONTROLLER_GEN) object:headerFile="hack/boilerplate.go.txt" paths="./..."',
    '',
  ].join('\n');

describe('the Makefile of a kubebuilder project', () => {
  it('carries nothing from the default scaffold, and says nothing', () => {
    expect(makefileOptions(makefile('crd'), 'Makefile')).toEqual({ options: {}, notes: [] });
  });

  it("carries the tutorials' crd:maxDescLen=0 and generateEmbeddedObjectMeta", () => {
    expect(makefileOptions(makefile('crd:maxDescLen=0,generateEmbeddedObjectMeta=true'), 'Makefile').options).toEqual({
      maxDescLen: 0,
      generateEmbeddedObjectMeta: true,
    });
  });

  it('reads a call continued over lines', () => {
    const text =
      'manifests:\n\t$(CONTROLLER_GEN) rbac:roleName=manager-role \\\n\t\tcrd:maxDescLen=40 \\\n\t\tpaths="./..."\n';
    expect(makefileOptions(text, 'Makefile').options).toEqual({ maxDescLen: 40 });
  });

  it('names each option with nothing to carry, or not carried, in one line with its place', () => {
    const { options, notes } = makefileOptions(
      makefile(
        'crd:allowDangerousTypes=true,ignoreUnexportedFields=true,crdVersions=v1beta1,fancy=1',
        'output:crd:dir=deploy/crds',
      ),
      'kb/Makefile',
    );
    expect(options).toEqual({});
    expect(notes).toEqual([
      "kb/Makefile:3: crd:allowDangerousTypes=true needs no setting: a TypeScript 'number' field is a float (type: number) in tsop, and int32/int64 are whole numbers",
      "kb/Makefile:3: crd:ignoreUnexportedFields=true needs no setting: tsop always leaves private, protected and #fields out of the schema, as Go's unexported fields",
      'kb/Makefile:3: crd:crdVersions=v1beta1 not carried: tsop writes apiextensions.k8s.io/v1 CRDs only',
      'kb/Makefile:3: crd:fancy=1 not carried: tsop manifests has no such option',
      'kb/Makefile:3: output:crd:dir=deploy/crds not carried: tsop manifests writes CRDs to config/crd/bases (under --output-dir, default config), which the kustomize tree reads',
    ]);
  });

  it('refuses a value controller-gen would not take, in one line with its place', () => {
    expect(() => makefileOptions(makefile('crd:maxDescLen=none'), 'kb/Makefile')).toThrow(
      new UserError(
        'import kubebuilder: kb/Makefile:3: crd:maxDescLen=none is not a whole number of 0 or more; fix the Makefile (e.g. crd:maxDescLen=0) and import again',
      ),
    );
    expect(() => makefileOptions(makefile('crd:generateEmbeddedObjectMeta=yes'), 'kb/Makefile')).toThrow(
      /^import kubebuilder: kb\/Makefile:3: crd:generateEmbeddedObjectMeta=yes has the value 'yes'; controller-gen takes true or false there/,
    );
  });
});

describe('maxDescLen kept in PROJECT', () => {
  const temps: string[] = [];
  afterEach(async () => {
    for (const d of temps.splice(0)) await rm(d, { recursive: true, force: true });
  });
  const MARKERS = '../../../../../../../runtime/markers/index.js';
  const PROJECT = 'domain: example.com\nlayout:\n- typescript.tsop.dev/v1\nprojectName: p\nrepo: p\nversion: "3"\n';
  const setting = (v: string): string =>
    `${PROJECT}plugins:\n  manifests.typescript.tsop.dev/v1:\n    maxDescLen: ${v}\n`;

  async function project(projectFile: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'tsop-maxdesclen-'));
    temps.push(dir);
    const files: Record<string, string> = {
      PROJECT: projectFile,
      'src/api/v1/groupversion.ts': "export const groupVersion = { group: 'test.example.com', version: 'v1' };",
      'src/api/v1/t.ts':
        `import { Resource } from '${MARKERS}';\n/** The spec of T, said at some length. ` +
        `*/\nexport class TSpec { /** How many replicas run. */ size?: string; }\n/** T is a kind. ` +
        `*/\n@Resource()\nexport class T { spec?: TSpec; }\n`,
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    return dir;
  }
  const quiet = { out: () => undefined, err: () => undefined };
  const specDescription = async (dir: string): Promise<unknown> => {
    const crd = parse(await readFile(join(dir, 'config/crd/bases/test.example.com_ts.yaml'), 'utf8'));
    return crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.description;
  };

  it('every run reads it; --max-desc-len wins over it', async () => {
    const dir = await project(setting('0'));
    await runManifests({ dir }, quiet);
    expect(await specDescription(dir)).toBeUndefined();
    await runManifests({ dir, check: true }, quiet);
    await runManifests({ dir, maxDescLen: 10 }, quiet);
    expect(await specDescription(dir)).toBe('The spec...');
  }, 60_000);

  it('a value that is not a whole number of 0 or more is one line', async () => {
    const dir = await project(setting('-1'));
    await expect(runManifests({ dir }, quiet)).rejects.toThrow(
      new UserError(
        'PROJECT: plugins.manifests.typescript.tsop.dev/v1.maxDescLen is -1; it must be a whole number, 0 or more (0 removes descriptions)',
      ),
    );
  });
});

describe('the Makefile of a kubebuilder v3 project', () => {
  it('reads the crd options passed through CRD_OPTIONS', () => {
    const text = [
      '# Produce CRDs that work back to Kubernetes 1.11 (no version conversion)',
      'CRD_OPTIONS ?= "crd:trivialVersions=true,preserveUnknownFields=false,maxDescLen=0"',
      'manifests: controller-gen',
      '\t$(CONTROLLER_GEN) $(CRD_OPTIONS) rbac:roleName=manager-role webhook paths="./..." output:crd:artifacts:config=config/crd/bases',
      '',
    ].join('\n');
    expect(makefileOptions(text, 'Makefile')).toEqual({
      options: { maxDescLen: 0 },
      notes: [
        'Makefile:4: crd:trivialVersions=true not carried: it shapes apiextensions.k8s.io/v1beta1 CRDs, and tsop writes v1 CRDs only',
        'Makefile:4: crd:preserveUnknownFields=false not carried: it shapes apiextensions.k8s.io/v1beta1 CRDs, and tsop writes v1 CRDs only',
      ],
    });
  });
});
