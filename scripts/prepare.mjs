// npm's `prepare` step: builds the CLI (dist/) when tsop itself is installed or packed. When a
// generated project installs tsop from a checkout (a `file:` dependency), npm runs this in the
// checkout too; the checkout builds its own dist/, so rebuilding it from every project's install
// would only race with whatever is using that dist/ at the time. INIT_CWD is where npm was run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const from = process.env.INIT_CWD ? resolve(process.env.INIT_CWD) : root;
const installedElsewhere = resolve(from) !== resolve(root);
if (installedElsewhere && existsSync(resolve(root, 'dist/bundle/cli.cjs'))) {
  process.stderr.write(
    `tsop: using the CLI already built in ${root}dist (run 'npm run build' there after changing it)\n`,
  );
} else {
  // For `npm pack` and `npm publish` (npm runs prepare before packing), the build drops the
  // chunks earlier builds left in dist/bundle/, so the tarball holds only this build's files.
  const forPackage = process.env.npm_command === 'pack' || process.env.npm_command === 'publish';
  const env = forPackage ? { ...process.env, TSOP_BUNDLE_FOR_PACKAGE: '1' } : process.env;
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit', env });
}
