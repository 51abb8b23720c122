/**
 * What a kubebuilder PROJECT records beyond its kinds, as the tsop steps that scaffold the same
 * things: a controller for each resource that has one (deploy-image's with the image options
 * kubebuilder recorded; each of a `controllers` list by its name), each webhook (defaulting, validation, conversion with its spokes, on
 * built-in kinds too), and the Helm chart (`helm.kubebuilder.io/v1-alpha` and `v2-alpha` →
 * `edit --plugins helm/v2-alpha`). `import kubebuilder --scaffold` runs them; what tsop cannot
 * carry is one line each. Pure: PROJECT in, steps out.
 */
import { flagsOfOptions } from '../plugins/deploy-image/scaffold.js';
import { type KubebuilderProject, type KubebuilderResource, tsopControllerName } from './kubebuilder.js';

export interface CarriedStep {
  command: 'create api' | 'create webhook' | 'edit';
  /** The command's flags, by options key (as `tsop <command>` takes them). */
  flags: Record<string, string | boolean>;
  /** Whether the step writes the kind's types again (deploy-image): the imported types are put back after it. */
  rewritesTypes?: boolean;
}

export interface Carried {
  steps: CarriedStep[];
  /** One line per thing PROJECT records that tsop does not scaffold, and why. */
  notCarried: string[];
}

const DEPLOY_IMAGE_KEY = 'deploy-image.go.kubebuilder.io/v1-alpha';
const HELM_KEYS = ['helm.kubebuilder.io/v1-alpha', 'helm.kubebuilder.io/v2-alpha'];
/** kubebuilder's own layouts: the project itself, not a plugin to carry. */
const LAYOUTS = /^(go|base\.go)\.kubebuilder\.io\//;

interface DeployImageEntry {
  group?: unknown;
  version?: unknown;
  kind?: unknown;
  options?: Record<string, unknown>;
}

export function carriedSteps(project: KubebuilderProject): Carried {
  const steps: CarriedStep[] = [];
  const namedSteps: CarriedStep[] = [];
  const notCarried: string[] = [];
  const deployImage = (
    Array.isArray(project.plugins[DEPLOY_IMAGE_KEY]?.['resources'])
      ? project.plugins[DEPLOY_IMAGE_KEY]['resources']
      : []
  ) as DeployImageEntry[];
  const gvk = (r: KubebuilderResource) => ({ group: r.group, version: r.version, kind: r.kind });
  const label = (r: KubebuilderResource): string =>
    `${r.kind} (${r.group === '' ? '' : `${r.group}/`}${r.version}${r.external ? `, external: ${r.path ?? r.domain}` : ''})`;

  for (const r of project.resources) {
    if (!r.controller) continue;
    if (r.external) {
      notCarried.push(
        `PROJECT: the controller of ${label(r)} is not scaffolded: its types are a Go package; ` +
          `import its CRD with 'tsop import crd <file> --external', then run the 'tsop create api … ` +
          `--external-api-path' that prints`,
      );
      continue;
    }
    const image = deployImage.find((e) => e.group === r.group && e.version === r.version && e.kind === r.kind);
    // kubebuilder's `controllers` list names each controller; the kind's default one is named after it.
    const names = (r.controllerNames ?? [r.kind.toLowerCase()]).map((n) => tsopControllerName(project, r, n));
    if (image && r.owned) {
      steps.push({
        command: 'create api',
        flags: { ...gvk(r), plugins: 'deploy-image/v1-alpha', ...flagsOfOptions(image.options ?? {}), force: true },
        rewritesTypes: true,
      });
    } else if (names.includes(undefined)) {
      steps.push({ command: 'create api', flags: { ...gvk(r), resource: false, controller: true } });
    }
    for (const controllerName of names)
      if (controllerName !== undefined)
        namedSteps.push({
          command: 'create api',
          flags: { ...gvk(r), resource: false, controller: true, controllerName },
        });
  }
  // A named controller after every kind's default one: deploy-image's --force would overwrite it.
  steps.push(...namedSteps);
  // After every controller, as kubebuilder's own order: a conversion webhook's spokes exist by then.
  for (const r of project.resources) {
    const w = r.webhooks;
    if (!w || !(w.defaulting || w.validation || w.conversion)) continue;
    if (r.external) {
      notCarried.push(
        `PROJECT: the webhooks of ${label(r)} are not scaffolded: its types are a Go package; ` +
          `import its CRD with 'tsop import crd <file> --external', then run 'tsop create webhook … ` +
          `--external-api-path <its file>'`,
      );
      continue;
    }
    const flags: CarriedStep['flags'] = { ...gvk(r), group: r.core && r.group === '' ? 'core' : r.group };
    if (w.defaulting) flags['defaulting'] = true;
    if (w.validation) flags['programmaticValidation'] = true;
    if (w.conversion) flags['conversion'] = true;
    if (w.conversion && w.spoke && w.spoke.length > 0) flags['spoke'] = w.spoke.join(',');
    if (w.defaultingPath) flags['defaultingPath'] = w.defaultingPath;
    if (w.validationPath) flags['validationPath'] = w.validationPath;
    if (r.core && r.plural) flags['plural'] = r.plural;
    steps.push({ command: 'create webhook', flags });
  }
  for (const [key, settings] of Object.entries(project.plugins)) {
    if (key === DEPLOY_IMAGE_KEY || LAYOUTS.test(key)) continue;
    if (HELM_KEYS.includes(key)) {
      const output = typeof settings['output'] === 'string' ? settings['output'] : undefined;
      const manifests = settings['manifests'];
      if (manifests !== undefined && manifests !== 'dist/install.yaml')
        notCarried.push(
          `PROJECT: plugins.${key}.manifests ${String(manifests)} is not carried: tsop builds the ` +
            `chart from config/ (kept in dist/install.yaml); pass --manifests to 'tsop edit --plugins ` +
            `helm/v2-alpha' to build it from that file`,
        );
      steps.push({ command: 'edit', flags: { plugins: 'helm/v2-alpha', ...(output ? { outputDir: output } : {}) } });
      continue;
    }
    notCarried.push(`PROJECT: plugins.${key} is not carried: tsop has no such plugin`);
  }
  return { steps, notCarried };
}

/** The step as the command line a user would type (for messages). */
export function commandLine(step: CarriedStep): string {
  const flags = Object.entries(step.flags).map(([key, value]) => {
    const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    return value === true ? flag : value === false ? `${flag}=false` : `${flag} ${value}`;
  });
  return `tsop ${step.command} ${flags.join(' ')}`;
}
