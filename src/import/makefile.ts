/**
 * The CRD options of a kubebuilder project's Makefile: the arguments its `manifests` target gives
 * controller-gen (`crd:maxDescLen=0`, `crd:generateEmbeddedObjectMeta=true`, `output:crd:…`), read
 * so `import kubebuilder` can keep them as the tsop project's manifests settings
 * (src/manifests/project-options.ts) instead of a flag to remember on every run. Each option is
 * carried, or named with what it means for TypeScript and why nothing needs carrying, or named as
 * not carried: none is dropped without a line.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import type { ProjectManifestOptions } from '../manifests/project-options.js';

export interface MakefileOptions {
  /** What the tsop project records under plugins.manifests.typescript.tsop.dev/v1. */
  options: ProjectManifestOptions;
  /** One line per option that is not carried, with its Makefile line and why. */
  notes: string[];
}

/** Where controller-gen writes CRDs in a kubebuilder project, and tsop in its own. */
const CRD_DIR = 'config/crd/bases';

/** Reads the Makefile of `dir` (none: nothing to carry); `shown` is its path in messages. */
export async function readMakefileOptions(dir: string, shown: string): Promise<MakefileOptions> {
  let text: string;
  try {
    text = await readFile(join(dir, 'Makefile'), 'utf8');
  } catch {
    return { options: {}, notes: [] };
  }
  return makefileOptions(text, shown);
}

/** The options of the controller-gen calls in `text` that run the `crd` generator. */
export function makefileOptions(text: string, file: string): MakefileOptions {
  const options: ProjectManifestOptions = {};
  const notes: string[] = [];
  const lines = joinContinuations(text);
  const variables = assignments(lines);
  lines.forEach(({ line, at }) => {
    if (!/controller-gen|CONTROLLER_GEN/i.test(line) || /^\s*[A-Za-z_][A-Za-z0-9_]*\s*[:?+]?=/.test(line)) return;
    // kubebuilder v3's Makefile passes the crd options through CRD_OPTIONS ?= "crd:…".
    const args = expand(line, variables).split(/\s+/).map(unquote);
    if (!args.some((a) => a === 'crd' || a.startsWith('crd:'))) return;
    const where = `${file}:${at}`;
    for (const arg of args) {
      if (arg.startsWith('crd:')) {
        for (const pair of arg.slice('crd:'.length).split(',')) crdOption(pair, where, options, notes);
      } else if (arg.startsWith('output:crd:')) {
        const dir = arg.slice(arg.indexOf('=') + 1).replace(/\/+$/, '');
        if (dir !== CRD_DIR)
          notes.push(
            `${where}: ${arg} not carried: tsop manifests writes CRDs to ${CRD_DIR} (under --output-dir, default config), which the kustomize tree reads`,
          );
      } else if (arg.startsWith('rbac:roleName=') && arg !== 'rbac:roleName=manager-role') {
        notes.push(
          `${where}: ${arg} not carried: tsop names the manager's ClusterRole manager-role, as kubebuilder does`,
        );
      }
    }
  });
  return { options, notes };
}

function crdOption(pair: string, where: string, options: ProjectManifestOptions, notes: string[]): void {
  const eq = pair.indexOf('=');
  const key = eq < 0 ? pair : pair.slice(0, eq);
  const value = eq < 0 ? 'true' : pair.slice(eq + 1);
  const bool = (): boolean => {
    if (value === 'true' || value === 'false') return value === 'true';
    throw new UserError(
      `import kubebuilder: ${where}: crd:${pair} has the value '${value}'; controller-gen takes true or false there: fix the Makefile and import again`,
    );
  };
  switch (key) {
    case 'maxDescLen': {
      if (!/^[0-9]+$/.test(value))
        throw new UserError(
          `import kubebuilder: ${where}: crd:${pair} is not a whole number of 0 or more; fix the Makefile (e.g. crd:maxDescLen=0) and import again`,
        );
      options.maxDescLen = Number(value);
      return;
    }
    case 'generateEmbeddedObjectMeta':
      if (bool()) options.generateEmbeddedObjectMeta = true;
      return;
    case 'allowDangerousTypes':
      if (bool())
        notes.push(
          `${where}: crd:allowDangerousTypes=true needs no setting: a TypeScript 'number' field is a float (type: number) in tsop, and int32/int64 are whole numbers`,
        );
      return;
    case 'ignoreUnexportedFields':
      if (bool())
        notes.push(
          `${where}: crd:ignoreUnexportedFields=true needs no setting: tsop always leaves private, protected and #fields out of the schema, as Go's unexported fields`,
        );
      return;
    case 'trivialVersions':
    case 'preserveUnknownFields':
      notes.push(
        `${where}: crd:${pair} not carried: it shapes apiextensions.k8s.io/v1beta1 CRDs, and tsop writes v1 CRDs only`,
      );
      return;
    case 'crdVersions':
      if (value !== 'v1')
        notes.push(`${where}: crd:crdVersions=${value} not carried: tsop writes apiextensions.k8s.io/v1 CRDs only`);
      return;
    default:
      notes.push(`${where}: crd:${pair} not carried: tsop manifests has no such option`);
  }
}

/** The Makefile's simple variables (`NAME ?= value`, `=`, `:=`), the last assignment winning. */
function assignments(lines: ReadonlyArray<{ line: string }>): Map<string, string> {
  const out = new Map<string, string>();
  for (const { line } of lines) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\?|:|::)?=\s*(.*?)\s*$/.exec(line);
    if (m) out.set(m[1]!, unquote(m[2]!));
  }
  return out;
}

/** `line` with `$(NAME)` and `${NAME}` of the Makefile's own variables replaced (others kept). */
function expand(line: string, variables: ReadonlyMap<string, string>): string {
  return line.replace(/\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]/g, (whole, name: string) => variables.get(name) ?? whole);
}

/** Makefile lines with their `\` continuations joined, each with the number of its first line. */
function joinContinuations(text: string): Array<{ line: string; at: number }> {
  const out: Array<{ line: string; at: number }> = [];
  let pending: { line: string; at: number } | undefined;
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    const part = line.endsWith('\\') ? line.slice(0, -1) : line;
    pending = pending ? { line: `${pending.line} ${part}`, at: pending.at } : { line: part, at: i + 1 };
    if (!line.endsWith('\\')) {
      if (!/^\s*#/.test(pending.line)) out.push(pending);
      pending = undefined;
    }
  });
  if (pending) out.push(pending);
  return out;
}

function unquote(arg: string): string {
  return arg.replace(/^(['"])(.*)\1$/, '$2');
}
