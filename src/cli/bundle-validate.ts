/**
 * `tsop bundle validate [dir]` (operator-sdk's command and flags): the findings as log lines (text)
 * or as operator-sdk's json-alpha1 document; exit 1 when any is an error.
 */
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import { listOptional } from '../olm/validate/registry.js';
import { validateBundle } from '../olm/validate/run.js';
import { stdio, type CommandIO } from './io.js';
import { checkFlags, type FlagsOf } from '../flag.js';
import { BUNDLE_VALIDATE_FLAGS } from '../olm/flags.js';

export type BundleValidateFlags = FlagsOf<typeof BUNDLE_VALIDATE_FLAGS>;

export async function runBundleValidate(
  dir: string | undefined,
  given: BundleValidateFlags,
  io: CommandIO = stdio,
): Promise<void> {
  const flags = checkFlags(BUNDLE_VALIDATE_FLAGS, given);
  if (flags.listOptional) {
    io.out(listOptional());
    return;
  }
  if (dir === undefined)
    throw new UserError('bundle validate: a bundle directory is required, e.g. tsop bundle validate ./bundle');
  const output = flags.output ?? 'text';
  const values: Record<string, string> = {};
  for (const pair of (flags.optionalValues ?? '').split(',').filter((p) => p.trim() !== '')) {
    const eq = pair.indexOf('=');
    if (eq <= 0)
      throw new UserError(`--optional-values: '${pair}' is not key=value; e.g. --optional-values k8s-version=1.25`);
    values[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  const result = validateBundle(resolve(dir), {
    ...(flags.selectOptional !== undefined ? { selectOptional: flags.selectOptional } : {}),
    optionalValues: values,
  });
  if (output === 'json-alpha1') io.out(`${JSON.stringify(result, null, 2)}\n`);
  else {
    for (const o of result.outputs) io.out(`${o.type === 'error' ? 'ERRO' : 'WARN'} ${o.message}\n`);
    if (result.passed) io.out('INFO All validation tests have completed successfully\n');
  }
  if (!result.passed)
    throw new UserError(
      `bundle validate: ${dir} has ${result.outputs.filter((o) => o.type === 'error').length} error(s); fix them and run it again`,
    );
}
