/**
 * `tsop manifests --verify`: the CLI side of src/verify. Fails fast (exit 2, one line) without
 * control-plane binaries (downloaded when missing, where allowed) or when the project's packages are not installed (`npm install`); otherwise starts a throwaway plane, ' +
   'verifies, always stops it, and prints'
 * one line per finding: errors fail the run (exit 1), defaults the server applied and its warnings
 * are printed and do not. With `--check` as well, the committed files are compared too, in the same run.
 */
import { UserError, UserErrors } from '../errors.js';
import type { ApiModel } from '../codegen/model.js';
import type { ManifestOptions } from '../manifests/generate.js';
import { formatFinding, sortFindings } from './finding.js';
import { ensureBinaries, loadEnvtest, startPlane } from './plane.js';
import { verifyProject, type VerifyResult } from './verify.js';

export interface VerifyCommand {
  root: string;
  options: ManifestOptions;
  readModel: () => Promise<ApiModel>;
  /** `--check` too: compares the committed files (throws a UserError when out of date). */
  check?: () => Promise<void>;
}

export interface VerifyIO {
  out: (text: string) => void;
  err: (text: string) => void;
}

export async function runVerify(cmd: VerifyCommand, io: VerifyIO): Promise<void> {
  await ensureBinaries(await loadEnvtest(cmd.root), '--verify', { progress: (line) => io.err(`tsop: ${line}\n`) });
  const started = Date.now();
  const model = await cmd.readModel();
  const plane = await startPlane(cmd.root);
  let result: VerifyResult;
  try {
    result = await verifyProject({ root: cmd.root, model, options: cmd.options }, plane);
  } finally {
    await plane.stop();
  }
  for (const w of result.warnings) io.err(`tsop: warning: ${w}\n`);
  const findings = sortFindings(result.findings);
  for (const f of findings.filter((x) => x.severity === 'default')) io.out(`${formatFinding(f)}\n`);
  for (const f of findings.filter((x) => x.severity === 'warning')) io.err(`tsop: warning: ${formatFinding(f)}\n`);
  const errors: UserError[] = findings
    .filter((x) => x.severity === 'error')
    .map((f) => new UserError(formatFinding(f)));
  // The committed-files check only makes sense once the generator succeeds.
  if (cmd.check && result.generatorErrors === 0) {
    try {
      await cmd.check();
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      errors.push(...(error instanceof UserErrors ? error.errors : [error]));
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  io.err(
    `tsop: verified ${result.crds} CRD${result.crds === 1 ? '' : 's'} and ${result.samples} ` +
      `sample${result.samples === 1 ? '' : 's'} on kube-apiserver ${result.serverVersion} in ` +
      `${seconds} s: ${errors.length === 0 ? 'no errors' : `${errors.length} error${errors.length === 1 ? '' : 's'}`}\n`,
  );
  if (errors.length > 0) throw new UserErrors(errors);
}
