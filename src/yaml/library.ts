/**
 * The `yaml` library, loaded on its first use. A plain `tsop manifests` needs none of it (PROJECT
 * and role.yaml have plain readers and writers), and it is the CLI's largest module after
 * TypeScript; the bundle keeps it in a file of its own (scripts/bundle.mjs), which this require
 * reaches.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let yaml: typeof Yaml | undefined;

export const yamlLibrary = (): typeof Yaml => (yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml);
