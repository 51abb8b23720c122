/**
 * What stays of the test harness in a project's `src/runtime/`: tsop ≤ 0.2 embedded it there
 * (`testing/`, `envtest/`); it now ships with tsop, the project's dev dependency, and tests import
 * it from the package (`tsop/testing`, `tsop/envtest`, `tsop/vitest`). The files earlier templates
 * pointed tests and vitest.config.ts at stay, until 0.4.0, as shims re-exporting every name they
 * had from the package, each marked deprecated, so code written against those templates compiles
 * (and `tsop manifests` warns at each such import).
 */

/** The release whose scaffolds first import the harness from the package, and the one that drops the shims. */
const SINCE = '0.3.0';
const REMOVED_IN = '0.4.0';

interface Shim {
  /** Under src/runtime/. */
  path: string;
  /** The package entry that has the names now. */
  from: 'tsop/testing' | 'tsop/envtest' | 'tsop/vitest';
  values: readonly string[];
  types: readonly string[];
}

/** The harness's files that earlier templates and docs import, with every name each exported. */
export const HARNESS_SHIMS: readonly Shim[] = [
  {
    path: 'testing/control-plane.ts',
    from: 'tsop/testing',
    values: ['apiServerOutage', 'describeWithControlPlane', 'skipReason', 'SKIPPED_ENV'],
    types: ['ControlPlaneEnv', 'SuiteOptions'],
  },
  {
    path: 'testing/decorators-plugin.ts',
    from: 'tsop/vitest',
    values: ['decoratorsPlugin'],
    types: ['VitePluginLike'],
  },
  {
    path: 'envtest/index.ts',
    from: 'tsop/envtest',
    values: [
      'adminIdentity',
      'assetsCacheRoot',
      'attachControlPlane',
      'AttachedControlPlaneError',
      'connectionOf',
      'ControlPlaneAssetsMissingError',
      'ControlPlaneOptionsError',
      'ensureAssets',
      'FAKE_NODE_ANNOTATION',
      'FULL_PLANE_BINARIES',
      'installWebhooks',
      'locateAssets',
      'MAX_FAKE_NODES',
      'mayDownload',
      'missingFullPlaneBinaries',
      'ONE_SHOT_RUN_MS',
      'PINNED_KUBE_VERSION',
      'readCRDs',
      'requireAssets',
      'rewriteClientConfig',
      'startControlPlane',
      'WebhookInstallError',
      'withConversionDefault',
    ],
    types: [
      'AssetRequirements',
      'BinaryAssets',
      'ControlPlane',
      'ControlPlaneConnection',
      'ControlPlaneOptions',
      'CustomResourceDefinition',
      'EnsureOptions',
      'InstalledWebhooks',
      'WebhookInstallOptions',
    ],
  },
];

/** Project-relative path → content of each shim, under `runtimeDir`. */
export function harnessShimFiles(runtimeDir: string): Array<[string, string]> {
  return HARNESS_SHIMS.map((shim) => [`${runtimeDir}/${shim.path}`, shimText(shim)]);
}

function shimText(shim: Shim): string {
  const note = `@deprecated since tsop ${SINCE}, removed in ${REMOVED_IN}: import it from '${shim.from}'.`;
  const specifiers = [...shim.values, ...shim.types.map((n) => `type ${n}`)].map((s) => `  /** ${note} */\n  ${s},\n`);
  return [
    '/**\n',
    ` * Moved to tsop's package: import from '${shim.from}' (tsop is the project's dev dependency).\n`,
    ` * The test harness is no longer embedded; this file keeps code written against earlier\n`,
    ` * templates compiling until tsop ${REMOVED_IN}.\n`,
    ' */\n',
    'export {\n',
    ...specifiers,
    `} from '${shim.from}';\n`,
  ].join('');
}
