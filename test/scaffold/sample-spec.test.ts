/**
 * The object a scaffolded controller or webhook test writes carries the spec fields the kind's CRD
 * requires (an imported kind's, or one a user made required before scaffolding), each with the
 * value config/samples of an imported kind gets; a kind `create api` just wrote keeps `spec: {}`
 * (the goldens say so). The literal is written as the project's formatter leaves it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runCreateWebhook } from '../../src/cli/create-webhook.js';
import { runInit } from '../../src/cli/init.js';
import { runManifests } from '../../src/cli/manifests.js';
import { captured, tempProject } from './harness.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));

/** The spec a user wrote: required fields with a bound, an enum and a nested object; an optional one. */
const SPEC = `export class WindowSpec {
  start!: string;
}

/** RunnerSpec defines the desired state of Runner. */
export class RunnerSpec {
  @MinLength(3)
  schedule!: string;
  mode!: 'Fast' | 'Slow';
  window!: WindowSpec;
  note?: string;
}`;

/** Required fields in the CRD's order (sorted), as the controller test writes them. */
const SAMPLE = `spec: {
        mode: 'Fast',
        schedule: 'xxx',
        window: {
          start: '',
        },
      },`;

describe('the spec of a scaffolded test', () => {
  it("is the smallest one the kind's CRD accepts, formatted as the project's formatter leaves it", async () => {
    const dir = tempProject('required-spec');
    await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
    const kind = { dir, group: 'batch', version: 'v1', kind: 'Runner', make: false };
    await runCreateApi({ ...kind, resource: true, controller: false }, captured());
    const types = join(dir, 'src/api/v1/runner.ts');
    const written = readFileSync(types, 'utf8');
    writeFileSync(
      types,
      `import { MinLength } from '../../runtime/markers/index.js';\n${written.replace(
        /\/\*\* RunnerSpec defines[\s\S]*?\n}/,
        SPEC,
      )}`,
    );
    await runManifests({ dir }, { out: () => undefined, err: () => undefined });
    await runCreateApi({ ...kind, resource: false, controller: true }, captured());
    await runCreateWebhook({ ...kind, defaulting: true }, captured());

    const controllerTest = readFileSync(join(dir, 'src/controllers/runner-controller.test.ts'), 'utf8');
    expect(controllerTest).toContain(SAMPLE);
    const webhookTest = readFileSync(join(dir, 'src/webhooks/v1/runner-webhook.test.ts'), 'utf8');
    // Two levels shallower there: the object is an argument, not a variable's value.
    expect(webhookTest).toContain(SAMPLE.replace(/\n {2}/g, '\n'));
    expect(webhookTest).not.toContain('spec: {}');

    const biome = await execa(
      join(TSOP, 'node_modules/.bin/biome'),
      ['format', 'src/controllers/runner-controller.test.ts', 'src/webhooks/v1/runner-webhook.test.ts'],
      { cwd: dir, reject: false },
    );
    expect(biome.exitCode, `${biome.stdout}${biome.stderr}`).toBe(0);
  }, 60_000);
});
