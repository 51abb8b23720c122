/**
 * Kinds named like JavaScript/TypeScript globals, reserved words, or names the templates import
 * (issue 12 item 2): Kubernetes allows them all, so tsop must too. One project gets a kind and a
 * controller for each name; `tsop manifests` generates every CRD and the project, tests included,
 * type-checks with tsc. Where a name would shadow a global or an import, the generated modules
 * import the kind's type under an alias (`type Promise as PromiseObject`) and name its variable
 * `<camelKind>Obj`. Object, Symbol and TypeError — globals the decorator code TypeScript emits
 * reads while the class is being defined — get a class named `<Kind>Object` exported as the kind.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runInit } from '../../src/cli/init.js';
import { runManifests } from '../../src/cli/manifests.js';
import { parse } from 'yaml';
import { pluralOfKind } from '../../src/project/plural.js';
import { kindClassName, typeAlias, variableName } from '../../src/project/identifiers.js';
import { captured, tempProject } from './harness.js';
import { linkNodeModules } from './node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(TSOP, 'node_modules/typescript/bin/tsc');

/** Globals (values and types), keywords once lower-cased, and names tsop's templates use. */
const NAMES = [
  // JavaScript and TypeScript globals
  'Function',
  'Promise',
  'Array',
  'Map',
  'Set',
  'Error',
  'Date',
  'String',
  'Number',
  'Boolean',
  'RangeError',
  'Record',
  'Partial',
  'Response',
  'URL',
  'JSON',
  'Proxy',
  'Infinity',
  'AbortSignal',
  'Iterator',
  'StructuredClone',
  'Reflect',
  'WeakMap',
  'Math',
  // globals the decorator code TypeScript emits reads while the class is defined
  'Object',
  'Symbol',
  'TypeError',
  // reserved words (as variables: function, class, default, package, …)
  'Class',
  'Default',
  'Package',
  'Interface',
  'Enum',
  'Delete',
  'New',
  'This',
  'Static',
  'Let',
  'Await',
  'Yield',
  'Import',
  'Null',
  'Void',
  'Arguments',
  'Eval',
  // names the templates import or declare
  'Request',
  'Manager',
  'Condition',
  'Client',
  'Result',
  'Kind',
  'Reconciler',
  'Resource',
  'ObjectMeta',
  'ListType',
  'PrintColumn',
  'KindRegistry',
  'TerminalError',
  'Rbac',
  'GroupVersion',
  'Req',
  'Ctx',
  'Err',
  'Changed',
  // everyday kinds that read like runtime concepts
  'Logger',
  'Event',
  'Node',
  'Spec',
  'Status',
];

describe('kinds named like globals, keywords or template names', () => {
  it(`scaffolds ${NAMES.length} of them in one project that generates its CRDs and type-checks`, {
    timeout: 240_000,
  }, async () => {
    const dir = tempProject('globals');
    await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
    for (const kind of NAMES) {
      await runCreateApi(
        { dir, group: 'names', version: 'v1', kind, resource: true, controller: true, make: false },
        captured(),
      );
    }
    await runManifests({ dir }, captured());
    const crds = readdirSync(join(dir, 'config/crd/bases'));
    expect(crds).toHaveLength(NAMES.length);

    const promise = readFileSync(join(dir, 'src/controllers/promise-controller.ts'), 'utf8');
    expect(promise).toContain("import { promiseKind, type Promise as PromiseObject } from '../api/v1/promise.js';");
    expect(promise).toContain('async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {');
    expect(readFileSync(join(dir, 'src/controllers/class-controller.ts'), 'utf8')).toContain('let classObj: Class;');
    expect(readFileSync(join(dir, 'src/api/v1/resource.ts'), 'utf8')).toContain('@ResourceMarker(');
    expect(readFileSync(join(dir, 'src/api/v1/groupversion-types.ts'), 'utf8')).toContain(
      'export class GroupVersion {',
    );
    const main = readFileSync(join(dir, 'src/main.ts'), 'utf8');
    for (const kind of NAMES) expect(main).toContain(`new ${kind}Reconciler().setupWithManager(mgr);`);

    linkNodeModules(dir);
    const tsc = await execa(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, all: true, reject: false });
    expect(tsc.exitCode, tsc.all).toBe(0);
  });

  it.each(['Object', 'Symbol', 'TypeError'])(
    'declares %s under another class name, exported as the kind, and its CRD is for that kind',
    async (kind) => {
      const dir = tempProject('decorator-globals');
      await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
      await runCreateApi(
        { dir, group: 'names', version: 'v1', kind, resource: true, controller: true, make: false },
        captured(),
      );
      // A second version marks the first as stored, finding the class by its local name.
      await runCreateApi(
        { dir, group: 'names', version: 'v2', kind, resource: true, controller: false, make: false },
        captured(),
      );
      await runManifests({ dir }, captured());
      const file = kind === 'TypeError' ? 'typeerror' : kind.toLowerCase();
      const types = readFileSync(join(dir, `src/api/v1/${file}.ts`), 'utf8');
      expect(types).toMatch(new RegExp(`@StorageVersion\\(\\)\\n@Resource\\(\\)[\\s\\S]*\\nclass ${kind}Object \\{`));
      expect(types).toContain(`export { ${kind}Object as ${kind} };`);
      const crd = parse(
        readFileSync(join(dir, `config/crd/bases/names.example.com_${pluralOfKind(kind)}.yaml`), 'utf8'),
      ) as { spec: { names: { kind: string; listKind: string }; versions: { name: string; storage: boolean }[] } };
      expect(crd.spec.names).toMatchObject({ kind, listKind: `${kind}List` });
      expect(crd.spec.versions.map((v) => [v.name, v.storage])).toEqual([
        ['v1', true],
        ['v2', false],
      ]);
      // The module loads: the decorator code finds the real globals.
      expect(readFileSync(join(dir, `src/controllers/${file}-controller.ts`), 'utf8')).toContain(
        `type ${kind} as ${kind}Object } from '../api/v1/${file}.js';`,
      );
    },
  );

  it('aliases only what would clash, so ordinary kinds keep their names', () => {
    expect(typeAlias('Memcached')).toBe('Memcached');
    expect(typeAlias('Promise')).toBe('PromiseObject');
    expect(typeAlias('Client')).toBe('ClientObject');
    expect(variableName('cronJob')).toBe('cronJob');
    expect(variableName('function')).toBe('functionObj');
    expect(variableName('client')).toBe('clientObj');
    expect(kindClassName('Memcached')).toBe('Memcached');
    expect(kindClassName('Symbol')).toBe('SymbolObject');
  });
});
