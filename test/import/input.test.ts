/**
 * Where `tsop import crd` reads from: a file, a directory of YAML files, a URL (a real HTTP server
 * on loopback) and standard input; several documents and `List` objects in one text; other kinds
 * of object beside CRDs skipped with a note.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { readCrds } from '../../src/import/documents.js';
import { readInputs } from '../../src/import/input.js';
import { crdObject, crdYaml } from './crds.js';

const dir = mkdtempSync(join(tmpdir(), 'tsop-import-input-'));
const widgets = crdYaml({ group: 'shop.example.com', kind: 'Widget', plural: 'widgets' });
const gadgets = crdYaml({ group: 'shop.example.com', kind: 'Gadget', plural: 'gadgets' });
let server: Server;
let base: string;

beforeAll(async () => {
  mkdirSync(join(dir, 'bases'));
  writeFileSync(join(dir, 'bases/b.yaml'), gadgets);
  writeFileSync(join(dir, 'bases/a.yml'), widgets);
  writeFileSync(join(dir, 'bases/notes.txt'), 'not read');
  server = createServer((req, res) => {
    if (req.url === '/crds.yaml')
      res.end(`${widgets}---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n---\n${gadgets}`);
    else res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const kinds = (inputs: Awaited<ReturnType<typeof readInputs>>): string[] =>
  readCrds(inputs).crds.map((c) => c.crd.spec.names.kind);

describe('readInputs and readCrds', () => {
  it('reads every .yaml and .yml file of a directory, in name order', async () => {
    expect(kinds(await readInputs(join(dir, 'bases')))).toEqual(['Widget', 'Gadget']);
  });

  it('downloads a URL, and skips the objects that are not CRDs with a note', async () => {
    const read = readCrds(await readInputs(`${base}/crds.yaml`));
    expect(read.crds.map((c) => [c.crd.spec.names.kind, c.origin])).toEqual([
      ['Widget', `${base}/crds.yaml#1`],
      ['Gadget', `${base}/crds.yaml#3`],
    ]);
    expect(read.skipped).toEqual([`${base}/crds.yaml#2: a Namespace`]);
  });

  it('names the HTTP status of a URL that fails', async () => {
    await expect(readInputs(`${base}/missing.yaml`)).rejects.toThrow(
      `import crd: downloading ${base}/missing.yaml gave HTTP 404; check the URL`,
    );
  });

  it('reads standard input, and the List kubectl get prints', async () => {
    const list = stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [crdObject({ group: 'shop.example.com', kind: 'Widget', plural: 'widgets' })],
    });
    const read = readCrds(await readInputs('-', async () => list));
    expect(read.crds.map((c) => [c.crd.spec.names.kind, c.origin])).toEqual([['Widget', 'stdin items[0]']]);
  });

  it('refuses the same CRD twice', async () => {
    expect(() =>
      readCrds([
        { name: 'a.yaml', text: widgets },
        { name: 'b.yaml', text: widgets },
      ]),
    ).toThrow('import crd: widgets.shop.example.com is in the input twice (a.yaml and b.yaml); pass each CRD once');
  });
});
