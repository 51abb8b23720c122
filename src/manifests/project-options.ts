/**
 * `tsop manifests` options a project keeps in its PROJECT file, so every run (by hand, from
 * `create api --make`, in CI) generates the same thing without repeating flags — where a Go project
 * keeps controller-gen's options in its Makefile. They live under their own plugin key, which
 * kubebuilder's PROJECT format reserves for per-plugin settings:
 *
 *   plugins:
 *     manifests.typescript.tsop.dev/v1:
 *       generateEmbeddedObjectMeta: true
 *       maxDescLen: 0
 *
 * A flag given on the command line wins over the file. `import kubebuilder` writes them from the
 * Makefile's controller-gen call (src/import/makefile.ts).
 */
import { UserError } from '../errors.js';
import type { ProjectConfig } from '../project/config.js';

export const MANIFESTS_PLUGIN = 'manifests.typescript.tsop.dev/v1';

export interface ProjectManifestOptions {
  /** controller-gen's `crd:generateEmbeddedObjectMeta`. */
  generateEmbeddedObjectMeta?: boolean;
  /** Write controller-gen's text where tsop writes otherwise (manifests/generate.ts). */
  controllerGenCompat?: boolean;
  /** controller-gen's `crd:maxDescLen`: descriptions cut to this many characters, 0 removes them. */
  maxDescLen?: number;
}

const BOOLEAN_KEYS = ['generateEmbeddedObjectMeta', 'controllerGenCompat'] as const;
const KEYS = [...BOOLEAN_KEYS, 'maxDescLen'] as const;

/** Whether `value` is a length descriptions may be cut to (a whole number, 0 or more). */
function isMaxDescLen(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

export function projectManifestOptions(config: ProjectConfig): ProjectManifestOptions {
  const raw = config.plugins[MANIFESTS_PLUGIN];
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new UserError(
      `PROJECT: plugins.${MANIFESTS_PLUGIN} must be a mapping of options (e.g. generateEmbeddedObjectMeta: true)`,
    );
  }
  const out: ProjectManifestOptions = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'maxDescLen') {
      if (!isMaxDescLen(value))
        throw new UserError(
          `PROJECT: plugins.${MANIFESTS_PLUGIN}.maxDescLen is ${JSON.stringify(value)}; it must be a whole number, 0 or more (0 removes descriptions)`,
        );
      out.maxDescLen = value;
      continue;
    }
    if (!(BOOLEAN_KEYS as readonly string[]).includes(key)) {
      throw new UserError(
        `PROJECT: plugins.${MANIFESTS_PLUGIN}.${key} is not a manifests option; the options are ${KEYS.join(', ')}`,
      );
    }
    if (typeof value !== 'boolean') {
      throw new UserError(
        `PROJECT: plugins.${MANIFESTS_PLUGIN}.${key} is ${JSON.stringify(value)}; it must be true or false`,
      );
    }
    out[key as (typeof BOOLEAN_KEYS)[number]] = value;
  }
  return out;
}

/** `config` with `options` recorded (none: as it was). */
export function withManifestOptions(config: ProjectConfig, options: ProjectManifestOptions): ProjectConfig {
  if (Object.keys(options).length === 0) return config;
  const current = (config.plugins[MANIFESTS_PLUGIN] ?? {}) as Record<string, unknown>;
  return { ...config, plugins: { ...config.plugins, [MANIFESTS_PLUGIN]: { ...current, ...options } } };
}
