/**
 * The project as a given tsop version scaffolds it from PROJECT: this tsop in-process, any other
 * through its own `alpha generate` (`npx tsop@<version>`), as kubebuilder runs the release binary of
 * the version. The PROJECT is the one of the branch being updated, whatever is checked out.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { UserError } from '../errors.js';
import { PROJECT_FILE, readProject } from '../project/config.js';
import { TSOP_VERSION } from '../version.js';

export async function scaffoldAt(version: string, projectText: string, output: string): Promise<void> {
  if (version === TSOP_VERSION) {
    const { generateProject } = await import('../cli/alpha-generate.js');
    await generateProject(readProject(projectText, PROJECT_FILE).config, output);
    return;
  }
  const input = mkdtempSync(join(tmpdir(), 'tsop-project-'));
  try {
    writeFileSync(join(input, PROJECT_FILE), projectText);
    mkdirSync(output, { recursive: true });
    const run = await execa('npx', ['--yes', `tsop@${version}`, 'alpha', 'generate', '--input-dir', input, '--output-dir', output], { cwd: input, all: true, reject: false });
    if (run.exitCode !== 0) {
      const last = (run.all ?? '').trim().split('\n').pop() ?? '';
      throw new UserError(`alpha update: tsop ${version} could not scaffold the project (npx tsop@${version} alpha generate exited ${run.exitCode}: ${last}); pass --from-version / --to-version with a tsop version that has 'alpha generate'`);
    }
  } finally {
    rmSync(input, { recursive: true, force: true });
  }
}
