/**
 * tsop beside operator-sdk v1.42.3 itself (`npm run test:anchors`; operator-sdk from $OPERATOR_SDK,
 * scripts/operator-sdk.sh's cache, PATH or $HOME/anchors/bin): the committed operator-sdk output
 * (test/olm/parity/operator-sdk/) is still what it makes of the committed input today, the built
 * `tsop generate bundle --input-dir` writes the same bundle from the same input but for the
 * documented stamps, and operator-sdk's validators accept it; both validators give the same verdict
 * on ten CSV spec.version cases. `npm test` compares the committed
 * fixtures alone (test/olm/csv-parity.test.ts), so it needs no 18-minute Go build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Obj } from '../../src/olm/objects.js';
import { parseDocuments } from '../../src/yaml/documents-reader.js';
import { CSV_FILE, CSV_VERSION_CASES, withCsvVersion } from '../olm/csv-version-cases.js';

const REPO = join(import.meta.dirname, '../..');
const PARITY = join(import.meta.dirname, '../olm/parity');

/** operator-sdk from $OPERATOR_SDK, scripts/operator-sdk.sh's cache, PATH or $HOME/anchors/bin. */
function locateOperatorSdk(): string | undefined {
  const cached = spawnSync('bash', [join(REPO, 'scripts/operator-sdk.sh'), '--print'], { encoding: 'utf8' });
  const onPath = spawnSync('sh', ['-c', 'command -v operator-sdk'], { encoding: 'utf8' });
  const candidates = [
    process.env['OPERATOR_SDK'],
    cached.status === 0 ? cached.stdout.trim() : undefined,
    onPath.status === 0 ? onPath.stdout.trim() : undefined,
    join(homedir(), 'anchors/bin/operator-sdk'),
  ];
  return candidates.find((p): p is string => p !== undefined && p !== '' && existsSync(p));
}

const sdk = locateOperatorSdk();
if (sdk === undefined)
  throw new Error(
    'operator-sdk v1.42.3 not found: build it with `bash scripts/operator-sdk.sh` (about 18 minutes on two cores), or set OPERATOR_SDK',
  );

const read = (path: string): Obj => parseDocuments(readFileSync(path, 'utf8'), path)[0]!;
const stamps = ['createdAt', 'operators.operatorframework.io/builder', 'operators.operatorframework.io/project_layout'];
function unstamped(csv: Obj): Obj {
  const copy = structuredClone(csv) as { metadata?: { annotations?: Record<string, string> } };
  for (const key of stamps) delete copy.metadata?.annotations?.[key];
  return copy as unknown as Obj;
}

describe('operator-sdk and tsop generate the same bundle today', () => {
  let work = '';
  beforeAll(async () => {
    // dist/ (bin/tsop.js) is built by the processes project's globalSetup, never here.
    work = mkdtempSync(join(tmpdir(), 'tsop-olm-live-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('operator-sdk still makes the committed fixture', async () => {
    const dir = join(work, 'sdk');
    mkdirSync(dir);
    // operator-sdk reads stdin only from a named pipe (Node's child stdin is a socket), so cat feeds it.
    const run = await execa(
      'sh',
      [
        '-c',
        'cat "$1" | "$2" generate bundle --version 0.0.1 --package memcached-operator --channels alpha,stable --default-channel stable -q',
        'sh',
        join(PARITY, 'bundle-input.yaml'),
        sdk!,
      ],
      { cwd: dir, all: true, reject: false },
    );
    expect(run.exitCode, run.all).toBe(0);
    const files = readdirSync(join(dir, 'bundle/manifests')).sort();
    expect(files).toEqual(readdirSync(join(PARITY, 'operator-sdk/bundle/manifests')).sort());
    for (const f of files)
      expect(unstamped(read(join(dir, 'bundle/manifests', f)))).toEqual(
        unstamped(read(join(PARITY, 'operator-sdk/bundle/manifests', f))),
      );
  });

  it('tsop generate bundle --input-dir writes the same CSV', async () => {
    const dir = join(work, 'tsop');
    mkdirSync(join(dir, 'in'), { recursive: true });
    writeFileSync(join(dir, 'in/all.yaml'), readFileSync(join(PARITY, 'bundle-input.yaml')));
    const run = await execa(
      process.execPath,
      [
        join(REPO, 'bin/tsop.js'),
        'generate',
        'bundle',
        '--dir',
        dir,
        '--input-dir',
        'in',
        '--version',
        '0.0.1',
        '--package',
        'memcached-operator',
        '--channels',
        'alpha,stable',
        '--default-channel',
        'stable',
        '-q',
      ],
      { all: true, reject: false },
    );
    expect(run.exitCode, run.all).toBe(0);
    const csv = 'bundle/manifests/memcached-operator.clusterserviceversion.yaml';
    expect(unstamped(read(join(dir, csv)))).toEqual(unstamped(read(join(PARITY, 'operator-sdk', csv))));
    // operator-sdk accepts tsop's bundle with every optional validator of OperatorHub.
    for (const selector of ['suite=operatorframework', 'name=operatorhub']) {
      const validate = await execa(sdk!, ['bundle', 'validate', './bundle', '--select-optional', selector], {
        cwd: dir,
        all: true,
        reject: false,
      });
      expect(validate.exitCode, `${selector}: ${validate.all}`).toBe(0);
    }
    // No validator carries the label suite=operatorhub: operator-sdk and tsop both refuse the selector.
    const sdkRefusal = await execa(sdk!, ['bundle', 'validate', './bundle', '--select-optional', 'suite=operatorhub'], {
      cwd: dir,
      all: true,
      reject: false,
    });
    expect(sdkRefusal.exitCode).not.toBe(0);
    expect(sdkRefusal.all).toContain('selector "suite=operatorhub" does not match any validator labels');
    const tsopRefusal = await execa(
      process.execPath,
      [join(REPO, 'bin/tsop.js'), 'bundle', 'validate', './bundle', '--select-optional', 'suite=operatorhub'],
      { cwd: dir, all: true, reject: false },
    );
    expect(tsopRefusal.exitCode).toBe(1);
    expect(tsopRefusal.stderr).toContain('selector "suite=operatorhub" does not match any validator labels');
  });
});

describe('operator-sdk and tsop read a CSV spec.version alike', () => {
  const FIXTURE = join(import.meta.dirname, '../olm/fixtures/valid-operatorframework/bundle');
  const work = mkdtempSync(join(tmpdir(), 'tsop-olm-version-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  let n = 0;
  const validate = async (
    dir: string,
    ...args: string[]
  ): Promise<{
    sdk: { exitCode?: number; all?: string };
    tsop: { exitCode?: number; all?: string; stderr?: string };
  }> => ({
    sdk: await execa(sdk!, ['bundle', 'validate', dir, ...args], { all: true, reject: false }),
    tsop: await execa(process.execPath, [join(REPO, 'bin/tsop.js'), 'bundle', 'validate', dir, ...args], {
      all: true,
      reject: false,
    }),
  });
  const notSet = (out: string | undefined): boolean => /csv\.Spec\.Version must be set/.test(out ?? '');

  it.each(CSV_VERSION_CASES)('version: %s', async (yaml, refusal) => {
    const dir = withCsvVersion(FIXTURE, join(work, `b${++n}`), yaml);
    const { sdk: theirs, tsop: ours } = await validate(dir);
    expect(theirs.exitCode === 0, theirs.all).toBe(refusal === undefined);
    expect(ours.exitCode === 0, ours.all).toBe(theirs.exitCode === 0);
    if (refusal !== undefined) {
      // operator-sdk: `unable to parse CSV <file>: … while decoding JSON: <why>, no bundle csv found` (quotes escaped by its logger).
      const why = /while decoding JSON: (.*?), no bundle csv found/.exec(theirs.all ?? '')?.[1]?.replace(/\\"/g, '"');
      expect(why, theirs.all).toBe(refusal);
      expect(ours.stderr).toContain(`unable to parse CSV ${join(dir, CSV_FILE)}: spec.version`);
      expect(ours.stderr).toContain(`(${refusal})`);
    } else {
      const hub = await validate(dir, '--select-optional', 'name=operatorhub');
      expect(notSet(hub.tsop.all)).toBe(notSet(hub.sdk.all));
    }
  });

  it('0.0.0: both load it, and both operatorhub validators call it not set', async () => {
    const dir = withCsvVersion(FIXTURE, join(work, `b${++n}`), '0.0.0');
    const plain = await validate(dir);
    expect([plain.sdk.exitCode, plain.tsop.exitCode]).toEqual([0, 0]);
    const hub = await validate(dir, '--select-optional', 'name=operatorhub');
    expect([notSet(hub.sdk.all), notSet(hub.tsop.all)]).toEqual([true, true]);
  });
});
