/**
 * The FlightTicket CRD of the tutorials (hand-written: 1 ≤ number ≤ 10, short name `ft`) imported
 * into a fresh project with `tsop import crd`; `tsop manifests` then gives the same CRD back (the
 * same object, descriptions and all). The author scaffolds the controller with `tsop create api
 * --resource=false --controller`, writes its logic (a boarding-pass ConfigMap per ticket), and the
 * operator runs as a process against a real control plane: the API server enforces the imported
 * bounds, `kubectl get ft` finds the tickets, and the controller reconciles them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { crdDifferences } from '../../src/import/compare.js';
import type { Crd } from '../../src/import/crd.js';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import {
  getJson,
  kubectl,
  MINUTES,
  SECONDS,
  startOperator,
  waitUntil,
  type Operator,
} from '../e2e/seeds/seed-project.js';
import { newProject, type ImportProject } from './project.js';

const CRD = join(import.meta.dirname, 'fixtures/flightticket/flightticket.yaml');

const ticket = (name: string, number: number): string => `apiVersion: flights.com/v1
kind: FlightTicket
metadata:
  name: ${name}
  namespace: default
spec:
  from: Mumbai
  to: London
  number: ${number}
`;

describeWithControlPlane(
  'import: the hand-written FlightTicket CRD, then its controller on a real control plane',
  { shared: true },
  (env) => {
    let project: ImportProject;
    let operator: Operator;
    const generated = (): string => join(project.dir, 'config/crd/bases/flights.com_flighttickets.yaml');

    beforeAll(async () => {
      project = await newProject('flight-operator', 'com');
      const imported = await project.tsop('import', 'crd', CRD);
      expect(imported.exitCode, imported.all).toBe(0);
      expect(imported.all).toContain('imported FlightTicket (flights.com, v1) from');
      expect(imported.all).toContain('tsop manifests gives back the same CRD');
      const controller = await project.tsop(
        'create',
        'api',
        '--group',
        'flights',
        '--version',
        'v1',
        '--kind',
        'FlightTicket',
        '--resource=false',
        '--controller',
        '--make=false',
      );
      expect(controller.exitCode, controller.all).toBe(0);
      project.copyFixture('flightticket');
      await project.installAndBuild();
    }, 5 * MINUTES);

    it('tsop manifests gives back the CRD that was imported', async () => {
      const manifests = await project.tsop('manifests');
      expect(manifests.exitCode, manifests.all).toBe(0);
      const want = parse(readFileSync(CRD, 'utf8')) as Crd;
      const got = parse(readFileSync(generated(), 'utf8')) as Crd;
      expect(crdDifferences(want, got)).toEqual([]);
      // The same object where the CRD spells it out, checked without the comparison's own code too.
      expect(got.spec.names).toMatchObject({
        kind: 'FlightTicket',
        plural: 'flighttickets',
        singular: 'flightticket',
        shortNames: ['ft'],
      });
      expect(got.spec.versions[0]!.schema.openAPIV3Schema.properties!['spec']).toEqual(
        want.spec.versions[0]!.schema.openAPIV3Schema.properties!['spec'],
      );
    });

    it('runs its controller: the API server enforces 1..10, and each ticket gets its boarding pass', async () => {
      const install = await kubectl(env.cp.kubeconfigPath, ['apply', '--server-side', '-f', generated()]);
      expect(install.exitCode, install.all).toBe(0);
      // Established is not yet served: wait until the API server answers for the kind (a create right after Established can get 404).
      await env.cp.waitForCRDs(['flighttickets.flights.com'], 30 * SECONDS);
      operator = await startOperator({ dir: project.dir, run: project.run }, env.cp.kubeconfigPath);

      const tooMany = await kubectl(env.cp.kubeconfigPath, ['apply', '-f', '-'], ticket('too-many', 11));
      expect(tooMany.exitCode).not.toBe(0);
      expect(tooMany.all).toMatch(/spec\.number in body should be less than or equal to 10/);
      const ok = await kubectl(env.cp.kubeconfigPath, ['apply', '-f', '-'], ticket('lhr', 2));
      expect(ok.exitCode, ok.all).toBe(0);
      const listed = await kubectl(env.cp.kubeconfigPath, ['get', 'ft', '-n', 'default', '-o', 'name']);
      expect(listed.stdout.trim()).toBe('flightticket.flights.com/lhr');

      type ConfigMap = {
        data?: Record<string, string>;
        metadata: { ownerReferences?: Array<{ kind: string; name: string; controller?: boolean }> };
      };
      let pass: ConfigMap | undefined;
      await waitUntil(
        'the boarding pass exists',
        async () =>
          (pass = await getJson<ConfigMap>(env.cp.kubeconfigPath, [
            'configmap',
            'lhr-boarding-pass',
            '-n',
            'default',
          ])) !== undefined,
        30 * SECONDS,
      );
      expect(pass!.data).toEqual({ from: 'Mumbai', to: 'London', seats: '2' });
      expect(pass!.metadata.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'FlightTicket', name: 'lhr', controller: true }),
      ]);

      // An edit of the ticket reaches the controller, which brings the pass in step.
      const edit = await kubectl(env.cp.kubeconfigPath, ['apply', '-f', '-'], ticket('lhr', 7));
      expect(edit.exitCode, edit.all).toBe(0);
      await waitUntil(
        'the pass has 7 seats',
        async () =>
          (await getJson<ConfigMap>(env.cp.kubeconfigPath, ['configmap', 'lhr-boarding-pass', '-n', 'default']))
            ?.data?.['seats'] === '7',
        30 * SECONDS,
      );
      expect(operator.logLines('boarding pass written').length).toBeGreaterThanOrEqual(2);
      expect(await operator.stop()).toBe(0);
    });
  },
);
