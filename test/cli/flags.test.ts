/**
 * One boolean reader for every flag of every command (src/flag.ts): Go's strconv.ParseBool
 * spellings and no others, so kubebuilder command lines work unchanged.
 */
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, type Command } from 'commander';
import { booleanFlag, parseBool } from '../../src/flag.js';
import { buildProgram } from '../../src/cli/main.js';
import { allCommands, commandPath } from '../../src/cli/help.js';

describe('boolean flags', () => {
  it.each(['1', 't', 'T', 'TRUE', 'true', 'True', undefined])('reads %s as true', (v) =>
    expect(parseBool(v)).toBe(true),
  );
  it.each(['0', 'f', 'F', 'FALSE', 'false', 'False'])('reads %s as false', (v) => expect(parseBool(v)).toBe(false));
  it.each(['', 'yes', 'no', 'tRuE', 'on', '2', ' true'])('refuses %j as Go does', (v) => {
    expect(parseBool(v)).toBeUndefined();
    expect(() => booleanFlag(v)).toThrow(InvalidArgumentError);
  });

  it('every boolean flag of every command takes a value through the shared reader', () => {
    const program = buildProgram();
    const checked: string[] = [];
    for (const cmd of allCommands(program) as Command[]) {
      for (const opt of cmd.options) {
        // A flag without a value argument is a boolean that cannot take =false: there must be none.
        if (opt.long === '--help' || opt.long === '--version') continue;
        expect(
          opt.required || opt.optional,
          `${commandPath(cmd)} ${opt.long} takes no value, so --x=false is refused`,
        ).toBe(true);
        if (opt.flags.endsWith('[bool]')) {
          expect(opt.parseArg, `${commandPath(cmd)} ${opt.long}`).toBe(booleanFlag);
          checked.push(`${commandPath(cmd)} ${opt.long}`);
        }
      }
    }
    expect(checked).toContain('init --skip-install');
    expect(checked).toContain('manifests --check');
    expect(checked).toContain('create api --dry-run');
  });
});
