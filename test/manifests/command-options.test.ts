/**
 * `tsop manifests` around the generator: generateEmbeddedObjectMeta as a flag and a PROJECT
 * setting (issue 11 item 3), `--check` outside a project exits 2 (issue 12 item 6), and a stale
 * config/webhook/manifests.yaml is removed once no webhook is left (issue 13).
 */
import { mkdtemp, readFile, rm, writeFile, mkdir, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { run } from '../../src/cli/main.js';
import { runManifests, type ManifestsIO } from '../../src/cli/manifests.js';
import { UsageError } from '../../src/errors.js';
import { MARKERS as CATALOG } from '../../src/codegen/markers/index.js';

const temps: string[] = [];
afterEach(async () => {
  for (const d of temps.splice(0)) await rm(d, { recursive: true, force: true });
});

const MARKERS = '../../../../../../../runtime/markers/index.js';
const PROJECT = 'domain: example.com\nlayout:\n- typescript.tsop.dev/v1\nprojectName: p\nrepo: p\nversion: "3"\n';

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tsop-manifests-opts-'));
  temps.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const KIND = {
  'src/api/v1/groupversion.ts': "export const groupVersion = { group: 'test.example.com', version: 'v1' };",
  'src/api/v1/t.ts':
    `import { Resource } from '${MARKERS}';\nimport type { V1PodTemplateSpec } from ` +
    `'@kubernetes/client-node';\nexport class TSpec { template?: V1PodTemplateSpec; ` +
    `}\n@Resource()\nexport class T { spec?: TSpec; }\n`,
};

const WEBHOOK = `import { Webhook } from '${MARKERS}';
@Webhook({
  path: '/mutate-test-example-com-v1-t',
  mutating: true,
  failurePolicy: 'Fail',
  sideEffects: 'None',
  groups: ['test.example.com'],
  resources: ['ts'],
  verbs: ['create', 'update'],
  versions: ['v1'],
  name: 'mt-v1.kb.io',
  admissionReviewVersions: ['v1'],
})
export class TDefaulter {}
`;
/** The same webhook, its mutating configuration renamed to p-defaulting. */
const RENAMED_WEBHOOK = WEBHOOK.replace('import { Webhook }', 'import { Webhook, WebhookConfiguration }').replace(
  '@Webhook(',
  "@WebhookConfiguration({ mutating: true, name: 'p-defaulting' })\n@Webhook(",
);

function capture(): ManifestsIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io;
}

async function templateMeta(dir: string): Promise<Record<string, unknown>> {
  const crd = parse(await readFile(join(dir, 'config/crd/bases/test.example.com_ts.yaml'), 'utf8')) as Record<
    string,
    any
  >;
  return crd['spec'].versions[0].schema.openAPIV3Schema.properties.spec.properties.template.properties.metadata;
}

/** Runs the CLI in-process and returns its exit code and stderr. */
async function cli(...args: string[]): Promise<{ code: number; stderr: string }> {
  const write = process.stderr.write;
  let stderr = '';
  process.stderr.write = ((t: string) => ((stderr += String(t)), true)) as typeof process.stderr.write;
  try {
    return { code: await run(['node', 'tsop', 'manifests', ...args]), stderr };
  } finally {
    process.stderr.write = write;
  }
}

describe('generateEmbeddedObjectMeta', () => {
  it('from PROJECT (plugins.manifests.typescript.tsop.dev/v1), and the flag wins over it', async () => {
    const dir = await tree({
      ...KIND,
      PROJECT: `${PROJECT}plugins:\n  manifests.typescript.tsop.dev/v1:\n    generateEmbeddedObjectMeta: true\n`,
    });
    await runManifests({ dir }, capture());
    expect(Object.keys((await templateMeta(dir))['properties'] as object)).toEqual([
      'annotations',
      'finalizers',
      'labels',
      'name',
      'namespace',
    ]);
    expect((await cli('--dir', dir, '--generate-embedded-object-meta=false')).code).toBe(0);
    expect((await templateMeta(dir))['properties']).toBeUndefined();
  });

  it('from the flag, with no PROJECT setting; off by default', async () => {
    const dir = await tree({ ...KIND, PROJECT });
    await runManifests({ dir }, capture());
    expect((await templateMeta(dir))['properties']).toBeUndefined();
    expect((await cli('--dir', dir, '--generate-embedded-object-meta')).code).toBe(0);
    expect((await templateMeta(dir))['properties']).toHaveProperty('labels');
  });

  it('a bad PROJECT setting or flag value is one line', async () => {
    const dir = await tree({
      ...KIND,
      PROJECT: `${PROJECT}plugins:\n  manifests.typescript.tsop.dev/v1:\n    generateEmbeddedObjectMeta: yes please\n`,
    });
    expect(await cli('--dir', dir)).toEqual({
      code: 1,
      stderr:
        'tsop: PROJECT: plugins.manifests.typescript.tsop.dev/v1.generateEmbeddedObjectMeta is "yes please"; it must be true or false\n',
    });
    const other = await tree({
      ...KIND,
      PROJECT: `${PROJECT}plugins:\n  manifests.typescript.tsop.dev/v1:\n    embedded: true\n`,
    });
    expect((await cli('--dir', other)).stderr).toBe(
      'tsop: PROJECT: plugins.manifests.typescript.tsop.dev/v1.embedded is not a manifests option; the options are generateEmbeddedObjectMeta, controllerGenCompat, maxDescLen\n',
    );
    const flag = await cli('--dir', dir, '--generate-embedded-object-meta=maybe');
    expect(flag.code).toBe(1);
    expect(flag.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('outside a project', () => {
  it('--check with a --dir that has no PROJECT exits 2 with one line, even when there are API files', async () => {
    const dir = await tree(KIND);
    const out = await cli('--dir', dir, '--check');
    expect(out).toEqual({
      code: 2,
      stderr: `tsop: manifests --check: ${dir} is not a tsop project (no PROJECT file); run it in the project's directory or pass --dir <project>\n`,
    });
    await expect(readdir(join(dir, 'config'))).rejects.toThrow();
  });

  it('--check, or a plain run, in an empty directory exits 2 (never 0)', async () => {
    const dir = await tree({});
    expect((await cli('--dir', dir, '--check')).code).toBe(2);
    const plain = await cli('--dir', dir);
    expect(plain).toEqual({
      code: 2,
      stderr: `tsop: manifests: ${dir} is not a tsop project (no PROJECT file); run it in the project's directory or pass --dir <project>\n`,
    });
    await expect(runManifests({ dir }, capture())).rejects.toBeInstanceOf(UsageError);
  });
});

describe('stale config/webhook/manifests.yaml', () => {
  it('reported by --check and removed by a run once no @Webhook is left, with its entry in the webhook kustomization', async () => {
    const layer = 'resources:\n- manifests.yaml\n- service.yaml\n';
    const dir = await tree({
      ...KIND,
      PROJECT,
      'src/webhooks/v1/t-webhook.ts': WEBHOOK,
      'config/webhook/kustomization.yaml': layer,
    });
    await runManifests({ dir }, capture());
    const manifests = join(dir, 'config/webhook/manifests.yaml');
    expect(await readFile(manifests, 'utf8')).toContain('name: mt-v1.kb.io');
    await rm(join(dir, 'src/webhooks'), { recursive: true });
    const check = capture();
    await expect(runManifests({ dir, check: true }, check)).rejects.toThrow('2 generated files are out of date');
    expect(check.stdout).toContain('--- a/config/webhook/manifests.yaml\n+++ /dev/null\n');
    expect(check.stdout).toContain('-- manifests.yaml\n');
    const write = capture();
    await runManifests({ dir }, write);
    expect(write.stderr).toContain('removed config/webhook/manifests.yaml\nwrote config/webhook/kustomization.yaml\n');
    await expect(readFile(manifests, 'utf8')).rejects.toThrow();
    // kustomize would fail on a listed file that is gone
    expect(await readFile(join(dir, 'config/webhook/kustomization.yaml'), 'utf8')).toBe('resources:\n- service.yaml\n');
    await runManifests({ dir, check: true }, capture());
  });

  it('removed too when @WebhookConfiguration had renamed it, but not once the user rewrote it by hand', async () => {
    const dir = await tree({ ...KIND, PROJECT, 'src/webhooks/v1/t-webhook.ts': RENAMED_WEBHOOK });
    await runManifests({ dir }, capture());
    const manifests = join(dir, 'config/webhook/manifests.yaml');
    const written = await readFile(manifests, 'utf8');
    expect(written).toContain('name: p-defaulting\n');
    await rm(join(dir, 'src/webhooks'), { recursive: true });
    // the same objects, reformatted by hand: the user's file now
    const byHand = written.replace(/^---\n/, '');
    await writeFile(manifests, byHand);
    await runManifests({ dir }, capture());
    expect(await readFile(manifests, 'utf8')).toBe(byHand);
    await writeFile(manifests, written);
    const write = capture();
    await runManifests({ dir }, write);
    expect(write.stderr).toContain('removed config/webhook/manifests.yaml\n');
    await expect(readFile(manifests, 'utf8')).rejects.toThrow();
  });

  it('a hand-written manifests.yaml (other objects) is left alone', async () => {
    const hand =
      'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: my-own\n';
    const dir = await tree({ ...KIND, PROJECT, 'config/webhook/manifests.yaml': hand });
    await runManifests({ dir }, capture());
    expect(await readFile(join(dir, 'config/webhook/manifests.yaml'), 'utf8')).toBe(hand);
    await runManifests({ dir, check: true }, capture());
  });
});

describe('@WebhookConfiguration renames a configuration the kustomize tree still names', () => {
  it('warns at each line of config/ that says the old name, and writes the new one', async () => {
    const replacements =
      'replacements:\n- source:\n    kind: MutatingWebhookConfiguration\n    name: ' +
      'mutating-webhook-configuration\n    fieldPath: .metadata.name\n# ' +
      'validating-webhook-configuration has no webhook here: not renamed\n# nor is mutating-webhook-configuration-old\n';
    const dir = await tree({
      ...KIND,
      PROJECT,
      'src/webhooks/v1/t-webhook.ts': RENAMED_WEBHOOK,
      'config/default/replacements.yaml': replacements,
    });
    const io = capture();
    await runManifests({ dir }, io);
    expect(await readFile(join(dir, 'config/webhook/manifests.yaml'), 'utf8')).toContain(
      'kind: MutatingWebhookConfiguration\nmetadata:\n  name: p-defaulting\n',
    );
    const warnings = io.stderr.split('\n').filter((l) => l.includes('@WebhookConfiguration'));
    expect(warnings).toEqual([
      'tsop: warning: config/default/replacements.yaml:4 still names ' +
        'mutating-webhook-configuration, which @WebhookConfiguration ' +
        "(src/webhooks/v1/t-webhook.ts:2) renames to 'p-defaulting'; write 'p-defaulting' there too",
    ]);
    // once the tree says the new name, nothing to say
    await writeFile(
      join(dir, 'config/default/replacements.yaml'),
      replacements.replace('name: mutating-webhook-configuration', 'name: p-defaulting'),
    );
    const again = capture();
    await runManifests({ dir, check: true }, again);
    expect(again.stderr).not.toContain('@WebhookConfiguration');
  });
});

describe('@WebhookConfiguration and files config/default does not build yet', () => {
  it("warns line by line where config/default's build reads the old name, and once for commented-out or unlisted files", async () => {
    const source =
      'replacements:\n- source:\n    kind: MutatingWebhookConfiguration\n    name: mutating-webhook-configuration\n';
    const dir = await tree({
      ...KIND,
      PROJECT,
      'src/webhooks/v1/t-webhook.ts': RENAMED_WEBHOOK,
      'config/default/kustomization.yaml':
        'resources:\n- ../rbac\nreplacements:\n- path: replacements.yaml\n#- path: later_replacements.yaml\n',
      'config/default/replacements.yaml': `${source}# the self-provisioned variant:\n#    name: mutating-webhook-configuration\n`,
      'config/default/later_replacements.yaml': source,
      'config/rbac/kustomization.yaml': 'resources:\n- role.yaml\n',
      'config/rbac/extra.yaml': 'resourceNames:\n- mutating-webhook-configuration\n',
    });
    const io = capture();
    await runManifests({ dir }, io);
    const warnings = io.stderr.split('\n').filter((l) => l.includes('@WebhookConfiguration'));
    expect(warnings).toEqual([
      'tsop: warning: config/default/replacements.yaml:4 still names ' +
        'mutating-webhook-configuration, which @WebhookConfiguration ' +
        "(src/webhooks/v1/t-webhook.ts:2) renames to 'p-defaulting'; write 'p-defaulting' there too",
      'tsop: warning: config/default/later_replacements.yaml:4, ' +
        "config/default/replacements.yaml:6, config/rbac/extra.yaml:2 (not in config/default's " +
        'build yet) still name mutating-webhook-configuration, which @WebhookConfiguration ' +
        "(src/webhooks/v1/t-webhook.ts:2) renames to 'p-defaulting'; write 'p-defaulting' there " +
        'before you enable them',
    ]);
  });
});

describe('manifests --help', () => {
  it('lists every marker with its example, the group-version options and the generateEmbeddedObjectMeta flag', async () => {
    const write = process.stdout.write;
    let stdout = '';
    process.stdout.write = ((t: string) => ((stdout += String(t)), true)) as typeof process.stdout.write;
    try {
      expect(await run(['node', 'tsop', 'manifests', '--help'])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    for (const m of CATALOG) {
      expect(stdout, m.name).toContain(`@${m.name}${m.args.usage}  [${m.controllerGen}]`);
      expect(stdout, m.name).toContain(`e.g. ${m.example}`);
    }
    expect(stdout).toContain("fields: 'optional' | 'required'");
    expect(stdout).toContain('--generate-embedded-object-meta [bool]');
  });
});
