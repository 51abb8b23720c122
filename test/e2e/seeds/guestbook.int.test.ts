/**
 * Seed "Guestbook" (kubebuilder's quick start): `tsop init` + `create api`, the one line the
 * author adds (a log line in Reconcile), `npm run install-crds`, the operator run as a process
 * logging each request, then `npm run deploy IMG=…` applying the kustomize tree server-side and
 * the manager Deployment becoming Available on a kwok node.
 */
import { dirname } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeWithControlPlane } from '../../../runtime/testing/control-plane.js';
import {
  FULLER_PLANE,
  getJson,
  kubectl,
  kubectlPath,
  MINUTES,
  scaffoldSeed,
  SECONDS,
  startOperator,
  waitUntil,
  type SeedProject,
} from './seed-project.js';

interface DeploymentJson {
  spec: { template: { spec: { containers: { name: string; image: string }[] } } };
  status?: { conditions?: { type: string; status: string }[]; availableReplicas?: number };
}

describeWithControlPlane(
  'seed Guestbook: the quick start, run and deployed',
  { shared: true, ...FULLER_PLANE },
  (env) => {
    let project: SeedProject;
    // The project's npm scripts call `kubectl`: the harness's one, on the harness's cluster.
    const kubeEnv = () => ({
      KUBECONFIG: env.cp.kubeconfigPath,
      PATH: `${dirname(kubectlPath())}:${process.env['PATH'] ?? ''}`,
    });

    beforeAll(async () => {
      project = await scaffoldSeed({
        name: 'guestbook',
        init: ['--domain', 'my.domain'],
        apis: [['--group', 'webapp', '--version', 'v1', '--kind', 'Guestbook', '--resource', '--controller']],
        insertions: [
          {
            file: 'src/controllers/guestbook-controller.ts',
            after: '    // Add your logic here: compare the spec with what exists and create, update or delete.',
            insert: "    ctx.log.info({ req: `${req.namespace}/${req.name}` }, 'print_req');",
          },
        ],
      });
    }, 5 * MINUTES);

    it(
      'installs its CRD and logs each request it reconciles',
      async () => {
        const install = await project.run('npm', ['run', 'install-crds'], kubeEnv());
        expect(install.exitCode, install.all).toBe(0);
        expect(install.all).toContain(
          'customresourcedefinition.apiextensions.k8s.io/guestbooks.webapp.my.domain serverside-applied',
        );
        await env.cp.waitForCRDs(['guestbooks.webapp.my.domain']);

        const operator = await startOperator(project, env.cp.kubeconfigPath);
        try {
          const sample = await kubectl(env.cp.kubeconfigPath, [
            'apply',
            '-n',
            'default',
            '-f',
            `${project.dir}/config/samples/webapp_v1_guestbook.yaml`,
          ]);
          expect(sample.exitCode, sample.all).toBe(0);
          await waitUntil(
            'the operator logs the request',
            () => operator.logLines('print_req').length > 0,
            30 * SECONDS,
          );
          expect(operator.logLines('print_req')[0]).toMatchObject({
            req: 'default/guestbook-sample',
            controller: 'guestbook',
            namespace: 'default',
            name: 'guestbook-sample',
          });
        } finally {
          expect(await operator.stop()).toBe(0);
        }
      },
      2 * MINUTES,
    );

    it(
      'deploys with `npm run deploy` (server-side apply) and its manager Deployment becomes Available',
      async () => {
        const deploy = await project.run('npm', ['run', 'deploy'], { ...kubeEnv(), IMG: 'guestbook:v1.0' });
        expect(deploy.exitCode, deploy.all).toBe(0);
        expect(deploy.all).toContain('namespace/guestbook-system serverside-applied');
        expect(deploy.all).toContain('deployment.apps/guestbook-controller-manager serverside-applied');

        const ready = await kubectl(env.cp.kubeconfigPath, [
          'wait',
          '--for=condition=Available',
          '--timeout=90s',
          '-n',
          'guestbook-system',
          'deployment/guestbook-controller-manager',
        ]);
        expect(ready.exitCode, ready.all).toBe(0);
        const deployment = await getJson<DeploymentJson>(env.cp.kubeconfigPath, [
          'deployment',
          'guestbook-controller-manager',
          '-n',
          'guestbook-system',
        ]);
        expect(deployment?.spec.template.spec.containers).toEqual([
          expect.objectContaining({ name: 'manager', image: 'guestbook:v1.0' }),
        ]);
        expect(deployment?.status?.availableReplicas).toBe(1);
      },
      2 * MINUTES,
    );
  },
);
