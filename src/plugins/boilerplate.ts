/**
 * License boilerplate: `hack/boilerplate.ts.txt` (kubebuilder's hack/boilerplate.go.txt) is the
 * header put at the top of every TypeScript file tsop scaffolds. `--license none` leaves only the
 * copyright line, and no owner leaves that out too (an empty header).
 */
import type { License } from '../project/config.js';

export const BOILERPLATE_FILE = 'hack/boilerplate.ts.txt';

export function boilerplate(license: License, owner: string | undefined, year: number): string {
  const copyright = `Copyright ${year}${owner ? ` ${owner}` : ''}.`;
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
