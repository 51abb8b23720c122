/**
 * The spec a scaffolded test gives its object. `{}` fits a kind `create api` just wrote; a kind
 * whose spec has required fields (an imported CronJob's schedule and jobTemplate) needs them, or
 * the test neither type-checks nor passes the API server's validation. They are read from the
 * kind's CRD in the project (config/crd/bases, as `tsop manifests` wrote it from the types), each
 * with the value config/samples of an imported kind gets (src/codegen/sample-value.ts).
 */
import type { JSONSchemaProps, JSONValue } from '../../codegen/jsonschema.js';
import { sampleOf } from '../../codegen/sample-value.js';
import type { Tree } from '../../scaffold/tree.js';
import { yamlLibrary } from '../../yaml/library.js';

interface CrdShape {
  spec?: { versions?: { name?: string; schema?: { openAPIV3Schema?: JSONSchemaProps } }[] };
}

/** The spec of `version` as TypeScript source, indented for a property `depth` levels in (2 spaces each). */
export function sampleSpecSource(tree: Tree, crdPath: string, version: string, depth: number): string {
  const text = tree.read(crdPath);
  if (text === undefined) return '{}';
  let crd: CrdShape;
  try {
    crd = yamlLibrary().parse(text) as CrdShape;
  } catch {
    return '{}'; // `tsop manifests` writes it again; the test keeps the spec `create api` gives
  }
  const spec = crd?.spec?.versions?.find((v) => v.name === version)?.schema?.openAPIV3Schema?.properties?.['spec'];
  return spec ? literal(sampleOf(spec), depth) : '{}';
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const quoted = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;

/** A value as TypeScript, one property per line (the formatter keeps an object literal broken that way). */
function literal(value: JSONValue, depth: number): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return quoted(value);
  if (typeof value !== 'object') return String(value);
  const pad = '  '.repeat(depth + 1);
  const end = '  '.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => v === null || typeof v !== 'object'))
      return `[${value.map((v) => literal(v, depth)).join(', ')}]`;
    return `[\n${value.map((v) => `${pad}${literal(v, depth + 1)},\n`).join('')}${end}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const key = (k: string): string => (IDENTIFIER.test(k) ? k : quoted(k));
  return `{\n${entries.map(([k, v]) => `${pad}${key(k)}: ${literal(v, depth + 1)},\n`).join('')}${end}}`;
}
