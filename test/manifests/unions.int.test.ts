/**
 * A discriminated union round-trips through the real API server (issue 11 item 4 acceptance):
 * objects whose members match their discriminator are stored as sent; a member that does not
 * match, or a missing one, is refused with the rule's message.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { HttpStatusError, requestJSON } from '../../runtime/rest/index.js';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { run, specFiles } from '../codegen/harness.js';

type Obj = Record<string, any>;

const UNION = `
export interface SecretRef { name: string }
export type Source =
  | { type: 'ConfigMap'; configMap: { name: string } }
  | { type: 'Secret'; secret: SecretRef; key?: string }
  | { type: 'None' };
`;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsop-unions-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describeWithControlPlane('discriminated union on the API server', { shared: true }, (env) => {
  beforeAll(async () => {
    const result = run(specFiles('source!: Source;', UNION));
    expect(result.errors).toEqual([]);
    await writeFile(join(dir, 'crd.yaml'), stringify(parse(result.files['crd/bases/test.example.com_ts.yaml'] ?? '')));
    await env.cp.installCRDs([dir]);
  });

  let n = 0;
  const create = (source: Obj): Promise<Obj> =>
    requestJSON<Obj>(env.cp.kubeConfig, {
      method: 'POST',
      path: '/apis/test.example.com/v1/namespaces/default/ts',
      body: { apiVersion: 'test.example.com/v1', kind: 'T', metadata: { name: `t${++n}` }, spec: { source } },
    });
  const refusal = async (source: Obj): Promise<string> => {
    try {
      await create(source);
    } catch (error) {
      if (error instanceof HttpStatusError) return `${error.code} ${error.message}`;
      throw error;
    }
    throw new Error(`the API server accepted ${JSON.stringify(source)}`);
  };

  it('valid objects are accepted and read back as sent', async () => {
    for (const source of [
      { type: 'ConfigMap', configMap: { name: 'cm' } },
      { type: 'Secret', secret: { name: 's' }, key: 'password' },
      { type: 'None' },
    ]) {
      expect((await create(source))['spec'].source).toEqual(source);
    }
  });

  it('a member that does not match its discriminator is refused with the rule message', async () => {
    const message = await refusal({ type: 'Secret', secret: { name: 's' }, configMap: { name: 'cm' } });
    expect(message).toMatch(/^422 /);
    expect(message).toContain("configMap is required when type is 'ConfigMap', and forbidden otherwise");
    expect(await refusal({ type: 'None', key: 'k' })).toContain("key is allowed only when type is 'Secret'");
  });

  it('a missing member, and an unknown discriminator value, are refused', async () => {
    expect(await refusal({ type: 'ConfigMap' })).toContain(
      "configMap is required when type is 'ConfigMap', and forbidden otherwise",
    );
    expect(await refusal({ type: 'Volume' })).toMatch(/Unsupported value: "Volume"/);
  });
});
