/**
 * A project that watches another project's kind: cert-manager's Certificate CRD (from the import
 * corpus) imported with `tsop import crd --external` — types only, and the CRD kept for the tests
 * in config/crd/external — then a controller scaffolded for it with `tsop create api
 * --external-api-path` as the import suggests. The CRD is installed on a real API server, the
 * operator runs as a process, and it reconciles on the Certificate's events (create, then an edit).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { kubectl, MINUTES, SECONDS, startOperator, waitUntil, type Operator } from '../e2e/seeds/seed-project.js';
import { corpusCache, moduleDir } from './corpus-cache.js';
import { newProject, type ImportProject } from './project.js';

const { cache, skip } = corpusCache();
if (skip) console.warn(`skipping the external-kind import test: ${skip}`);
const CRD = cache
  ? join(
      moduleDir(cache, 'github.com/cert-manager/cert-manager@v1.21.2'),
      'deploy/crds/cert-manager.io_certificates.yaml',
    )
  : '';

const certificate = (dnsName: string): string => `apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: web
  namespace: default
spec:
  secretName: web-tls
  issuerRef:
    name: ca
  dnsNames:
  - ${dnsName}
`;

(skip ? describe.skip : describe)('import --external: a controller of cert-manager Certificates', () => {
  describeWithControlPlane('reconciles on the events of an imported external kind', { shared: true }, (env) => {
    let project: ImportProject;
    let operator: Operator;
    const typesFile = 'src/external/cert-manager.io/v1/certificate.ts';

    beforeAll(async () => {
      expect(existsSync(CRD), `${CRD} is missing: run bash scripts/import-corpus.sh`).toBe(true);
      project = await newProject('cert-watcher', 'example.com');
      const imported = await project.tsop('import', 'crd', CRD, '--external');
      expect(imported.exitCode, imported.all).toBe(0);
      expect(imported.all).toContain(
        `--external-api-path ${typesFile} --external-api-domain io --resource=false --controller`,
      );
      const controller = await project.tsop(
        'create',
        'api',
        '--group',
        'cert-manager',
        '--version',
        'v1',
        '--kind',
        'Certificate',
        '--external-api-path',
        typesFile,
        '--external-api-domain',
        'io',
        '--resource=false',
        '--controller',
        '--make=false',
      );
      expect(controller.exitCode, controller.all).toBe(0);
      await project.installAndBuild();
    }, 5 * MINUTES);

    it('writes types only: no CRD of the project, the typed kind constant, and the CRD for the tests', () => {
      const types = readFileSync(join(project.dir, typesFile), 'utf8');
      expect(types).toContain(
        "export const certificateKind: Kind<Certificate> = { group: 'cert-manager.io', version: 'v1', kind: 'Certificate' };",
      );
      expect(types).toMatch(/export interface CertificateSpec \{/);
      expect(types).not.toMatch(/^@/m);
      expect(existsSync(join(project.dir, 'config/crd/bases/cert-manager.io_certificates.yaml'))).toBe(false);
      expect(existsSync(join(project.dir, 'config/crd/external/cert-manager.io_certificates.yaml'))).toBe(true);
    });

    it('reconciles each Certificate event', async () => {
      const install = await kubectl(env.cp.kubeconfigPath, [
        'apply',
        '--server-side',
        '-f',
        join(project.dir, 'config/crd/external/cert-manager.io_certificates.yaml'),
      ]);
      expect(install.exitCode, install.all).toBe(0);
      // Established is not yet served: wait until the API server answers for the kind (a create right after Established can get 404).
      await env.cp.waitForCRDs(['certificates.cert-manager.io'], 30 * SECONDS);
      operator = await startOperator({ dir: project.dir, run: project.run }, env.cp.kubeconfigPath);

      const created = await kubectl(env.cp.kubeconfigPath, ['apply', '-f', '-'], certificate('web.example.com'));
      expect(created.exitCode, created.all).toBe(0);
      const generations = (): unknown[] => operator.logLines('reconciled Certificate').map((l) => l['generation']);
      await waitUntil('the new Certificate is reconciled', () => generations().includes(1), 30 * SECONDS);

      const edited = await kubectl(env.cp.kubeconfigPath, ['apply', '-f', '-'], certificate('www.example.com'));
      expect(edited.exitCode, edited.all).toBe(0);
      await waitUntil('the edited Certificate is reconciled', () => generations().includes(2), 30 * SECONDS);
      expect(await operator.stop()).toBe(0);
    });
  });
});
