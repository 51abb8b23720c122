/**
 * Whether a download host answers at all, asked synchronously (a child Node process makes one
 * request), for code that must decide at once, such as whether a test suite can get its binaries.
 * Any HTTP answer counts, even an error status: the host is there.
 */
import { spawnSync } from 'node:child_process';

const SCRIPT = `
const url = new URL(process.argv[1]);
const mod = url.protocol === 'https:' ? require('node:https') : require('node:http');
const req = mod.request(url, { method: 'HEAD' }, () => process.exit(0));
req.on('error', () => process.exit(1));
req.setTimeout(Number(process.argv[2]), () => req.destroy());
req.end();
`;

export function reachableSync(url: string, timeoutMs = 3000): boolean {
  const run = spawnSync(process.execPath, ['-e', SCRIPT, url, String(timeoutMs)], {
    stdio: 'ignore',
    timeout: timeoutMs + 2000,
  });
  return run.status === 0;
}
