/** The tsop version, read once from package.json (also stamped into generated runtimes). */
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export const TSOP_VERSION: string = pkg.version;
