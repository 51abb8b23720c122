import * as promClient from 'prom-client';
import { describe, expect, it } from 'vitest';
import { runtimeImportLoads } from '../test-fixtures/helpers.js';
import { Counter, Gauge, Histogram, Registry } from './prom.js';

describe("the runtime's prom-client classes", () => {
  it('are the classes the package exports, so metrics of either kind share a registry', async () => {
    expect([Registry, Counter, Gauge, Histogram]).toEqual([
      promClient.Registry,
      promClient.Counter,
      promClient.Gauge,
      promClient.Histogram,
    ]);
    const reg = new Registry();
    new promClient.Counter({ name: 'made_with_the_package_total', help: 'h', registers: [reg] }).inc();
    new Counter({ name: 'made_with_the_runtime_total', help: 'h', registers: [reg] }).inc(2);
    const text = await reg.metrics();
    expect(text).toContain('made_with_the_package_total 1');
    expect(text).toContain('made_with_the_runtime_total 2');
  });

  it("importing the whole runtime loads none of prom-client's other parts", () => {
    const files = runtimeImportLoads()
      .required.filter((f) => f.includes('/prom-client/'))
      .map((f) => f.slice(f.lastIndexOf('/prom-client/') + '/prom-client/'.length));
    expect(files).toContain('lib/counter.js');
    expect(files.filter((f) => /^index\.js$|pushgateway|cluster|defaultMetrics|summary/.test(f))).toEqual([]);
  });
});
