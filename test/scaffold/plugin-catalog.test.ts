/**
 * The plugin catalog (src/plugins/catalog.ts): each key names one plugin per command, a command's
 * chain is the layout then the plugins named, a plugin's flags need the plugin, and a chain run
 * renders PROJECT only after a step that changed it.
 */
import { describe, expect, it } from 'vitest';
import { LAYOUT, parseProject, renderProject } from '../../src/project/config.js';
import {
  checkPluginFlags,
  layoutPlugin,
  newProject,
  pluginChain,
  PLUGINS,
  recordedPlugins,
  runChain,
} from '../../src/plugins/catalog.js';
import type { Plugin, SubcommandName } from '../../src/plugins/plugin.js';
import { Tree } from '../../src/scaffold/tree.js';

const SUBCOMMANDS: SubcommandName[] = ['init', 'createApi', 'createWebhook', 'edit'];
const keys = (chain: Plugin[]): string[] => chain.map((p) => p.key);

describe('the plugin catalog', () => {
  it('has the layout first, implementing every command, and every plugin implements one', () => {
    expect(PLUGINS[0]).toBe(layoutPlugin);
    expect(layoutPlugin.key).toBe(LAYOUT);
    for (const s of SUBCOMMANDS) expect(layoutPlugin[s], s).toBeDefined();
    for (const p of PLUGINS)
      expect(
        SUBCOMMANDS.some((s) => p[s] !== undefined),
        p.key,
      ).toBe(true);
  });

  it('answers to each key with one plugin per command', () => {
    for (const s of SUBCOMMANDS) {
      const named = PLUGINS.filter((p) => p[s]).flatMap((p) => [p.key, ...(p.aliases ?? []), ...(p[s]?.aliases ?? [])]);
      expect(new Set(named).size, s).toBe(named.length);
    }
  });

  it('makes a chain of the layout and the plugins named, in order, each once', () => {
    expect(keys(pluginChain('createApi', undefined))).toEqual([LAYOUT]);
    expect(
      keys(pluginChain('createApi', `deploy-image.go.kubebuilder.io/v1-alpha, ${LAYOUT},deploy-image/v1-alpha`)),
    ).toEqual([LAYOUT, 'deploy-image/v1-alpha']);
    expect(keys(pluginChain('init', 'scorecard.sdk.operatorframework.io/v2,go/v4,manifests.sdk.tsop.dev/v2'))).toEqual([
      LAYOUT,
      'scorecard.sdk.tsop.dev/v2',
      'manifests.sdk.tsop.dev/v2',
    ]);
    expect(keys(pluginChain('edit', 'helm.kubebuilder.io/v2-alpha'))).toEqual([LAYOUT, 'helm/v2-alpha']);
  });

  it("refuses a plugin of another command, saying where it belongs; kubebuilder's go/v4 keys name the layout at init only", () => {
    expect(() => pluginChain('init', 'helm.typescript.tsop.dev/v2-alpha')).toThrow(
      "--plugins: 'helm.typescript.tsop.dev/v2-alpha' is added after init in tsop; run 'tsop edit --plugins helm/v2-alpha' in the new project",
    );
    expect(() => pluginChain('edit', 'manifests.sdk.tsop.dev/v2')).toThrow(
      "--plugins: 'manifests.sdk.tsop.dev/v2' is not a plugin of tsop edit; the one there is: 'helm/v2-alpha'",
    );
    expect(keys(pluginChain('init', 'go.kubebuilder.io/v4'))).toEqual([LAYOUT]);
    expect(() => pluginChain('createApi', 'go/v4')).toThrow("--plugins: 'go/v4' is not a tsop plugin");
  });

  it("refuses a plugin's flag without the plugin, then runs the chain's own checks", () => {
    expect(() =>
      checkPluginFlags('createApi', pluginChain('createApi', undefined), { imageContainerCommand: 'memcached' }),
    ).toThrow(
      '--image-container-command belongs to the deploy-image plugin; add --plugins deploy-image/v1-alpha to use it',
    );
    expect(() => checkPluginFlags('createApi', pluginChain('createApi', 'deploy-image/v1-alpha'), {})).toThrow(
      '--image is required with --plugins deploy-image/v1-alpha',
    );
    expect(() =>
      checkPluginFlags('createApi', pluginChain('createApi', undefined), { manifests: 'x.yaml' }),
    ).not.toThrow(); // Helm's flag of edit, not of create api
  });

  it('finds the plugins PROJECT records: under their project key, or any key of theirs when they have none', () => {
    const config = {
      ...newProject(),
      plugins: {
        [LAYOUT]: { license: 'none' },
        'manifests.sdk.operatorframework.io/v2': {},
        'helm.typescript.tsop.dev/v2-alpha': {},
        'deploy-image/v1-alpha': {},
      },
    };
    expect(keys(recordedPlugins(config))).toEqual(['helm/v2-alpha', 'manifests.sdk.tsop.dev/v2']);
  });

  it('renders PROJECT after a step that changed the config, and leaves it as written otherwise', async () => {
    const written = `# a comment of the user's\n${renderProject({ ...newProject(), domain: 'example.com', projectName: 'p', repo: 'p' })}`;
    const tree = new Tree({ read: (p) => (p === 'PROJECT' ? written : undefined) });
    const config = parseProject(written);
    const keep: Plugin = {
      key: 'keep/v1',
      name: 'keep',
      description: 'changes nothing',
      edit: { scaffold: (ctx) => ctx.config },
    };
    const record: Plugin = {
      key: 'record/v1',
      name: 'record',
      description: 'records itself',
      edit: { scaffold: (ctx) => ({ ...ctx.config, plugins: { ...ctx.config.plugins, 'record/v1': {} } }) },
    };
    const context = (current: typeof config) => ({
      tree,
      config: current,
      options: {},
      flags: {},
      root: '.',
      typeScriptFiles: () => [],
      generateManifests: async () => undefined,
      notes: [],
    });
    await runChain([keep], 'edit', context, config);
    expect(tree.listChanges()).toEqual([]);
    const last = await runChain([keep, record, keep], 'edit', context, config);
    expect(last.plugins['record/v1']).toEqual({});
    expect(tree.read('PROJECT')).toBe(renderProject(last));
  });
});
