/**
 * `tsop docs` on a multi-kind project (two kinds in v1, a second version of one in v2; nested,
 * listed, mapped, inline, enum, core and known types; class-level CEL rules; defaults): the pages
 * match the committed ones byte for byte, `--check` passes on them and fails on a changed page,
 * stale generated pages go and hand-written ones stay, and a project the generator refuses gets
 * its file:line errors and no pages.
 */
import { mkdtemp, readdir, readFile, rm, writeFile, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDocs } from '../../src/cli/docs.js';
import { renderApiDocs } from '../../src/docs/render.js';
import { readProjectApi } from '../../src/codegen/reader/sources.js';
import { UsageError, UserError, UserErrors } from '../../src/errors.js';

const shop = fileURLToPath(new URL('./fixtures/shop', import.meta.url));
const golden = join(shop, 'docs/api');

let tmp = '';
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'tsop-docs-'));
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

function capture(): { io: { out: (t: string) => void; err: (t: string) => void }; text: () => string } {
  let text = '';
  return { io: { out: (t) => void (text += t), err: (t) => void (text += t) }, text: () => text };
}

describe('tsop docs', { timeout: 60_000 }, () => {
  it('writes one page per group/version and an index, equal to the committed pages', async () => {
    const out = join(tmp, 'pages');
    const c = capture();
    await runDocs({ dir: shop, out }, c.io);
    const names = (await readdir(out)).sort();
    expect(names).toEqual(['README.md', 'shop.example.com_v1.md', 'shop.example.com_v2.md']);
    expect(names).toEqual((await readdir(golden)).sort());
    for (const name of names)
      expect(await readFile(join(out, name), 'utf8'), name).toBe(await readFile(join(golden, name), 'utf8'));
    expect(c.text()).toContain('wrote ');
  });

  it('says what the pages promise: linked types, validation, defaults, scope, appears-in', async () => {
    const v1 = await readFile(join(golden, 'shop.example.com_v1.md'), 'utf8');
    expect(v1).toContain(
      '| `catalogue` | [Product](#product) array | The catalogue. |  | Optional<br />MaxItems: 100<br />ListType: map (keys: sku) |',
    );
    expect(v1).toContain(
      '| `tier` | _string_ | Pricing tier. | `"standard"` | Optional<br />Enum: `"budget"`, `"standard"`, `"premium"` |',
    );
    expect(v1).toContain('- Rule: `self.opensAt < self.closesAt` (a store opens before it closes)');
    expect(v1).toContain('_Appears in:_ [StoreSpec](#storespec), [WarehouseSpec](#warehousespec)');
    expect(v1).toContain('[PodTemplateSpec](https://pkg.go.dev/k8s.io/api/core/v1#PodTemplateSpec)');
    expect(v1).toContain('_Cluster · resource `warehouses.shop.example.com`_');
    expect(v1).toContain('| `delivery.address` | _string_ | Street address. |  | Required |');
    // Every link to a section has its heading on the page.
    const headings = new Set([...v1.matchAll(/^### (\S+)$/gm)].map((m) => (m[1] ?? '').toLowerCase()));
    for (const m of v1.matchAll(/\]\(#([^)]+)\)/g)) expect(headings, m[1]).toContain(m[1]);
  });

  it('is deterministic', async () => {
    const model = await readProjectApi(shop);
    const a = renderApiDocs(model, { tsopVersion: '0.0.0-test' });
    const b = renderApiDocs(structuredClone(model), { tsopVersion: '0.0.0-test' });
    expect(a).toEqual(b);
  });

  it('--check passes on current pages, and fails naming a changed, a missing and a stale page; hand-written pages stay', async () => {
    const project = join(tmp, 'check');
    await cp(shop, project, { recursive: true });
    const pages = join(project, 'docs/api');
    await runDocs({ dir: project, check: true }, capture().io);
    await writeFile(join(pages, 'shop.example.com_v1.md'), 'edited by hand\n');
    await rm(join(pages, 'shop.example.com_v2.md'));
    const stale = await readFile(join(pages, 'README.md'), 'utf8');
    await writeFile(join(pages, 'shop.example.com_v0.md'), stale); // carries tsop's mark
    await writeFile(join(pages, 'guide.md'), '# How to shop\n');
    const c = capture();
    await expect(runDocs({ dir: project, check: true }, c.io)).rejects.toThrow(
      new UserError("3 API reference pages are out of date; run 'tsop docs' and commit the result"),
    );
    expect(c.text()).toBe(
      'tsop: docs/api/shop.example.com_v1.md is out of date\ntsop: docs/api/shop.example.com_v2.md is out of date\ntsop: docs/api/shop.example.com_v0.md is no longer generated\n',
    );
    await runDocs({ dir: project }, capture().io);
    await runDocs({ dir: project, check: true }, capture().io);
    expect((await readdir(pages)).sort()).toEqual([
      'README.md',
      'guide.md',
      'shop.example.com_v1.md',
      'shop.example.com_v2.md',
    ]);
  });

  it('a project the generator refuses gets its errors at file:line and no pages', async () => {
    const project = join(tmp, 'bad');
    await cp(shop, project, { recursive: true });
    await rm(join(project, 'docs'), { recursive: true });
    const file = join(project, 'src/api/v1/warehouse.ts');
    await writeFile(file, (await readFile(file, 'utf8')).replace('@Minimum(1)', "@Minimum('one')"));
    const err = await runDocs({ dir: project }, capture().io).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserErrors);
    expect((err as UserErrors).errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^src\/api\/v1\/warehouse\.ts:8: WarehouseSpec\.area: @Minimum/),
    ]);
    await expect(readdir(join(project, 'docs'))).rejects.toThrow(/ENOENT/);
  });

  it('outside a project it is a usage error', async () => {
    await expect(runDocs({ dir: tmp }, capture().io)).rejects.toBeInstanceOf(UsageError);
  });
});
