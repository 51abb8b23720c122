/**
 * Flags declared once (src/cli/command-flags.ts, src/plugins/command-flags.ts): every declared flag is on its command with the
 * derived name and value, the options types follow the declarations, checks and aliases apply to
 * runs from code as from the command line, and alpha generate's replay comes from the same list.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as COMMAND_FLAGS from '../../src/cli/command-flags.js';
import type { DevCommandFlags } from '../../src/cli/dev.js';
import { checkFlags, kebab, replayFlags, text, type FlagSpec, type FlagSpecs } from '../../src/flag.js';
import { CREATE_API_BASE_FLAGS, EDIT_SETTINGS_FLAGS } from '../../src/plugins/base/flags.js';
import { PLUGINS } from '../../src/plugins/catalog.js';
import { spreadFlags } from '../../src/plugins/command-flags.js';
import { DEPLOY_IMAGE_FLAGS } from '../../src/plugins/deploy-image/flags.js';
import * as SCAFFOLD_FLAGS from '../../src/plugins/command-flags.js';
import * as MANIFESTS_FLAGS from '../../src/manifests/flags.js';
import * as OLM_FLAGS from '../../src/olm/flags.js';
import type { InitFlags } from '../../src/cli/init.js';
import { runInit } from '../../src/cli/init.js';
import type { ManifestsFlags } from '../../src/cli/manifests.js';
import { buildProgram } from '../../src/cli/main.js';
import { UserError } from '../../src/errors.js';
import { LAYOUT, type ProjectConfig } from '../../src/project/config.js';
import { captured, tempProject } from '../scaffold/harness.js';

const FLAGS = { ...COMMAND_FLAGS, ...SCAFFOLD_FLAGS, ...MANIFESTS_FLAGS, ...OLM_FLAGS };

/** Each declaration and the command path it belongs to. */
const COMMANDS: Array<[string, FlagSpecs<never> | FlagSpecs<unknown>]> = [
  ['init', FLAGS.INIT_FLAGS],
  ['create api', FLAGS.CREATE_API_FLAGS],
  ['create webhook', FLAGS.CREATE_WEBHOOK_FLAGS],
  ['edit', FLAGS.EDIT_FLAGS],
  ['alpha generate', FLAGS.ALPHA_GENERATE_FLAGS],
  ['alpha update', FLAGS.ALPHA_UPDATE_FLAGS],
  ['manifests', FLAGS.MANIFESTS_FLAGS],
  ['import crd', FLAGS.IMPORT_CRD_FLAGS],
  ['import kubebuilder', FLAGS.IMPORT_KUBEBUILDER_FLAGS],
  ['dev', FLAGS.DEV_FLAGS],
  ['docs', FLAGS.DOCS_FLAGS],
  ['envtest use', FLAGS.ENVTEST_USE_FLAGS],
  ['envtest list', FLAGS.ENVTEST_LIST_FLAGS],
  ['generate kustomize manifests', FLAGS.KUSTOMIZE_MANIFESTS_FLAGS],
  ['generate bundle', FLAGS.BUNDLE_FLAGS],
  ['bundle validate', FLAGS.BUNDLE_VALIDATE_FLAGS],
  ['scorecard', FLAGS.SCORECARD_FLAGS],
];

function find(program: Command, path: string): Command {
  let cmd = program;
  for (const name of path.split(' ')) cmd = cmd.commands.find((c) => c.name() === name)!;
  return cmd;
}

describe('flags declared once', () => {
  const program = buildProgram();

  it.each(COMMANDS)('%s has exactly its declared flags, named and shaped by the declaration', (path, specs) => {
    const cmd = find(program, path);
    expect(cmd, path).toBeDefined();
    const visible = cmd.options.filter((o) => !o.hidden);
    expect(visible.map((o) => o.long)).toEqual(Object.keys(specs).map((k) => `--${kebab(k)}`));
    for (const [key, spec] of Object.entries(specs) as Array<[string, FlagSpec]>) {
      const option = visible.find((o) => o.long === `--${kebab(key)}`)!;
      expect(option.attributeName()).toBe(key);
      expect(option.description.startsWith(spec.help)).toBe(true);
      expect(option.defaultValue).toBe(spec.default);
      expect(option.short).toBe(spec.short ? `-${spec.short}` : undefined);
      expect(option.optional || option.required).toBe(true);
      expect(option.required).toBe(spec.kind === 'text' || spec.kind === 'count');
      for (const alias of spec.aliases ?? [])
        expect(cmd.options.find((o) => o.long === `--${alias}`)?.hidden).toBe(true);
    }
  });

  it('gives each command an options type that follows its declarations', () => {
    expectTypeOf<InitFlags['repo']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<InitFlags['namespaced']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<DevCommandFlags['nodes']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<DevCommandFlags['kubeconfig']>().toEqualTypeOf<string | true | undefined>();
    expectTypeOf<ManifestsFlags['maxDescLen']>().toEqualTypeOf<number | undefined>();
    // @ts-expect-error a flag init does not declare is no option of it
    expectTypeOf<InitFlags['kind']>();
  });

  it("checks a run from code as the command line does: allowed values, a flag's own rule", () => {
    expect(() => checkFlags(FLAGS.EDIT_FLAGS, { license: 'gpl' })).toThrow(
      new UserError("--license: 'gpl' is not a known license; use 'apache2' or 'none'"),
    );
    expect(() => checkFlags(FLAGS.SCORECARD_FLAGS, { output: 'xml' })).toThrow(
      "--output: 'xml' is not a format; use 'text' or 'json'",
    );
    expect(() => checkFlags(FLAGS.SCORECARD_FLAGS, { waitTime: '0' })).toThrow(
      "--wait-time: '0' is not a number of seconds above 0",
    );
    expect(() => checkFlags(FLAGS.INIT_FLAGS, { projectVersion: '2' })).toThrow(
      "--project-version: '2' is not a PROJECT version tsop writes; use 3 (or leave it out)",
    );
    expect(checkFlags(FLAGS.INIT_FLAGS, { projectVersion: '3', license: 'none' })).toEqual({
      projectVersion: '3',
      license: 'none',
    });
  });

  it('folds an alias into its flag, and refuses the two spellings with different values', () => {
    expect(checkFlags(FLAGS.INIT_FLAGS, { packageName: '@acme/op' } as InitFlags)).toEqual({ repo: '@acme/op' });
    expect(checkFlags(FLAGS.INIT_FLAGS, { repo: 'same', packageName: 'same' } as InitFlags)).toEqual({ repo: 'same' });
    expect(() => checkFlags(FLAGS.INIT_FLAGS, { repo: 'a', packageName: 'b' } as InitFlags)).toThrow(
      "--package-name: 'b' and --repo 'a' are the same flag with two values; pass one of them",
    );
  });

  it("tsop init --package-name (npm's word for --repo) names the package", async () => {
    const dir = tempProject('aliased');
    const exit = await (await import('../../src/cli/main.js')).run([
      'node',
      'tsop',
      'init',
      '--dir',
      dir,
      '--package-name',
      '@acme/aliased-operator',
      '--skip-install',
      '--domain',
      'example.com',
    ]);
    expect(exit).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name).toBe('@acme/aliased-operator');
    expect(readFileSync(join(dir, 'PROJECT'), 'utf8')).toMatch(/^repo: "?@acme\/aliased-operator"?$/m);
    await expect(
      runInit({ dir: tempProject('x'), repo: 'a', packageName: 'b', skipInstall: true } as InitFlags, captured()),
    ).rejects.toThrow('same flag with two values');
  });

  it('replays what PROJECT recorded from the same declarations', () => {
    const config: ProjectConfig = {
      version: '3',
      domain: 'example.com',
      layout: [LAYOUT],
      projectName: 'p',
      repo: '@p/op',
      plugins: {},
      namespaced: true,
      resources: [
        {
          group: 'cert-manager',
          domain: 'io',
          version: 'v1',
          kind: 'Certificate',
          external: true,
          path: '@acme/cm',
          module: '@acme/cm@1.0.0',
          controller: true,
          webhooks: { defaulting: true, spoke: [], webhookVersion: 'v1' },
        },
      ],
    };
    expect(replayFlags(FLAGS.INIT_FLAGS, { config, license: 'none', owner: undefined, olmPlugins: [] })).toEqual({
      domain: 'example.com',
      projectName: 'p',
      repo: '@p/op',
      license: 'none',
      namespaced: true,
      multigroup: false,
      skipInstall: true,
    });
    const resource = config.resources[0]!;
    expect(replayFlags(FLAGS.CREATE_WEBHOOK_FLAGS, { config, resource })).toEqual({
      group: 'cert-manager',
      version: 'v1',
      kind: 'Certificate',
      defaulting: true,
      programmaticValidation: false,
      conversion: false,
      externalApiPath: '@acme/cm',
      externalApiDomain: 'io',
      externalApiModule: '@acme/cm@1.0.0',
      make: false,
    });
  });
});

describe('each flag declared once, by what owns it', () => {
  it('refuses a flag two declarations give one command (two plugins, or a plugin and the base)', () => {
    const image = { image: text('image', 'the image') };
    expect(() => spreadFlags(CREATE_API_BASE_FLAGS, image, { image: text('image', 'another image') })).toThrow(
      'the flag --image is declared twice for one command; declare it once',
    );
    expect(() => spreadFlags({ ...CREATE_API_BASE_FLAGS, image: image.image }, DEPLOY_IMAGE_FLAGS)).toThrow(
      'the flag --image is declared twice',
    );
    expect(() => spreadFlags(EDIT_SETTINGS_FLAGS, { licenseFile: text('path', 'x') })).toThrow(
      'the flag --license-file is declared twice',
    );
  });

  it("offers each plugin's flags on the commands the plugin implements, as the catalog entry declares them", () => {
    const commands = { createApi: FLAGS.CREATE_API_FLAGS, edit: FLAGS.EDIT_FLAGS, init: FLAGS.INIT_FLAGS };
    for (const plugin of PLUGINS) {
      for (const [name, specs] of Object.entries(commands)) {
        const own = plugin[name as keyof typeof commands]?.flags ?? {};
        for (const [key, spec] of Object.entries(own)) expect(specs[key as keyof typeof specs], key).toBe(spec);
      }
    }
    expect(PLUGINS.find((p) => p.createApi?.flags !== undefined)?.createApi?.flags).toBe(DEPLOY_IMAGE_FLAGS);
  });

  it('gives every flag of every command help text', () => {
    const program = buildProgram();
    const all = (cmd: Command): Command[] => [cmd, ...cmd.commands.flatMap(all)];
    for (const cmd of all(program)) {
      for (const option of cmd.options) {
        if (option.hidden) continue;
        expect(option.description.trim(), `${cmd.name()} ${option.long}`).not.toBe('');
      }
    }
    for (const [path, specs] of COMMANDS)
      for (const [key, spec] of Object.entries(specs) as Array<[string, FlagSpec]>)
        expect(spec.help.trim().length, `${path} --${kebab(key)}`).toBeGreaterThan(0);
  });
});
