/**
 * License boilerplate: `hack/boilerplate.ts.txt` (kubebuilder's hack/boilerplate.go.txt) is the
 * header put at the top of every TypeScript file tsop scaffolds. `--license none` leaves only the
 * copyright line, and no owner leaves that out too (an empty header).
 *
 * The owner is free text inside a block comment: `*\/` in it is written `*\\/` so it cannot end
 * the comment, and what cannot be made safe (line breaks, other control characters, the
 * bidirectional overrides that make code read differently than it runs) is refused.
 */
import { readFileSync } from 'node:fs';
import { UserError } from '../errors.js';
import type { License } from '../project/config.js';
import { InvalidFlagError } from '../project/naming.js';

/** Control characters, Unicode line/paragraph separators and bidi embeddings, overrides and isolates. */
const UNSAFE_OWNER = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** Refuses an owner that cannot stand on the one copyright line. */
export function checkOwner(owner: string): void {
  const bad = UNSAFE_OWNER.exec(owner)?.[0];
  if (bad === undefined) return;
  const code = `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const what =
    bad === '\n' || bad === '\r' || bad === '\u2028' || bad === '\u2029'
      ? 'a line break'
      : bad === '\t'
        ? 'a tab'
        : /\p{Cc}/u.test(bad)
          ? 'a control character'
          : 'a bidirectional text control';
  // The value is shown escaped (JSON style), so the message stays one line.
  const shown = JSON.stringify(owner)
    .slice(1, -1)
    .replace(new RegExp(UNSAFE_OWNER.source, 'gu'), (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
  throw new InvalidFlagError(
    'owner',
    shown,
    `contains ${what} (${code}), which cannot go on the one-line copyright notice`,
    'pass the owner as one line of plain text',
  );
}

/** Code points a header must not hold: NUL and other controls (but tab and line breaks), and bidi controls. */
const UNSAFE_HEADER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * The header from `--license-file`'s content, as kubebuilder takes it: one block comment
 * (`/* ... *\/`), which then starts every scaffolded TypeScript file. Refused, with the rule, when
 * it is not exactly one comment: anything after an inner `*\/` would be code in every file.
 */
export function licenseFileHeader(path: string, content: string): string {
  const text = content.replace(/\r\n/g, '\n').trim();
  const refuse = (rule: string, fix: string): never => {
    throw new InvalidFlagError('license-file', path, rule, fix);
  };
  if (!text.startsWith('/*') || !text.endsWith('*/') || text.length < 4)
    refuse('is not a block comment (it must start with /* and end with */)', 'wrap the license text in /* and */');
  if (text.indexOf('*/', 2) !== text.length - 2)
    refuse(
      'closes its comment before the end (an inner */), so the rest would be code in every file',
      'remove the inner */',
    );
  const bad = UNSAFE_HEADER.exec(text)?.[0];
  if (bad !== undefined)
    refuse(
      `contains a control character (U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`,
      'save it as plain text',
    );
  return `${text}\n`;
}

/** --license-file's header (init and edit); the file is read while checking, before anything is written. */
export function readLicenseFile(path: string): string {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'cannot be read (permission denied)'
            : `cannot be read (${code})`;
    throw new UserError(`--license-file: '${path}' ${why}; pass the path of a text file holding a /* ... */ comment`);
  }
  return licenseFileHeader(path, content);
}

/** The owner as written inside the header's block comment. */
function commentSafe(owner: string): string {
  return owner.replaceAll('*/', '*\\/');
}

export const BOILERPLATE_FILE = 'hack/boilerplate.ts.txt';

export function boilerplate(license: License, owner: string | undefined, year: number): string {
  const copyright = `Copyright ${year}${owner ? ` ${commentSafe(owner)}` : ''}.`;
  if (license === 'none') return owner ? `/*\n${copyright}\n*/\n` : '';
  return `/*
${copyright}

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/
`;
}

/** The year stamped into headers: SOURCE_DATE_EPOCH when set (reproducible output), else now. */
export function scaffoldYear(env: NodeJS.ProcessEnv = process.env): number {
  const epoch = Number(env['SOURCE_DATE_EPOCH']);
  return new Date(Number.isFinite(epoch) && env['SOURCE_DATE_EPOCH'] ? epoch * 1000 : Date.now()).getUTCFullYear();
}

/** Puts the header above a scaffolded TypeScript file (blank line between). */
export function withHeader(header: string, content: string): string {
  return header ? `${header}\n${content}` : content;
}
