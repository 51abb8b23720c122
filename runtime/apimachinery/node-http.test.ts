import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('node:http, required', () => {
  // On Node 22 and later an ESM import of node:http loads Node's bundled undici (its WebSocket
  // getters); on Node 20 this holds either way.
  it("importing the whole runtime does not load Node's bundled undici", () => {
    const register = fileURLToPath(new URL('../testing/register.mjs', import.meta.url));
    const runtime = new URL('../index.ts', import.meta.url).href;
    const script = `await import(${JSON.stringify(runtime)}); console.log(JSON.stringify(process.moduleLoadList.filter((m) => m.includes('undici'))));`;
    const out = execFileSync(process.execPath, ['--import', register, '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual([]);
  });
});
