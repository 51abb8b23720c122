import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as promClient from 'prom-client';
import { describe, expect, it } from 'vitest';
import { Counter, Gauge, Histogram, Registry } from './prom.js';

describe("the runtime's prom-client classes", () => {
  it('are the classes the package exports, so metrics of either kind share a registry', async () => {
    expect([Registry, Counter, Gauge, Histogram]).toEqual([promClient.Registry, promClient.Counter, promClient.Gauge, promClient.Histogram]);
    const reg = new Registry();
    new promClient.Counter({ name: 'made_with_the_package_total', help: 'h', registers: [reg] }).inc();
    new Counter({ name: 'made_with_the_runtime_total', help: 'h', registers: [reg] }).inc(2);
    const text = await reg.metrics();
    expect(text).toContain('made_with_the_package_total 1');
    expect(text).toContain('made_with_the_runtime_total 2');
  });

  it("importing the whole runtime loads none of prom-client's other parts", () => {
    const register = fileURLToPath(new URL('../testing/register.mjs', import.meta.url));
    const runtime = new URL('../index.ts', import.meta.url).href;
    const script = [
      `import { createRequire } from 'node:module';`,
      `await import(${JSON.stringify(runtime)});`,
      `const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/prom-client/'));`,
      `console.log(JSON.stringify(loaded.map((f) => f.slice(f.lastIndexOf('/prom-client/') + 13))));`,
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', register, '--input-type=module', '-e', script], { encoding: 'utf8' });
    const files = JSON.parse(out.trim().split('\n').pop()!) as string[];
    expect(files).toContain('lib/counter.js');
    expect(files.filter((f) => /^index\.js$|pushgateway|cluster|defaultMetrics|summary/.test(f))).toEqual([]);
  });
});
