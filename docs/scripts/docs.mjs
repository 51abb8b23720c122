#!/usr/bin/env node
// `npm run docs:build` / `npm run docs:dev`: installs the book's own dependencies (docs/package.json,
// kept apart so tsop's `npm ci` stays lean) when docs/node_modules is missing or older than
// docs/package-lock.json, writes the generated reference (docs/scripts/generate.ts, which fails
// on a command, marker or runtime export without a page), then runs VitePress.
//
//   node docs/scripts/docs.mjs build [vitepress flags, e.g. --outDir <dir>]
//   node docs/scripts/docs.mjs dev [--no-runtime-api] [vitepress flags]
//   node docs/scripts/docs.mjs install   (the dependencies alone: CI installs them beside tsop's own)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const docs = `${root}docs`;
const [mode, ...rest] = process.argv.slice(2);
if (mode !== 'build' && mode !== 'dev' && mode !== 'install') {
  process.stderr.write('usage: node docs/scripts/docs.mjs build|dev|install [--no-runtime-api] [vitepress flags]\n');
  process.exit(2);
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// A stamp of the lock file it was installed from tells whether docs/node_modules is current.
const lock = `${docs}/package-lock.json`;
const stamp = `${docs}/node_modules/.tsop-docs-lock.sha256`;
const hash = createHash('sha256').update(readFileSync(lock)).digest('hex');
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== hash) {
  process.stdout.write("docs: installing the book's dependencies (npm ci in docs/)\n");
  // --prefer-offline: packages already in npm's cache are taken from it without asking the
  // registry whether they changed (the lock file pins them), which saves seconds on a fresh clone.
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline'], docs);
  writeFileSync(stamp, hash);
}
if (mode === 'install') process.exit(0);

const generateArgs = rest.includes('--no-runtime-api') ? ['--no-runtime-api'] : [];
const vitepressArgs = rest.filter((a) => a !== '--no-runtime-api');
run(
  process.execPath,
  ['--import', './runtime/testing/register.mjs', 'docs/scripts/generate.ts', ...generateArgs],
  root,
);
run(process.execPath, [`${docs}/node_modules/vitepress/bin/vitepress.js`, mode, 'docs', ...vitepressArgs], root);
