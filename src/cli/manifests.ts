/**
 * `tsop manifests`: the flags (src/manifests/flags.ts) checked, then the run (src/manifests/run.ts), with
 * `--verify` handing the generated CRDs to src/verify.
 */
import { runManifests as run, type ApiReader, type ManifestsIO, type Verifier } from '../manifests/run.js';
import { checkFlags, type FlagsOf } from '../flag.js';
import { MANIFESTS_FLAGS } from '../manifests/flags.js';

export type { ApiReader, ManifestsIO } from '../manifests/run.js';

export type ManifestsFlags = FlagsOf<typeof MANIFESTS_FLAGS>;

const verify: Verifier = async (cmd, io) => (await import('../verify/command.js')).runVerify(cmd, io);

export async function runManifests(given: ManifestsFlags, io?: ManifestsIO, readApi?: ApiReader): Promise<void> {
  return run(checkFlags(MANIFESTS_FLAGS, given), io, readApi, verify);
}
