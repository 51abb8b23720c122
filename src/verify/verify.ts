/**
 * `manifests --verify` as one function: the generator's errors, then what the real API server says
 * about the CRDs (installed for real on a throwaway plane) and about every sample (dry run), all
 * collected in one list of findings. The caller owns the plane (start, stop), so tests can share one.
 */
import { join } from 'node:path';
import { parse } from 'yaml';
import type { ApiModel } from '../codegen/model.js';
import { generateManifests, type ManifestOptions } from '../manifests/generate.js';
import { ApiClient } from './api.js';
import { installCrds, type Crd } from './crds.js';
import type { Finding } from './finding.js';
import { SourceMap } from './origins.js';
import type { Plane } from './plane.js';
import { generateForServer } from './prune.js';
import { checkSamples } from './samples.js';

export interface VerifyInput {
  /** The project root; findings name files relative to it. */
  root: string;
  model: ApiModel;
  options: ManifestOptions;
  /** config/samples by default. */
  samplesDir?: string;
}

export interface VerifyResult {
  findings: Finding[];
  /** The generator's warnings, as `tsop manifests` prints them. */
  warnings: string[];
  /** How many of the findings the generator itself reported. */
  generatorErrors: number;
  crds: number;
  samples: number;
  /** kube-apiserver's version (`v1.36.3`). */
  serverVersion: string;
}

export async function verifyProject(input: VerifyInput, plane: Plane): Promise<VerifyResult> {
  const { model, options } = input;
  const findings: Finding[] = [];
  const generated = generateManifests(model, options);
  for (const e of generated.errors)
    findings.push({ severity: 'error', pos: { file: e.file, line: e.line }, message: e.detail });

  const api = new ApiClient(plane.server, plane.tls);
  const pruned = generateForServer(model, (m) => generateManifests(m, options));
  for (const name of pruned.skipped) {
    const kind = model.kinds.find((k) => `${k.group}/${k.kind}` === name);
    findings.push({
      severity: 'error',
      pos: kind?.pos ?? { file: 'src/api', line: 1 },
      message: `${name}: not checked on the API server, as the errors above leave no CRD to install; fix them and run again`,
    });
  }
  const crds = Object.keys(pruned.files)
    .sort()
    .map((path) => parse(pruned.files[path] ?? '') as Crd);
  const sources = new SourceMap(model, options.generateEmbeddedObjectMeta === true);
  await installCrds(api, crds, model, sources, findings);
  const samples = await checkSamples(
    api,
    input.root,
    input.samplesDir ?? join(input.root, 'config', 'samples'),
    model,
    sources,
    findings,
  );
  const version = await api.get('/version');
  return {
    findings,
    warnings: generated.warnings,
    generatorErrors: generated.errors.length,
    crds: crds.length,
    samples,
    serverVersion: String((version.body as { gitVersion?: string }).gitVersion ?? 'unknown'),
  };
}
