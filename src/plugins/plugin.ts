/**
 * What a plugin is, as kubebuilder has it: a key (`name/version`, what --plugins and PROJECT name
 * it by) and the subcommands it implements — init, create api, create webhook, edit — each one
 * step of that command's chain. The catalog (catalog.ts) lists every plugin once; the commands
 * take their chain from it: the layout PROJECT names first, then the plugins --plugins names.
 *
 * A step records into the command's one Tree (so every step's files are checked and committed
 * together, or none are) and returns the PROJECT config to record: the one it was given when it
 * changes nothing, a new object when it does (configs are values; PROJECT is rendered from it).
 */
import type { FlagSpecs } from '../flag.js';
import type { License, ProjectConfig, ProjectResource } from '../project/config.js';
import type { ResourceNames } from '../project/resource.js';
import type { Tree } from '../scaffold/tree.js';

// What each command asks the base layout for (its context's `options`): the interface owns them,
// so a plugin reads them without importing the base layout.

/** `init`. */
export interface InitOptions {
  domain: string;
  projectName: string;
  /** npm package name of the project. */
  repo: string;
  owner?: string;
  license: License;
  namespaced: boolean;
  multigroup: boolean;
  force: boolean;
  tsopVersion: string;
  /** The devDependency spec for tsop in package.json (default `^<version>`). */
  tsopDependency: string;
  year: number;
  /** A license header of the user's own (`--license-file`) instead of the one made from license and owner. */
  header?: string;
  /**
   * Scaffold into another tool's project (kubebuilder's): files already there are left alone
   * (each is reported to `onKept`) and its PROJECT is kept as PROJECT.kubebuilder.
   */
  keepExisting?: boolean;
  onKept?: (path: string) => void;
}

/** `create api`. */
export interface ApiOptions {
  group: string;
  version: string;
  kind: string;
  plural?: string;
  resource: boolean;
  controller: boolean;
  namespaced: boolean;
  force: boolean;
  /** A kind of another project: the module exporting its type (kubebuilder's --external-api-path). */
  externalApiPath?: string;
  /** Its API group's domain (kubebuilder's --external-api-domain): the group is `<group>.<domain>`. */
  externalApiDomain?: string;
  /** The npm package (and version) that provides it (kubebuilder's --external-api-module). */
  externalApiModule?: string;
  /** --namespaced was given (not defaulted): a built-in kind's scope is otherwise known. */
  namespacedGiven?: boolean;
  /** A further controller of the kind, by name (kubebuilder's --controller-name). */
  controllerName?: string;
}

/** `create webhook`. */
export interface WebhookOptions {
  group: string;
  version: string;
  kind: string;
  defaulting: boolean;
  validation: boolean;
  conversion: boolean;
  spokes: string[];
  force: boolean;
  /** The defaulter's path instead of `/mutate-<group>-<version>-<kind>` (checked as a path by the caller). */
  defaultingPath?: string;
  /** The validator's path instead of `/validate-<group>-<version>-<kind>`. */
  validationPath?: string;
  /** The resource's plural, for a built-in or another project's kind whose plural is irregular. */
  plural?: string;
  /** Another project's kind (kubebuilder's --external-api-path): the module that exports its type. */
  externalApiPath?: string;
  /** Its API group's domain (--external-api-domain): the group is `<group>.<domain>`. */
  externalApiDomain?: string;
  /** The npm package (and version) that provides it (--external-api-module). */
  externalApiModule?: string;
}

/** `edit`'s settings. */
export interface EditOptions {
  multigroup?: boolean;
  namespaced?: boolean;
  /** Add the runtime's sharding module and pass it to the manager in main.ts. */
  sharding?: boolean;
  license?: License;
  owner?: string;
  /** A license header of the user's own (`--license-file`), instead of one made from license and owner. */
  header?: string;
}

/** The command's flags, checked, by options key (`imageContainerPort`); a plugin reads its own here. */
export type Flags = Readonly<Record<string, unknown>>;

/** What every step of a chain is given. */
export interface StepContext<Options> {
  tree: Tree;
  /** PROJECT as the steps before this one left it. */
  config: ProjectConfig;
  /** What the command was asked for, as the base layout takes it. */
  options: Options;
  flags: Flags;
}

/** For the layout, which makes the project, `config` has only its layout set. */
export type InitContext = StepContext<InitOptions>;

export interface CreateApiContext extends StepContext<ApiOptions> {
  /** The kind's PROJECT entry, as the base layout (the first step) recorded it. */
  readonly resource: ProjectResource;
  /** Its names and paths, the same the base layout used. */
  readonly names: ResourceNames;
  /** The license header scaffolded TypeScript files start with. */
  readonly header: string;
}

export type CreateWebhookContext = StepContext<WebhookOptions>;

export interface EditContext extends StepContext<EditOptions> {
  /** The project's directory, for a step that builds from what is on disk. */
  root: string;
  /** The TypeScript files that carry the license header (src/ and test/). */
  typeScriptFiles(): string[];
  /** Tells every plugin that this step rendered `path` afresh, so each puts its settings back into it. */
  rendered?(path: string): void;
  /** Runs `tsop manifests` in the project, so config/ matches the code (nothing on a dry run). */
  generateManifests(): Promise<void>;
  /** What the user should know afterwards; printed as `note: …`. */
  notes: string[];
}

/** One subcommand of a plugin. */
export interface Subcommand<Context> {
  /**
   * The flags this plugin adds to the command, declared here once (each with its own rule):
   * refused when it is not in the chain, checked after `check` when it is.
   */
  flags?: FlagSpecs<never>;
  /** More keys --plugins takes for the plugin in this command only. */
  aliases?: readonly string[];
  /** Checks the command's flags together (one it requires, one it cannot take) before anything is read or planned; throws a UserError. */
  check?(flags: Flags): void;
  /** Records the step into the tree; returns the config PROJECT gets. */
  scaffold(ctx: Context): ProjectConfig | Promise<ProjectConfig>;
}

export interface CreateApiSubcommand extends Subcommand<CreateApiContext> {
  /** Always scaffolds both the kind and its controller: the command asks about neither. */
  scaffoldsBoth?: boolean;
  /** The flags `alpha generate` passes to scaffold a recorded resource again, when this plugin made it. */
  replay?(config: ProjectConfig, resource: ProjectResource): Flags | undefined;
}

export interface EditSubcommand extends Subcommand<EditContext> {
  /** What `alpha generate` runs again for a project that records this plugin: edit's flags, and what they make. */
  replay?: { output: string; flags(config: ProjectConfig): Flags | undefined };
}

/** The subcommands by the name a plugin implements them under. */
export interface Subcommands {
  init: Subcommand<InitContext>;
  createApi: CreateApiSubcommand;
  createWebhook: Subcommand<CreateWebhookContext>;
  edit: EditSubcommand;
}

export type SubcommandName = keyof Subcommands;

export type ContextOf<S extends SubcommandName> = Parameters<Subcommands[S]['scaffold']>[0];

export interface Plugin extends Partial<Subcommands> {
  /** `name/version`, as typed after --plugins (kubebuilder's short key). */
  key: string;
  /** Other keys --plugins takes for it in every command (its fully qualified keys). */
  aliases?: readonly string[];
  /** How messages name it: "--image belongs to the deploy-image plugin". */
  name: string;
  /** What it scaffolds, in one line. */
  description: string;
  /** Where PROJECT records its settings under `plugins:`, when not under its key. */
  projectKey?: string;
  /**
   * Puts its settings, as `config` records them, back into `path`, a file another plugin's step
   * rendered afresh from its template (edit --namespaced renders config/manager/manager.yaml anew).
   */
  restoreSettings?(tree: Tree, config: ProjectConfig, path: string): void;
}
