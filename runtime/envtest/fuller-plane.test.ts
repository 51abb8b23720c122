import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { controllerManagerArgs, schedulerArgs } from './components.js';
import { ControlPlaneOptionsError, startControlPlane } from './control-plane.js';
import { FAKE_NODE_ANNOTATION, kwokConfig, ONE_SHOT_RUN_MS } from './kwok-stages.js';
import { fakeNode, kwokArgs } from './kwok.js';

interface Stage {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: {
    resourceRef: { apiGroup: string; kind: string };
    selector?: { matchExpressions?: { key: string; operator: string; values?: string[] }[] };
    delay?: { durationMilliseconds?: number };
    next: { statusTemplate?: string; delete?: boolean };
  };
}

const stages = (): Stage[] => parseAllDocuments(kwokConfig()).map((d) => d.toJS() as Stage);

describe('kwok stages', () => {
  it('are five kwok.x-k8s.io/v1alpha1 Stage documents: node ready, pod running, pod ready again, one-shot pod succeeded, pod deleted', () => {
    const all = stages();
    expect(all.map((s) => [s.apiVersion, s.kind, s.spec.resourceRef.kind, s.metadata.name])).toEqual([
      ['kwok.x-k8s.io/v1alpha1', 'Stage', 'Node', 'tsop-node-ready'],
      ['kwok.x-k8s.io/v1alpha1', 'Stage', 'Pod', 'tsop-pod-running'],
      ['kwok.x-k8s.io/v1alpha1', 'Stage', 'Pod', 'tsop-pod-ready-again'],
      ['kwok.x-k8s.io/v1alpha1', 'Stage', 'Pod', 'tsop-pod-succeeded'],
      ['kwok.x-k8s.io/v1alpha1', 'Stage', 'Pod', 'tsop-pod-deleted'],
    ]);
  });

  it('finish only one-shot pods (restartPolicy Never or OnFailure), after a delay', () => {
    const succeeded = stages().find((s) => s.metadata.name === 'tsop-pod-succeeded')!;
    expect(succeeded.spec.selector?.matchExpressions).toContainEqual({
      key: '.spec.restartPolicy',
      operator: 'In',
      values: ['Never', 'OnFailure'],
    });
    expect(succeeded.spec.delay?.durationMilliseconds).toBe(ONE_SHOT_RUN_MS);
    expect(succeeded.spec.next.statusTemplate).toContain('phase: Succeeded');
  });

  it('start only scheduled pods', () => {
    const running = stages().find((s) => s.metadata.name === 'tsop-pod-running')!;
    expect(running.spec.selector?.matchExpressions).toContainEqual({ key: '.spec.nodeName', operator: 'Exists' });
  });
});

describe('fuller plane command lines', () => {
  const files = { dir: '/cp/x', kubeconfigPath: '/cp/kubeconfig' };

  it('run kube-controller-manager and kube-scheduler without leader election on loopback', () => {
    const kcm = controllerManagerArgs(
      { ...files, serviceAccountKeyFile: '/cp/sa.key', rootCaFile: '/cp/ca.crt' },
      4242,
    );
    for (const args of [kcm, schedulerArgs(files, 4242)]) {
      expect(args).toEqual(
        expect.arrayContaining([
          '--kubeconfig=/cp/kubeconfig',
          '--leader-elect=false',
          '--bind-address=127.0.0.1',
          '--secure-port=4242',
        ]),
      );
    }
    expect(kcm).toEqual(
      expect.arrayContaining([
        '--controllers=*',
        '--service-account-private-key-file=/cp/sa.key',
        '--root-ca-file=/cp/ca.crt',
      ]),
    );
  });

  it('point kwok at the annotated nodes only, with its own config', () => {
    const args = kwokArgs(files, '/cp/kwok/kwok.yaml', 4343);
    expect(args).toContain(
      `--manage-nodes-with-annotation-selector=${FAKE_NODE_ANNOTATION.key}=${FAKE_NODE_ANNOTATION.value}`,
    );
    expect(args).toContain('--config=/cp/kwok/kwok.yaml');
    expect(fakeNode(3)).toMatchObject({
      metadata: { name: 'kwok-node-3', annotations: { [FAKE_NODE_ANNOTATION.key]: FAKE_NODE_ANNOTATION.value } },
      spec: { podCIDR: '10.244.3.0/24' },
    });
  });
});

describe('fuller plane options', () => {
  it('refuse nodes without controllers and impossible node counts before starting anything', async () => {
    await expect(startControlPlane({ nodes: 1 })).rejects.toThrow(ControlPlaneOptionsError);
    await expect(startControlPlane({ controllers: true, nodes: -1 })).rejects.toThrow(
      'nodes: -1 is not a whole number from 0 to 100; pass e.g. { controllers: true, nodes: 1 }',
    );
    await expect(startControlPlane({ controllers: true, nodes: 1.5 })).rejects.toThrow(ControlPlaneOptionsError);
  });
});
