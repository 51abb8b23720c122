/**
 * YAML for kubeconfig files, loaded on first use: an operator in a pod reads its ServiceAccount
 * and never a kubeconfig, so it need not pay for the parser's modules at every start.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let yaml: typeof Yaml | undefined;

/** `yaml`'s parse, with the module required the first time it is needed. */
export function parseYaml(
  text: string,
  options?: Yaml.ParseOptions & Yaml.DocumentOptions & Yaml.SchemaOptions & Yaml.ToJSOptions,
): unknown {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yaml.parse(text, options);
}
