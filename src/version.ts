/**
 * The tsop version and where this tsop is installed, both from its package.json (read once; the
 * version is also stamped into generated runtimes). The package root is found by walking up from
 * this module to tsop's package.json, so it is the same whether the code runs from src/ (tests),
 * from dist/ or from the one-file bundle in dist/bundle/ — modules that read tsop's own data files
 * (templates/, runtime/, core schemas) build their paths on TSOP_ROOT.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageJson {
  name?: string;
  version: string;
}

function findPackage(from: string): { root: string; pkg: PackageJson } {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = readPackage(join(dir, 'package.json'));
    if (pkg?.name === 'tsop') return { root: dir, pkg };
    // An installed tsop cannot lose its package.json; this is a broken copy, not a user error.
    if (dirname(dir) === dir) throw new Error(`tsop's package.json not found in any folder above ${from}`);
  }
}

function readPackage(file: string): PackageJson | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
  } catch {
    return undefined;
  }
}

const found = findPackage(dirname(fileURLToPath(import.meta.url)));

export const TSOP_VERSION: string = found.pkg.version;

/** Where this tsop is installed: its package root directory (no trailing slash). */
export const TSOP_ROOT: string = found.root;

/**
 * How a generated project names tsop in its devDependencies. TSOP_DEPENDENCY wins; a tsop
 * installed from a registry (it sits in a node_modules folder) is named by version; a tsop run
 * from a checkout is named by path, so `npm install` in the new project installs this very tsop.
 */
export function tsopDependencySpec(env: NodeJS.ProcessEnv = process.env, tsopRoot: string = TSOP_ROOT): string {
  if (env['TSOP_DEPENDENCY']) return env['TSOP_DEPENDENCY'];
  return tsopRoot.split('/').includes('node_modules') ? `^${TSOP_VERSION}` : `file:${tsopRoot}`;
}
