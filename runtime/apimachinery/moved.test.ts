/**
 * The names that moved out of apimachinery (to rest/, kubeconfig/ and restmapper/) still come
 * from here, as the same objects, so code written against the old path keeps compiling and
 * running; and an editor strikes them through here — but not where they live now, nor through
 * the runtime's root index.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as kubeconfig from '../kubeconfig/index.js';
import * as rest from '../rest/index.js';
import * as restmapper from '../restmapper/index.js';
import { movedNames, type NewHome } from '../test-fixtures/moved-exports.js';
import * as apimachinery from './index.js';

const homes: Record<NewHome, Record<string, unknown>> = { rest, kubeconfig, restmapper };
const RUNTIME = dirname(dirname(fileURLToPath(import.meta.url)));

/** The compiler's errors and deprecation marks (`6385 name`) for `files` (name → text, placed in runtime/). */
function diagnose(files: Record<string, string>): Record<string, string[]> {
  const config = ts.readConfigFile(join(RUNTIME, '../tsconfig.json'), (p) => ts.sys.readFile(p));
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, join(RUNTIME, '..')).options;
  const virtual = new Map(Object.entries(files).map(([name, text]) => [join(RUNTIME, name), text]));
  const service = ts.createLanguageService({
    getScriptFileNames: () => [...virtual.keys()],
    getScriptVersion: () => '1',
    getScriptSnapshot: (p) => {
      const text = virtual.get(p) ?? ts.sys.readFile(p);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => RUNTIME,
    getCompilationSettings: () => ({ ...options, skipLibCheck: true }),
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (p) => virtual.has(p) || ts.sys.fileExists(p),
    readFile: (p) => virtual.get(p) ?? ts.sys.readFile(p),
    readDirectory: ts.sys.readDirectory,
  });
  const out: Record<string, string[]> = {};
  for (const [name, text] of Object.entries(files)) {
    const path = join(RUNTIME, name);
    const found = [...service.getSemanticDiagnostics(path), ...service.getSuggestionDiagnostics(path)];
    out[name] = found.map((d) =>
      d.code === 6385
        ? `6385 ${text.slice(d.start, (d.start ?? 0) + (d.length ?? 0)).replace(/^type /, '')}`
        : `${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
  }
  return out;
}

/** A file importing the moved names from `from(module)` (types with `type`) and using each. */
function importing(from: (module: NewHome) => string): string {
  const lines = movedNames().map((n) => `import { ${n.type ? 'type ' : ''}${n.name} } from '${from(n.module)}';`);
  const used = (type: boolean): string =>
    movedNames()
      .filter((n) => n.type === type)
      .map((n) => n.name)
      .join(', ');
  return `${lines.join('\n')}\nexport const values = [${used(false)}];\nexport type Types = [${used(true)}];\n`;
}

describe('names moved out of apimachinery', () => {
  it('are still exported from it, as the very objects their new modules export', () => {
    for (const { name, module, type } of movedNames()) {
      if (type) continue;
      expect(homes[module][name], `${module}.${name}`).toBeDefined();
      expect((apimachinery as Record<string, unknown>)[name], name).toBe(homes[module][name]);
    }
  });

  it('compile from the old path and are marked deprecated there only', { timeout: 120_000 }, () => {
    const found = diagnose({
      '__old-path__.ts': importing(() => './apimachinery/index.js'),
      '__new-path__.ts': importing((module) => `./${module}/index.js`),
      '__root-index__.ts': importing(() => './index.js'),
      '__object-model__.ts':
        "import { kindFor, deepCopy, type KubeObject } from './apimachinery/index.js';\nexport const k: KubeObject = deepCopy({});\nexport const f = kindFor;\n",
    });
    // Each name where it is imported, and each value where it is used.
    const marked = [...movedNames(), ...movedNames().filter((n) => !n.type)].map((n) => `6385 ${n.name}`);
    expect(found['__old-path__.ts']?.sort()).toEqual(marked.sort());
    expect(found['__new-path__.ts']).toEqual([]);
    expect(found['__root-index__.ts']).toEqual([]);
    expect(found['__object-model__.ts']).toEqual([]);
  });
});
