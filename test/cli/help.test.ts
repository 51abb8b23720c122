/**
 * kubebuilder-style help: `tsop help [command…]` prints what `<command> --help` does, `tsop
 * version` prints the versions, and every command's --help ends with examples whose flags exist on
 * that command. Runs the built CLI (bin/tsop.js → dist/, `npm run build`).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { allCommands, commandPath } from '../../src/cli/help.js';
import { buildProgram } from '../../src/cli/main.js';

const bin = fileURLToPath(new URL('../../bin/tsop.js', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

async function tsop(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const commands = allCommands(buildProgram());
const paths = commands.map(commandPath);

describe('tsop help and version', { timeout: 60_000 }, () => {
  it('help <command…> prints the same as <command…> --help', async () => {
    for (const path of ['create api', 'manifests']) {
      const viaHelp = await tsop('help', ...path.split(' '));
      expect(viaHelp.code, viaHelp.stderr).toBe(0);
      expect(viaHelp).toEqual(await tsop(...path.split(' '), '--help'));
    }
    expect((await tsop('help', 'manifests')).stdout).toContain('Controller markers:'); // loaded for manifests only
  });

  it('help alone prints the command list', async () => {
    const out = await tsop('help');
    expect(out.code).toBe(0);
    expect(out.stdout).toBe((await tsop('--help')).stdout);
    expect(out.stdout).toMatch(/^ {2}help \[command\.\.\.\] /m);
    expect(out.stdout).toMatch(/^ {2}version /m);
  });

  it('help of an unknown command is one line and exit 1', async () => {
    expect(await tsop('help', 'create', 'frob')).toEqual({
      code: 1,
      stdout: '',
      stderr: "tsop: help: unknown command 'create frob'; run 'tsop --help' for the list of commands\n",
    });
  });

  it('version prints the tsop version and the Node.js it runs on', async () => {
    expect(await tsop('version')).toEqual({
      code: 0,
      stdout: `tsop ${pkg.version} (Node.js ${process.version}, ${process.platform}/${process.arch})\n`,
      stderr: '',
    });
  });

  it.each(paths)("'%s --help' ends with examples of that command, using only its flags", async (path) => {
    const cmd = commands[paths.indexOf(path)]!;
    const out = await tsop(...path.split(' '), '--help');
    expect(out.code, out.stderr).toBe(0);
    const examples = out.stdout.split('\nExamples:\n')[1];
    expect(examples, `${path} --help has no Examples section; add it to src/cli/help.ts`).toBeDefined();
    const lines = examples!.split('\n').filter((l) => l.startsWith('  tsop '));
    expect(lines.length).toBeGreaterThan(0);
    // A group's examples run its subcommands; a command's run itself with flags it has.
    const leaf = cmd.commands.length === 0;
    for (const line of lines) {
      expect(line.startsWith(`  tsop ${path}`), line).toBe(true);
      if (!leaf) continue;
      for (const flag of line.match(/ --[a-z-]+/g) ?? []) {
        expect(
          cmd.options.map((o) => o.long),
          `${line}: ${flag.trim()}`,
        ).toContain(flag.trim());
      }
    }
  });
});
