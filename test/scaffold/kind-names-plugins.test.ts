/**
 * Kinds named like globals, keywords or template imports through the deploy-image plugin and
 * `create webhook` (issue 12 item 2; the api templates are test/scaffold/kind-names.test.ts):
 * deploy-image's types, controller and test alias the kind's type and name its variable as the
 * api templates do (GroupVersion's types go to groupversion-types.ts, not over the group-version
 * file), and the webhook, its test and a spoke's converter import the kind's type under an alias
 * where it would clash. One project gets them all; `tsop manifests` generates its CRDs and
 * webhook manifests and the project, tests included, type-checks with tsc.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runCreateWebhook } from '../../src/cli/create-webhook.js';
import { runInit } from '../../src/cli/init.js';
import { runManifests } from '../../src/cli/manifests.js';
import { captured, tempProject } from './harness.js';
import { linkNodeModules } from './node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(TSOP, 'node_modules/typescript/bin/tsc');

/** Through deploy-image: its templates also import Default and Minimum and declare name, cr, dep, …. */
const DEPLOY_IMAGE = [
  'Promise',
  'Client',
  'Deployment',
  'Event',
  'Default',
  'Minimum',
  'GroupVersion',
  'Object',
  'Symbol',
  'Name',
  'Request',
  'Manager',
  'Condition',
  'Class',
  'Function',
  'Resource',
  'Kind',
  'Deleting',
  'Cr',
];
/** With defaulting and validation webhooks: names the webhook modules import, and globals. */
const WEBHOOKS = [
  'Promise',
  'Client',
  'Request',
  'Manager',
  'Webhook',
  'Warnings',
  'KubeObject',
  'FieldError',
  'AdmissionContext',
  'Object',
  'TypeError',
  'Map',
  'Class',
];

const read = (dir: string, path: string): string => readFileSync(join(dir, path), 'utf8');

describe('kinds named like globals through deploy-image and create webhook', () => {
  it(`scaffolds ${DEPLOY_IMAGE.length} deploy-image kinds, ${WEBHOOKS.length} kinds with webhooks and a conversion, and the project type-checks`, {
    timeout: 240_000,
  }, async () => {
    const dir = tempProject('plugin-names');
    await runInit({ dir, domain: 'example.com', skipInstall: true, multigroup: true }, captured());
    for (const kind of DEPLOY_IMAGE) {
      await runCreateApi(
        {
          dir,
          group: 'apps',
          version: 'v1',
          kind,
          plugins: 'deploy-image/v1-alpha',
          image: 'busybox:1.36',
          imageContainerPort: '8080',
          make: false,
        },
        captured(),
      );
    }
    for (const kind of WEBHOOKS) {
      await runCreateApi(
        { dir, group: 'hooks', version: 'v1', kind, resource: true, controller: true, make: false },
        captured(),
      );
      await runCreateWebhook(
        { dir, group: 'hooks', version: 'v1', kind, defaulting: true, programmaticValidation: true, make: false },
        captured(),
      );
    }
    // Conversion: Promise v1 is the hub of a v2 spoke; GroupVersion's spoke converter imports groupversion-types.ts.
    for (const kind of ['Promise', 'GroupVersion']) {
      if (kind === 'GroupVersion')
        await runCreateApi(
          { dir, group: 'hooks', version: 'v1', kind, resource: true, controller: false, make: false },
          captured(),
        );
      await runCreateApi(
        { dir, group: 'hooks', version: 'v2', kind, resource: true, controller: false, make: false },
        captured(),
      );
      await runCreateWebhook(
        {
          dir,
          group: 'hooks',
          version: 'v1',
          kind,
          conversion: true,
          spoke: 'v2',
          force: kind === 'Promise',
          defaulting: kind === 'Promise',
          programmaticValidation: kind === 'Promise',
          make: false,
        },
        captured(),
      );
    }
    await runManifests({ dir }, captured());
    expect(readdirSync(join(dir, 'config/crd/bases'))).toHaveLength(DEPLOY_IMAGE.length + WEBHOOKS.length + 1);

    expect(read(dir, 'src/api/apps/v1/groupversion.ts')).toContain('export const groupVersion');
    expect(read(dir, 'src/api/apps/v1/groupversion-types.ts')).toContain('export class GroupVersion {');
    expect(read(dir, 'src/api/apps/v1/default.ts')).toContain('@DefaultMarker(1)');
    expect(read(dir, 'src/api/apps/v1/object.ts')).toContain('export { ObjectObject as Object };');
    const promise = read(dir, 'src/controllers/apps/promise-controller.ts');
    expect(promise).toContain(
      "import { promiseKind, type Promise as PromiseObject } from '../../api/apps/v1/promise.js';",
    );
    expect(read(dir, 'src/controllers/apps/name-controller.ts')).toContain('let nameObj: Name;');
    const hook = read(dir, 'src/webhooks/hooks/v1/client-webhook.ts');
    expect(hook).toContain("import { clientKind, type Client as ClientType } from '../../../api/hooks/v1/client.js';");
    expect(hook).toContain('type ClientObject = ClientType;');
    expect(read(dir, 'src/api/hooks/v2/groupversion-conversion.ts')).toContain("from './groupversion-types.js';");

    linkNodeModules(dir);
    const tsc = await execa(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, all: true, reject: false });
    expect(tsc.exitCode, tsc.all).toBe(0);
  });
});
