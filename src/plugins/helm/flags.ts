/**
 * The flags the Helm plugin adds to `edit`, each declared once. Light to load: `tsop --help` lists them.
 */
import { defineReplayedFlags, text } from '../../flag.js';

/** What PROJECT records of the chart: `plugins.<helm key>`. */
export type RecordedChart = Readonly<Record<string, unknown>>;

export const HELM_FLAGS = defineReplayedFlags<RecordedChart>()({
  manifests: text(
    'file',
    'helm/v2-alpha: kustomize output to build the chart from (default: build it into dist/install.yaml)',
  ),
  outputDir: text<RecordedChart>('dir', 'helm/v2-alpha: the chart goes to <dir>/chart (default dist)', {
    replay: (chart) => (typeof chart['output'] === 'string' ? chart['output'] : undefined),
  }),
});
