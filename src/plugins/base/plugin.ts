/**
 * The base layout, `typescript.tsop.dev/v1`: tsop's twin of kubebuilder's go/v4 bundle (its base
 * and kustomize plugins). PROJECT's layout names it, so it is the first step of every command:
 * init (init.ts), create api (create-api.ts), create webhook (webhook.ts) and edit's settings (edit.ts).
 */
import { LAYOUT } from '../../project/config.js';
import type { Plugin } from '../plugin.js';
import { scaffoldApi } from './create-api.js';
import { scaffoldEdit } from './edit.js';
import { EDIT_SETTINGS_FLAGS } from './flags.js';
import { scaffoldInit } from './init.js';
import { scaffoldWebhook } from './webhook.js';

export const basePlugin: Plugin = {
  key: LAYOUT,
  name: 'base layout',
  description: "the project, its kinds and controllers, their webhooks and its settings (kubebuilder's go/v4)",
  init: {
    // kubebuilder's go/v4 bundle and its parts, so `kubebuilder init --plugins go/v4 …` command lines work.
    aliases: [
      'go/v4',
      'go.kubebuilder.io/v4',
      'base.go.kubebuilder.io/v4',
      'kustomize/v2',
      'kustomize.common.kubebuilder.io/v2',
    ],
    scaffold: (ctx) => scaffoldInit(ctx.tree, ctx.options, ctx.config.layout),
  },
  createApi: {
    scaffold: (ctx) => scaffoldApi(ctx.tree, ctx.config, ctx.options),
  },
  createWebhook: {
    scaffold: (ctx) => scaffoldWebhook(ctx.tree, ctx.config, ctx.options),
  },
  edit: {
    flags: EDIT_SETTINGS_FLAGS,
    scaffold(ctx) {
      // No setting asked for (a plugin's edit alone): PROJECT stays as it is.
      if (Object.values(ctx.options).every((v) => v === undefined)) return ctx.config;
      const edited = scaffoldEdit(ctx.tree, ctx.config, ctx.options, () => ctx.typeScriptFiles(), ctx.rendered);
      ctx.notes.push(...edited.notes);
      return edited.config;
    },
  },
};
