/**
 * What tsop stamps on what it builds, in the keys operator-sdk uses for its own name and project
 * layout, so catalog tooling that reads them sees tsop.
 */
import { LAYOUT } from '../project/config.js';
import { TSOP_VERSION } from '../version.js';

const BUILDER = `tsop-v${TSOP_VERSION}`;

export function csvAnnotations(layout: string = LAYOUT): Record<string, string> {
  return { 'operators.operatorframework.io/builder': BUILDER, 'operators.operatorframework.io/project_layout': layout };
}

export function bundleLabels(layout: string = LAYOUT): Record<string, string> {
  return {
    'operators.operatorframework.io.metrics.builder': BUILDER,
    'operators.operatorframework.io.metrics.mediatype.v1': 'metrics+v1',
    'operators.operatorframework.io.metrics.project_layout': layout,
  };
}
