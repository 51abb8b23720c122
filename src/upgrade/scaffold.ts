/**
 * The project as a given tsop version scaffolds it from PROJECT: this tsop in-process (the
 * `generateHere` the command passes), any other
 * through its own `alpha generate` (`npx tsop@<version>`), as kubebuilder runs the release binary of
 * the version. The PROJECT is the one of the branch being updated, whatever is checked out.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { UserError } from '../errors.js';
import { PROJECT_FILE, readProject, type ProjectConfig } from '../project/config.js';
import { TSOP_VERSION } from '../version.js';

/** How this tsop scaffolds a project from its PROJECT (the commands' `alpha generate`, given by the caller). */
export type Generate = (config: ProjectConfig, output: string) => Promise<void>;

export async function scaffoldAt(
  version: string,
  projectText: string,
  output: string,
  generateHere: Generate,
): Promise<void> {
  if (version === TSOP_VERSION) {
    await generateHere(readProject(projectText, PROJECT_FILE).config, output);
    return;
  }
  const input = mkdtempSync(join(tmpdir(), 'tsop-project-'));
  try {
    writeFileSync(join(input, PROJECT_FILE), projectText);
    mkdirSync(output, { recursive: true });
    const run = await execa(
      'npx',
      ['--yes', `tsop@${version}`, 'alpha', 'generate', '--input-dir', input, '--output-dir', output],
      { cwd: input, all: true, reject: false },
    );
    if (run.exitCode !== 0) {
      const last = (run.all ?? '').trim().split('\n').pop() ?? '';
      throw new UserError(
        `alpha update: tsop ${version} could not scaffold the project (npx tsop@${version} alpha ` +
          `generate exited ${run.exitCode}: ${last}); pass --from-version / --to-version with a tsop ` +
          `version that has 'alpha generate'`,
      );
    }
  } finally {
    rmSync(input, { recursive: true, force: true });
  }
}
