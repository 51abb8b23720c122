/**
 * `tsop manifests`' flags, each declared once (src/flag.ts): the command line reads them
 * (src/cli/commands.ts), and a run takes its options from them (`ManifestsRun`, run.ts).
 */
import { bool, count, defineFlags, text } from '../flag.js';

export const MANIFESTS_FLAGS = defineFlags({
  dir: text('path', 'project root', { default: '.' }),
  outputDir: text('path', 'directory to write into, relative to --dir', { default: 'config' }),
  check: bool('write nothing; print a diff of out-of-date files and breaking schema changes, exit 1 if any'),
  maxDescLen: count('n', 'shorten descriptions to n characters (0 removes them)'),
  verify: bool(
    'write nothing; install the CRDs on a throwaway control plane and dry-run config/samples, one line per finding, exit 1 on any error',
  ),
  generateEmbeddedObjectMeta: bool(
    'keep name, namespace, labels, annotations and finalizers of ObjectMeta nested in a spec ' +
      "(pod templates), as controller-gen's crd:generateEmbeddedObjectMeta; default from PROJECT " +
      '(plugins.manifests.typescript.tsop.dev/v1), else false',
  ),
  controllerGenCompat: bool(
    "write controller-gen's text where tsop writes otherwise: @UniqueItems as uniqueItems: " +
      'true (the API server refuses it), a nullable enum as enum + nullable (the API server then ' +
      'refuses null), @XIntOrString on a string or integer field with that type kept beside ' +
      'x-kubernetes-int-or-string; default from PROJECT ' +
      '(plugins.manifests.typescript.tsop.dev/v1), else false',
  ),
});
