/**
 * The project as a given tsop version scaffolds it from PROJECT: this tsop in-process (the
 * `generateHere` the command passes), any other by its own `alpha generate`, as kubebuilder runs
 * the release binary of the version. That other tsop is installed with npm into a throwaway
 * directory from an install spec (src/upgrade/tsop-source.ts: a registry version, a tarball, a
 * git ref), preferring npm's cache, so a tsop no registry has works as well as a published one.
 * The PROJECT is the one of the branch being updated, whatever is checked out.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { UserError } from '../errors.js';
import { PROJECT_FILE, readProject, type ProjectConfig } from '../project/config.js';
import { TSOP_VERSION } from '../version.js';

/** How this tsop scaffolds a project from its PROJECT (the commands' `alpha generate`, given by the caller). */
export type Generate = (config: ProjectConfig, output: string) => Promise<void>;

/** A tsop that can scaffold: its version and how to run its `alpha generate`. */
export interface ScaffoldingTsop {
  version: string;
  /** Where it came from, for messages: `this tsop` or the install spec. */
  source: string;
  scaffold(projectText: string, output: string): Promise<void>;
}

/** This process's tsop. */
export function thisTsop(generateHere: Generate): ScaffoldingTsop {
  return {
    version: TSOP_VERSION,
    source: 'this tsop',
    scaffold: async (projectText, output) => generateHere(readProject(projectText, PROJECT_FILE).config, output),
  };
}

/**
 * Installs the tsop `spec` names into `dir` (new) and returns it. An install that fails is one
 * line: npm's own error (E404, ENOENT, a git failure) and how to name the version another way.
 */
export async function installedTsop(spec: string, dir: string, wanted: string): Promise<ScaffoldingTsop> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "tsop-update-scaffolder", "private": true }\n');
  const install = await execa(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-package-lock', '--prefer-offline', '--loglevel=error', spec],
    { cwd: dir, all: true, reject: false },
  );
  if (install.exitCode !== 0) throw new UserError(installFailure(spec, wanted, install.all ?? ''));
  const deps = (
    JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }
  ).dependencies;
  const name = Object.keys(deps ?? {})[0] ?? 'tsop';
  const pkgDir = join(dir, 'node_modules', name);
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
    version?: string;
    bin?: Record<string, string> | string;
  };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.['tsop'];
  if (name !== 'tsop' || bin === undefined || pkg.version === undefined)
    throw new UserError(
      `alpha update: ${spec} is not a tsop package (it installs '${name}'); pass --from-version / --to-version with a tsop version, tarball or git ref`,
    );
  const version = pkg.version;
  return {
    version,
    source: spec,
    scaffold: (projectText, output) => runGenerate(join(pkgDir, bin), version, projectText, output),
  };
}

async function runGenerate(bin: string, version: string, projectText: string, output: string): Promise<void> {
  const input = mkdtempSync(join(output, '..', 'project-'));
  try {
    writeFileSync(join(input, PROJECT_FILE), projectText);
    mkdirSync(output, { recursive: true });
    const run = await execa(
      process.execPath,
      [bin, 'alpha', 'generate', '--input-dir', input, '--output-dir', output],
      {
        cwd: input,
        all: true,
        reject: false,
      },
    );
    if (run.exitCode !== 0) {
      const last = lastLine(run.all ?? '') ?? `exit ${run.exitCode}`;
      throw new UserError(
        `alpha update: tsop ${version} could not scaffold the project ('alpha generate' exited ${run.exitCode}: ${last}); ` +
          "alpha update needs a from-version that has 'alpha generate' (tsop 0.1.0 or later)",
      );
    }
  } finally {
    rmSync(input, { recursive: true, force: true });
  }
}

/** npm's error, in one line, with the way to name an unpublished version. */
export function installFailure(spec: string, wanted: string, output: string): string {
  const errors = output
    .split('\n')
    .map((l) =>
      l
        .replace(/^npm (error|ERR!)\s*/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(
      (l, i, all) =>
        l !== '' && !/^(A complete log|Log files were written|code$|\d{3}$)/.test(l) && all.indexOf(l) === i,
    );
  const code = /^code (\S+)/.exec(errors.find((l) => /^code \S+/.test(l)) ?? '')?.[1];
  // npm starts each line with the error's short name ('notarget No matching version ...', '404 Not Found').
  const firsts = new Set(errors.filter((l) => !/^code \S+/.test(l)).map((l) => l.split(' ')[0]));
  const short = firsts.size === 1 && /^[a-z0-9]+$/.test([...firsts][0]!) ? [...firsts][0] : undefined;
  const detail =
    errors
      .filter((l) => !/^code \S+/.test(l))
      .map((l) => (short && l.startsWith(`${short} `) ? l.slice(short.length + 1) : l))
      .slice(0, 2)
      .join(' ') ||
    lastLine(output) ||
    'no output';
  const hint = isRegistrySpec(spec)
    ? `if tsop ${wanted} was installed from a tarball or git rather than a registry, pass it: ` +
      `--from-version file:/path/to/tsop-${wanted}.tgz, or a git ref such as git+https://<tsop repository>.git#v${wanted}`
    : 'check that the tarball, directory or git ref exists and holds tsop';
  return `alpha update: could not install tsop ${wanted} from ${spec} (npm ${code ? `${code}: ` : ''}${detail}); ${hint}`;
}

function isRegistrySpec(spec: string): boolean {
  return /^tsop@[^/:]+$/.test(spec);
}

function lastLine(text: string): string | undefined {
  return (
    text
      .trim()
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .pop() ?? undefined
  );
}
