/**
 * Types from other folders of the project and through tsconfig `paths` aliases (issue 11 item 4):
 * the loader follows the API files' imports outward, and the reader resolves the same aliases.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSources, readProjectApi } from '../../src/codegen/reader/sources.js';
import { parsePathAliases, specifierTargets } from '../../src/codegen/reader/aliases.js';
import { generateManifests } from '../../src/manifests/generate.js';
import { crds } from './harness.js';

const temps: string[] = [];
afterEach(async () => {
  for (const d of temps.splice(0)) await rm(d, { recursive: true, force: true });
});

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tsop-folders-'));
  temps.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const TSCONFIG = `{
  // comments and trailing commas, as tsc allows them
  "compilerOptions": {
    "baseUrl": ".",
    "paths": { "@shared/*": ["src/shared/*"], "#limits": ["lib/limits.ts"], },
  },
}`;

const FILES: Record<string, string> = {
  'tsconfig.json': TSCONFIG,
  'src/api/v1/groupversion.ts': "export const groupVersion = { group: 'test.example.com', version: 'v1' };",
  'src/api/v1/t.ts': `import { Resource } from '../../runtime/markers/index.js';
import type { Endpoint } from '@shared/endpoint.js';
import type { Retry } from '../../common/retry.js';
import { MAX_PORT } from '#limits';
import type { Limits } from '#limits';
export class TSpec { endpoint?: Endpoint; retry?: Retry; limits?: Limits; }
@Resource()
export class T { spec?: TSpec; }
`,
  // no decorator here: before, a file outside src/api was read only if it used one
  'src/shared/endpoint.ts':
    "import type { Scheme } from './scheme.js';\n/** Where to connect. */\nexport interface Endpoint { host: string; scheme?: Scheme }\n",
  'src/shared/scheme.ts': "export type Scheme = 'http' | 'https';\n",
  'src/common/retry.ts':
    "import { Minimum } from '../runtime/markers/index.js';\nexport class Retry { @Minimum(1) attempts?: int32 }\nimport type { int32 } from '../runtime/markers/index.js';\n",
  'lib/limits.ts':
    "import { Maximum } from '../src/runtime/markers/index.js';\nexport const MAX_PORT = 65535;\nexport class Limits { @Maximum(MAX_PORT) port?: number }\n",
  'src/unrelated.ts': 'export class NotAnApiType { x?: string }\n',
};

describe('types from other folders and tsconfig path aliases', () => {
  it('the loader follows API imports (relative and aliased) and nothing else', async () => {
    const dir = await tree(FILES);
    const sources = await loadSources(dir);
    expect(Object.keys(sources).sort()).toEqual([
      'lib/limits.ts',
      'src/api/v1/groupversion.ts',
      'src/api/v1/t.ts',
      'src/common/retry.ts',
      'src/shared/endpoint.ts',
      'src/shared/scheme.ts',
      'tsconfig.json',
    ]);
  });

  it('their types become the schema, with their docs and markers', async () => {
    const dir = await tree(FILES);
    const result = generateManifests(await readProjectApi(dir), { tsopVersion: 'test' });
    expect(result.errors.map((e) => e.message)).toEqual([]);
    const spec = Object.values(crds(result))[0]?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec;
    expect(spec.properties.endpoint).toEqual({
      type: 'object',
      description: 'Where to connect.',
      properties: { host: { type: 'string' }, scheme: { type: 'string', enum: ['http', 'https'] } },
      required: ['host'],
    });
    expect(spec.properties.retry.properties.attempts).toEqual({ type: 'integer', format: 'int32', minimum: 1 });
    expect(spec.properties.limits.properties.port).toEqual({ type: 'number', maximum: 65535 });
  });

  it('alias matching: longest prefix, exact names, no escape above the project', () => {
    const aliases = parsePathAliases(
      '{"compilerOptions":{"baseUrl":"src","paths":{"@/*":["*"],"@/api/*":["api/*","gen/*"],"up/*":["../../*"]}}}',
    );
    expect(specifierTargets('src/x.ts', '@/api/types.js', aliases)).toEqual(['src/api/types', 'src/gen/types']);
    expect(specifierTargets('src/x.ts', '@/lib/a', aliases)).toEqual(['src/lib/a']);
    expect(specifierTargets('src/x.ts', 'up/etc/passwd', aliases)).toEqual([]);
    expect(specifierTargets('src/x.ts', 'lodash', aliases)).toEqual([]);
    expect(specifierTargets('src/a/x.ts', '../b/y.js', undefined)).toEqual(['src/b/y']);
    expect(specifierTargets('src/a/x.ts', '../../../runtime/markers/index.js', undefined)).toEqual([]);
  });
});
