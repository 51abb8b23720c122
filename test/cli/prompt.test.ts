/**
 * create api's "Create Resource [y/n]" prompt on a real pseudo-terminal: util-linux `script` runs
 * the built CLI (bin/tsop.js → dist/) with a pty as its stdin, and the test types into it. Ctrl-C
 * and Ctrl-D exit 130 with one line, no stack, nothing written; answers scaffold as asked.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runInit } from '../../src/cli/init.js';
import { captured, readTree, tempProject } from '../scaffold/harness.js';

const bin = fileURLToPath(new URL('../../bin/tsop.js', import.meta.url));
const hasScript = spawnSync('script', ['--version']).status === 0;

interface Session {
  code: number | null;
  output: string;
}

/** Runs `tsop args…` on a pty in `cwd`, typing each key once the output so far matches its pattern. */
function onTerminal(cwd: string, args: string[], keys: ReadonlyArray<[RegExp, string]>): Promise<Session> {
  const command = [process.execPath, bin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  // -e: script exits with the child's code; -q: no "Script started" lines; /dev/null: no typescript file.
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let next = 0;
  const onData = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
    while (next < keys.length && keys[next]![0].test(output)) {
      output += '\n<typed>\n'; // later patterns must match output after this key only
      child.stdin.write(keys[next]![1]);
      next++;
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: output.replace(/\r/g, '') }));
  });
}

describe.runIf(hasScript || process.env['CI'] === 'true')(
  "create api's prompt on a terminal",
  { timeout: 60_000 },
  () => {
    async function project(): Promise<string> {
      const dir = tempProject('prompted');
      await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
      return dir;
    }
    const createApi = ['create', 'api', '--group', 'cache', '--version', 'v1', '--kind', 'Foo', '--make=false'];

    it.each([
      ['Ctrl-C', '\x03', 'interrupted'],
      ['Ctrl-D', '\x04', 'end of input'],
    ])('%s exits 130 with one line and writes nothing', async (_name, key, what) => {
      const dir = await project();
      const before = readTree(dir);
      const session = await onTerminal(dir, createApi, [[/Create Resource \[y\/n\]/, key]]);
      expect(session.code, session.output).toBe(130);
      // What the terminal shows after the key, minus readline's cursor movements and blank lines.
      const after = (session.output.split('<typed>\n')[1] ?? '').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
      expect(after.split('\n').filter((l) => l.trim() !== '')).toEqual([
        `tsop: ${what} at a prompt; nothing was written`,
      ]);
      expect(session.output).not.toMatch(/AbortError|\n\s+at /);
      expect(readTree(dir)).toEqual(before);
    });

    it("asks for a project name when the directory's name is not ASCII, offering one without accents", async () => {
      for (const [typed, name] of [
        ['\r', 'operateur'],
        ['shop-op\r', 'shop-op'],
      ] as const) {
        const dir = join(tempProject('named'), 'opérateur-日本');
        mkdirSync(dir);
        const session = await onTerminal(
          dir,
          ['init', '--domain', 'example.com', '--skip-install'],
          [[/Project name \[operateur\]: /, typed]],
        );
        expect(session.code, session.output).toBe(0);
        expect(session.output).toContain(
          "The directory name 'opérateur-日本' cannot be a project name (a DNS-1123 label: lower-case ASCII letters, digits and '-').",
        );
        expect(readTree(dir)['PROJECT']).toContain(`projectName: ${name}\n`);
      }
    });

    it('scaffolds what the answers ask for', async () => {
      const dir = await project();
      const session = await onTerminal(dir, createApi, [
        [/Create Resource \[y\/n\]/, 'maybe\r'],
        [/please answer 'y' or 'n'[\s\S]*Create Resource \[y\/n\]/, 'y\r'],
        [/Create Controller \[y\/n\]/, 'n\r'],
      ]);
      expect(session.code, session.output).toBe(0);
      const files = readTree(dir);
      expect(files['src/api/v1/foo.ts']).toBeDefined();
      expect(Object.keys(files).filter((p) => p.startsWith('src/controllers/'))).toEqual([]);
    });
  },
);
