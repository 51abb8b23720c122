/**
 * The project's own type-check after an update (`tsc -p tsconfig.json --noEmit`, as its `npm test`
 * and `lint` run it), with the project's own TypeScript, parsed into errors with their positions.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import type { CompileError } from './explain.js';

export type TypeCheck = { ran: false; why: string } | { ran: true; errors: CompileError[]; other: string[] };

export async function typeCheck(root: string): Promise<TypeCheck> {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  if (!existsSync(tsc))
    return { ran: false, why: "the project's packages are not installed (no node_modules/typescript)" };
  const run = await execa(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit', '--pretty', 'false'], {
    cwd: root,
    all: true,
    reject: false,
  });
  const errors: CompileError[] = [];
  const other: string[] = [];
  for (const line of (run.all ?? '').split('\n')) {
    const m = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    if (m) errors.push({ file: m[1]!, line: Number(m[2]), col: Number(m[3]), code: m[4]!, message: m[5]! });
    else if (/^error TS\d+:/.test(line)) other.push(line);
  }
  if (run.exitCode !== 0 && errors.length === 0 && other.length === 0)
    other.push((run.all ?? '').trim().split('\n').pop() ?? `tsc exited ${run.exitCode}`);
  return { ran: true, errors, other };
}
