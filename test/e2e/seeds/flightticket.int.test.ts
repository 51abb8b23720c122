/**
 * Seed "FlightTicket" (a hand-written CRD with validation and a short name): scaffolded with
 * `tsop init` + `create api --controller=false`, the author's spec fields and `shortNames: ['ft']`
 * added, `npm run manifests`. The API server enforces 1 ≤ number ≤ 10 and `kubectl get ft` lists
 * the tickets with their print columns.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeWithControlPlane } from '../../../runtime/testing/control-plane.js';
import { kubectl, MINUTES, scaffoldSeed, type SeedProject } from './seed-project.js';

const ticket = (name: string, number: number) => `apiVersion: flights.com/v1
kind: FlightTicket
metadata:
  name: ${name}
  namespace: default
spec:
  from: Mumbai
  to: London
  number: ${number}
`;

describeWithControlPlane('seed FlightTicket: a CRD with validation and a short name', { shared: true }, (env) => {
  let project: SeedProject;
  const crd = () => join(project.dir, 'config/crd/bases/flights.com_flighttickets.yaml');

  beforeAll(async () => {
    project = await scaffoldSeed({
      name: 'flight-operator',
      init: ['--domain', 'com'],
      apis: [['--group', 'flights', '--version', 'v1', '--kind', 'FlightTicket', '--resource', '--controller=false']],
      fixture: 'flightticket',
    });
    const install = await kubectl(env.cp.kubeconfigPath, ['apply', '--server-side', '-f', crd()]);
    expect(install.exitCode, install.all).toBe(0);
    await env.cp.waitForCRDs(['flighttickets.flights.com']);
  }, 5 * MINUTES);

  it('generates the CRD the tutorial writes by hand', () => {
    const text = readFileSync(crd(), 'utf8');
    expect(text).toMatch(/shortNames:\n\s+- ft\n/);
    expect(text).toMatch(
      /number:\n\s+description: How many seats the ticket holds\.\n\s+format: int32\n\s+maximum: 10\n\s+minimum: 1\n\s+type: integer\n/,
    );
  });

  it('rejects tickets outside 1..10 in the API server, and accepts the bounds', async () => {
    for (const n of [0, 11, -3]) {
      const bad = await kubectl(env.cp.kubeconfigPath, ['apply', '-f', '-'], ticket(`bad-${n < 0 ? 'neg' : n}`, n));
      expect(bad.exitCode).not.toBe(0);
      expect(bad.all).toMatch(
        n > 10
          ? /spec\.number: Invalid value: 11: spec\.number in body should be less than or equal to 10/
          : /spec\.number in body should be greater than or equal to 1/,
      );
    }
    for (const n of [1, 10]) {
      const ok = await kubectl(env.cp.kubeconfigPath, ['apply', '-f', '-'], ticket(`seats-${n}`, n));
      expect(ok.exitCode, ok.all).toBe(0);
    }
    const sample = await kubectl(env.cp.kubeconfigPath, [
      'apply',
      '-n',
      'default',
      '-f',
      join(project.dir, 'config/samples/flights_v1_flightticket.yaml'),
    ]);
    expect(sample.exitCode, sample.all).toBe(0);
  });

  it('lists them with `kubectl get ft`', async () => {
    const got = await kubectl(env.cp.kubeconfigPath, ['get', 'ft', '-n', 'default']);
    expect(got.exitCode, got.all).toBe(0);
    const rows = got.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/));
    expect(rows[0]).toEqual(['NAME', 'FROM', 'TO', 'NUMBER']);
    expect(rows.slice(1)).toEqual([
      ['my-flight-ticket', 'Mumbai', 'London', '2'],
      ['seats-1', 'Mumbai', 'London', '1'],
      ['seats-10', 'Mumbai', 'London', '10'],
    ]);
  });
});
