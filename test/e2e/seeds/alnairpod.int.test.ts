/**
 * Seed "AlnairPod": a kind whose spec reuses core `V1Container[]` and `V1Volume[]`; the
 * controller creates a Pod from them owned by the AlnairPod, filters events with predicates,
 * caches only Pods carrying its label (`cache.byObject` added to main.ts by the author), and
 * writes status only through the status subresource. Run as a real process against a control
 * plane with a scheduler and a kwok node; reconciles are counted from the operator's log.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithControlPlane } from '../../../runtime/testing/control-plane.js';
import {
  FULLER_PLANE,
  getJson,
  kubectl,
  MINUTES,
  scaffoldSeed,
  SECONDS,
  startOperator,
  waitUntil,
  type Operator,
  type SeedProject,
} from './seed-project.js';

const OWNER_LABEL = 'alnair.centaurusinfra.io/alnairpod';

interface ManagedField {
  manager: string;
  operation: string;
  subresource?: string;
}
interface AlnairJson {
  metadata: { uid: string; generation: number; managedFields: ManagedField[] };
  status?: { podName?: string; phase?: string };
}
interface PodJson {
  metadata: {
    name: string;
    labels?: Record<string, string>;
    ownerReferences?: { kind: string; name: string; uid: string; controller?: boolean }[];
  };
  spec: {
    containers: {
      name: string;
      image: string;
      command?: string[];
      volumeMounts?: { name: string; mountPath: string }[];
    }[];
    volumes?: { name: string; emptyDir?: object }[];
  };
  status: { phase: string };
}

const trainer = `apiVersion: alnair.centaurusinfra.io/v1alpha1
kind: AlnairPod
metadata:
  name: trainer
  namespace: default
spec:
  containers:
  - name: worker
    image: busybox
    command: ["sleep", "3600"]
    volumeMounts:
    - name: scratch
      mountPath: /scratch
  volumes:
  - name: scratch
    emptyDir: {}
`;

describeWithControlPlane(
  'seed AlnairPod: core types in the spec, owned pods, predicates, a label-scoped cache',
  { shared: true, ...FULLER_PLANE },
  (env) => {
    let project: SeedProject;
    let operator: Operator;
    const kc = () => env.cp.kubeconfigPath;
    const reconciles = () => operator.logLines('reconciling AlnairPod').filter((l) => l['name'] === 'trainer').length;
    const alnair = async () =>
      (await getJson<AlnairJson>(kc(), ['alnairpod', 'trainer', '-n', 'default', '--show-managed-fields']))!;

    beforeAll(async () => {
      project = await scaffoldSeed({
        name: 'alnair-pod',
        init: ['--domain', 'centaurusinfra.io', '--repo', 'alnair-pod'],
        apis: [['--group', 'alnair', '--version', 'v1alpha1', '--kind', 'AlnairPod', '--resource', '--controller']],
        fixture: 'alnairpod',
        insertions: [
          {
            file: 'src/main.ts',
            after: '  kubeConfig,',
            insert:
              '  // Only the Pods this operator creates are listed, watched and cached.\n  cache: { byObject: [AlnairPodReconciler.podCache] },',
          },
        ],
      });
      const install = await kubectl(kc(), ['apply', '--server-side', '-f', join(project.dir, 'config/crd/bases')]);
      expect(install.exitCode, install.all).toBe(0);
      await env.cp.waitForCRDs(['alnairpods.alnair.centaurusinfra.io']);
      operator = await startOperator(project, kc());
    }, 5 * MINUTES);

    afterAll(async () => {
      if (operator) expect(await operator.stop()).toBe(0);
    });

    it('embeds the upstream Container and Volume schemas in the CRD', () => {
      const crd = readFileSync(join(project.dir, 'config/crd/bases/alnair.centaurusinfra.io_alnairpods.yaml'), 'utf8');
      for (const field of [
        'livenessProbe:',
        'securityContext:',
        'volumeMounts:',
        'persistentVolumeClaim:',
        'emptyDir:',
        'configMap:',
      ])
        expect(crd).toContain(field);
      expect(crd).toMatch(/required:\n\s+- containers\n/);
    });

    it(
      'creates one Pod from the spec, owned by the AlnairPod, and reports its phase through the status subresource',
      async () => {
        const created = await kubectl(kc(), ['apply', '--server-side', '-f', '-'], trainer);
        expect(created.exitCode, created.all).toBe(0);
        await waitUntil(
          'the AlnairPod reports a Running pod',
          async () => (await alnair()).status?.phase === 'Running',
          60 * SECONDS,
        );
        const owner = await alnair();
        expect(owner.status?.podName).toBe('trainer-pod');

        const pod = (await getJson<PodJson>(kc(), ['pod', 'trainer-pod', '-n', 'default']))!;
        expect(pod.metadata.labels?.[OWNER_LABEL]).toBe('trainer');
        expect(pod.metadata.ownerReferences).toEqual([
          expect.objectContaining({ kind: 'AlnairPod', name: 'trainer', uid: owner.metadata.uid, controller: true }),
        ]);
        expect(pod.spec.containers).toEqual([
          expect.objectContaining({
            name: 'worker',
            image: 'busybox',
            command: ['sleep', '3600'],
            volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }],
          }),
        ]);
        expect(pod.spec.volumes).toEqual(expect.arrayContaining([{ name: 'scratch', emptyDir: {} }]));

        // The operator never wrote the object itself, only its status: spec untouched, generation 1.
        expect(owner.metadata.generation).toBe(1);
        const operatorWrites = owner.metadata.managedFields.filter((f) => f.operation === 'Update');
        expect(operatorWrites.length).toBeGreaterThan(0);
        expect(operatorWrites.every((f) => f.subresource === 'status')).toBe(true);
      },
      2 * MINUTES,
    );

    it('is not reconciled again by its own status writes', async () => {
      const settled = reconciles();
      // Its first sight, the Pod's creation, and each phase the Pod went through (Pending, Running).
      expect(settled).toBeGreaterThanOrEqual(1);
      expect(settled).toBeLessThanOrEqual(4);
      await new Promise((r) => setTimeout(r, 4 * SECONDS));
      expect(reconciles()).toBe(settled);
    });

    it(
      'caches and watches only Pods carrying its label',
      async () => {
        const owner = await alnair();
        const before = reconciles();
        // A Pod that names the AlnairPod as its controller but lacks the label: with a cache of every
        // Pod, its creation and its phase changes would reach the AlnairPod through Owns().
        const stray = {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'stray',
            namespace: 'default',
            ownerReferences: [
              {
                apiVersion: 'alnair.centaurusinfra.io/v1alpha1',
                kind: 'AlnairPod',
                name: 'trainer',
                uid: owner.metadata.uid,
                controller: true,
              },
            ],
          },
          spec: { containers: [{ name: 'c', image: 'busybox' }] },
        };
        const created = await kubectl(kc(), ['create', '-f', '-'], JSON.stringify(stray));
        expect(created.exitCode, created.all).toBe(0);
        await waitUntil(
          'the stray pod runs',
          async () => (await getJson<PodJson>(kc(), ['pod', 'stray', '-n', 'default']))?.status.phase === 'Running',
          60 * SECONDS,
        );
        await new Promise((r) => setTimeout(r, 2 * SECONDS));
        expect(reconciles()).toBe(before);

        // With the label it enters the cache, and its arrival is an event for its owner.
        const labelled = await kubectl(kc(), ['label', 'pod', 'stray', '-n', 'default', `${OWNER_LABEL}=trainer`]);
        expect(labelled.exitCode, labelled.all).toBe(0);
        await waitUntil('the labelled pod reaches the controller', () => reconciles() > before, 20 * SECONDS);
      },
      2 * MINUTES,
    );
  },
);
