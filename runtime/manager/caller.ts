/**
 * Where the code that called into the manager stands (`src/main.ts:31`, relative to the working
 * directory), so that a deprecation warning names the line to change.
 */
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MANAGER_DIR = `${sep}runtime${sep}manager${sep}`;

/** The first stack frame outside runtime/manager/ and node_modules, or undefined when the stack names no file. */
export function callerLocation(): string | undefined {
  for (const frame of (new Error().stack ?? '').split('\n').slice(1)) {
    const m = /\(?((?:file:\/\/)?\/[^()\s]*?):(\d+):\d+\)?$/.exec(frame.trim());
    if (!m) continue;
    const file = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    // The manager's own tests call it as user code does.
    if (file.includes(MANAGER_DIR) && !/\.test\.[cm]?[jt]s$/.test(file)) continue;
    if (file.includes(`${sep}node_modules${sep}`)) continue;
    return `${relative(process.cwd(), file)}:${m[2]}`;
  }
  return undefined;
}
