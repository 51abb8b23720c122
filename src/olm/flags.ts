/**
 * The OLM commands' flags (operator-sdk's names), each declared once (src/flag.ts):
 * `generate kustomize manifests`, `generate bundle`, `bundle validate` and `scorecard`. Light to
 * load: `tsop --help` lists them.
 */
import { UserError } from '../errors.js';
import { bool, defineFlags, projectDir, text } from '../flag.js';

export const KUSTOMIZE_MANIFESTS_FLAGS = defineFlags({
  package: text('name', 'package name (default: the project name)'),
  inputDir: text('dir', 'folder holding an existing base (default config/manifests)'),
  outputDir: text('dir', 'folder to write the base to (default config/manifests)'),
  quiet: bool('print nothing', { short: 'q' }),
  dir: projectDir(),
});

export const BUNDLE_FLAGS = defineFlags({
  version: text('semver', "the bundle's semantic version (CSV name <package>.v<version>)"),
  channels: text('list', 'comma-separated channels the bundle belongs to', { default: 'alpha' }),
  defaultChannel: text('name', 'the default channel of the package'),
  package: text('name', 'package name (default: the project name)'),
  useImageDigests: bool("pin images to their digests (asks each image's registry)"),
  inputDir: text('dir', 'read cluster-ready manifests from this folder instead of the kustomize build'),
  kustomizeDir: text('dir', 'the kustomize overlay with bases/ (default config/manifests)'),
  outputDir: text('dir', 'bundle folder (default bundle)'),
  quiet: bool('print nothing', { short: 'q' }),
  dir: projectDir(),
});

export const BUNDLE_VALIDATE_FLAGS = defineFlags({
  selectOptional: text(
    'selector',
    'optional validators by label, e.g. suite=operatorframework or name=operatorhub,name=good-practices (see --list-optional)',
  ),
  optionalValues: text('pairs', 'key=value pairs for the optional validators, e.g. k8s-version=1.25'),
  listOptional: bool('list the optional validators and exit'),
  output: text('format', "'text' or 'json-alpha1'", {
    short: 'o',
    default: 'text',
    choices: { values: ['text', 'json-alpha1'], noun: 'a format' },
  }),
});

export const SCORECARD_FLAGS = defineFlags({
  output: text('format', "'text' or 'json'", {
    short: 'o',
    default: 'text',
    choices: { values: ['text', 'json'], noun: 'a format' },
  }),
  selector: text('selector', 'tests by label, e.g. suite=basic or test=olm-spec-descriptors-test', { short: 'l' }),
  list: bool('list the selected tests, run none', { short: 'L' }),
  config: text('path', 'scorecard configuration (default <bundle>/tests/scorecard/config.yaml)', { short: 'c' }),
  waitTime: text('seconds', 'seconds to wait for the CRDs to be served', {
    short: 'w',
    default: '30',
    check: (v) => {
      const seconds = Number(v);
      if (!Number.isFinite(seconds) || seconds <= 0)
        throw new UserError(`--wait-time: '${v}' is not a number of seconds above 0; e.g. --wait-time 60`);
    },
  }),
});
