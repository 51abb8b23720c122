import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type V1Pod,
} from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { apiServerOutage, describeWithControlPlane, skipReason } from '../testing/control-plane.js';
import { waitFor } from './http.js';
import { startControlPlane } from './index.js';

const FULL = {
  controllers: true,
  nodes: 2,
  crdDirectoryPaths: [fileURLToPath(new URL('./testdata/', import.meta.url))],
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids of the processes whose command line mentions `dir`, with their program name. */
function processesUsing(dir: string): { pid: number; name: string }[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes(dir) && !/\bsh -c\b/.test(line))
    .map((line) => {
      const [pid, program] = line.trim().split(/\s+/);
      return { pid: Number(pid), name: (program ?? '').split('/').pop() ?? '' };
    });
}

const isReady = (pod: V1Pod): boolean =>
  (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

describeWithControlPlane('fuller control plane (controller-manager, scheduler, kwok nodes)', FULL, (env) => {
  const core = (): CoreV1Api => env.cp.kubeConfig.makeApiClient(CoreV1Api);
  const apps = (): AppsV1Api => env.cp.kubeConfig.makeApiClient(AppsV1Api);

  it('has Ready fake nodes when it starts', async () => {
    expect(env.cp.nodeNames).toEqual(['kwok-node-0', 'kwok-node-1']);
    const nodes = await core().listNode();
    for (const node of nodes.items) {
      expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    }
  });

  it('runs a Deployment: ReplicaSet, scheduled Running pods with IPs, Available', async () => {
    await apps().createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
          },
        },
      },
    });
    await waitFor(
      'Deployment web to be Available with 3 ready replicas',
      60_000,
      async () => {
        const d = await apps().readNamespacedDeployment({ namespace: 'default', name: 'web' });
        return (
          d.status?.readyReplicas === 3 &&
          (d.status.conditions ?? []).some((c) => c.type === 'Available' && c.status === 'True')
        );
      },
      250,
    );
    const pods = (await core().listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })).items;
    expect(pods).toHaveLength(3);
    for (const pod of pods) {
      expect(pod.metadata?.ownerReferences?.[0]?.kind).toBe('ReplicaSet');
      expect(env.cp.nodeNames).toContain(pod.spec?.nodeName);
      expect(pod.status?.phase).toBe('Running');
      expect(isReady(pod)).toBe(true);
      expect(pod.status?.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
    }
  });

  it('makes a running pod Ready again after the node controller marked it not Ready (a node that missed its heartbeats)', async () => {
    const [pod] = (await core().listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })).items;
    const name = pod!.metadata!.name!;
    // What kube-controller-manager writes to every pod of a node whose Lease went stale.
    const conditions = (pod!.status?.conditions ?? []).map((c) =>
      c.type === 'Ready' ? { ...c, status: 'False', reason: 'NodeNotReady' } : c,
    );
    await core().patchNamespacedPodStatus(
      { namespace: 'default', name, body: { status: { conditions } } },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    await waitFor(
      `pod ${name} to be Ready again`,
      30_000,
      async () => isReady(await core().readNamespacedPod({ namespace: 'default', name })),
      250,
    );
  });

  it('finishes a one-shot pod (restartPolicy Never): Running, then Succeeded', async () => {
    await core().createNamespacedPod({
      namespace: 'default',
      body: {
        metadata: { name: 'once' },
        spec: { restartPolicy: 'Never', containers: [{ name: 'job', image: 'busybox', command: ['true'] }] },
      },
    });
    await waitFor(
      'pod once to succeed',
      30_000,
      async () =>
        (await core().readNamespacedPod({ namespace: 'default', name: 'once' })).status?.phase === 'Succeeded',
    );
    const pod = await core().readNamespacedPod({ namespace: 'default', name: 'once' });
    expect(pod.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(pod.status?.podIP).toBeDefined(); // it ran (got its IP) before it finished
  });

  it('completes a Job: its pod succeeds and the Job reports Complete', async () => {
    const batch = env.cp.kubeConfig.makeApiClient(BatchV1Api);
    await batch.createNamespacedJob({
      namespace: 'default',
      body: {
        metadata: { name: 'batch' },
        spec: {
          template: {
            spec: { restartPolicy: 'OnFailure', containers: [{ name: 'work', image: 'busybox', command: ['true'] }] },
          },
        },
      },
    });
    await waitFor(
      'Job batch to complete',
      60_000,
      async () => {
        const job = await batch.readNamespacedJob({ namespace: 'default', name: 'batch' });
        return (
          job.status?.succeeded === 1 &&
          (job.status.conditions ?? []).some((c) => c.type === 'Complete' && c.status === 'True')
        );
      },
      250,
    );
  });

  it('removes a deleted pod (kwok plays the kubelet confirming it)', async () => {
    await core().createNamespacedPod({
      namespace: 'default',
      body: { metadata: { name: 'doomed' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    });
    await waitFor(
      'pod doomed to run',
      30_000,
      async () =>
        (await core().readNamespacedPod({ namespace: 'default', name: 'doomed' })).status?.phase === 'Running',
    );
    await core().deleteNamespacedPod({ namespace: 'default', name: 'doomed' });
    await waitFor('pod doomed to be gone', 30_000, async () => {
      const list = await core().listNamespacedPod({ namespace: 'default', fieldSelector: 'metadata.name=doomed' });
      return list.items.length === 0;
    });
  });

  it('garbage-collects a dependent when its owner is deleted', async () => {
    const owner = await core().createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'owner' } },
    });
    await core().createNamespacedConfigMap({
      namespace: 'default',
      body: {
        metadata: {
          name: 'dependent',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! }],
        },
      },
    });
    await core().deleteNamespacedConfigMap({ namespace: 'default', name: 'owner' });
    await waitFor(
      'the dependent ConfigMap to be collected',
      60_000,
      async () => {
        const list = await core().listNamespacedConfigMap({
          namespace: 'default',
          fieldSelector: 'metadata.name=dependent',
        });
        return list.items.length === 0;
      },
      250,
    );
  });

  it('garbage-collects what a custom resource owns (its CRD installed at start)', async () => {
    const custom = env.cp.kubeConfig.makeApiClient(CustomObjectsApi);
    const ref = { group: 'test.tsop.dev', version: 'v1', namespace: 'default', plural: 'widgets' };
    const widget = (await custom.createNamespacedCustomObject({
      ...ref,
      body: { apiVersion: 'test.tsop.dev/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } },
    })) as { metadata: { uid: string } };
    await core().createNamespacedConfigMap({
      namespace: 'default',
      body: {
        metadata: {
          name: 'owned-by-widget',
          ownerReferences: [{ apiVersion: 'test.tsop.dev/v1', kind: 'Widget', name: 'w', uid: widget.metadata.uid }],
        },
      },
    });
    await custom.deleteNamespacedCustomObject({ ...ref, name: 'w' });
    await waitFor(
      'the ConfigMap owned by the Widget to be collected',
      20_000,
      async () => {
        const list = await core().listNamespacedConfigMap({
          namespace: 'default',
          fieldSelector: 'metadata.name=owned-by-widget',
        });
        return list.items.length === 0;
      },
      250,
    );
  });

  it('keeps working after an API server outage: the components reconnect', async () => {
    const dir = env.cp.kubeconfigPath.replace(/\/kubeconfig$/, '');
    const components = processesUsing(dir).filter((p) => /^kube-(controller-manager|scheduler)$|^kwok$/.test(p.name));
    expect(components).toHaveLength(3);
    await apiServerOutage(env.cp, 3_000);
    expect(components.filter((p) => !alive(p.pid))).toEqual([]);
    await apps().createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'after-outage' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'after-outage' } },
          template: {
            metadata: { labels: { app: 'after-outage' } },
            spec: { containers: [{ name: 'c', image: 'busybox' }] },
          },
        },
      },
    });
    await waitFor(
      'Deployment after-outage to be Available',
      60_000,
      async () => {
        const d = await apps().readNamespacedDeployment({ namespace: 'default', name: 'after-outage' });
        return d.status?.readyReplicas === 1;
      },
      250,
    );
  });

  it('deletes a namespace with everything in it', async () => {
    await core().createNamespace({ body: { metadata: { name: 'temporary' } } });
    await core().createNamespacedConfigMap({ namespace: 'temporary', body: { metadata: { name: 'inside' } } });
    await core().createNamespacedPod({
      namespace: 'temporary',
      body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    });
    await core().deleteNamespace({ name: 'temporary' });
    await waitFor(
      'namespace temporary to be gone',
      60_000,
      async () => {
        const list = await core().listNamespace({ fieldSelector: 'metadata.name=temporary' });
        return list.items.length === 0;
      },
      250,
    );
  });
});

describe.skipIf(skipReason(FULL) !== undefined)('fuller control plane lifecycle', () => {
  it('stops every process it started (by pid) and removes its directory', async () => {
    const cp = await startControlPlane({ controllers: true, nodes: 1 });
    const dir = cp.kubeconfigPath.replace(/\/kubeconfig$/, '');
    const processes = processesUsing(dir);
    expect(processes.map((p) => p.name).sort()).toEqual([
      'etcd',
      'kube-apiserver',
      'kube-controller-manager',
      'kube-scheduler',
      'kwok',
    ]);
    await cp.stop();
    expect(processes.filter((p) => alive(p.pid))).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });

  it('leaves nothing behind when the test process is killed (SIGKILL): the watchdog covers the new processes', async () => {
    const script = fileURLToPath(new URL('./testdata/start-and-wait.ts', import.meta.url));
    const register = fileURLToPath(new URL('../testing/register.mjs', import.meta.url));
    const child = spawn(process.execPath, ['--import', register, script, 'controllers'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const dir = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const match = /READY (\S+)/.exec(chunk.toString());
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
    });
    const processes = processesUsing(dir);
    expect(processes).toHaveLength(5);
    child.kill('SIGKILL');
    // The watchdog polls once a second.
    await waitFor(
      'the watchdog to clean up',
      15_000,
      async () => !processes.some((p) => alive(p.pid)) && !existsSync(dir),
      200,
    ).catch(() => undefined);
    expect({ alive: processes.filter((p) => alive(p.pid)), dirExists: existsSync(dir) }).toEqual({
      alive: [],
      dirExists: false,
    });
  });

  it('refuses nodes without controllers, saying what to pass', async () => {
    await expect(startControlPlane({ nodes: 2 })).rejects.toThrow(
      'nodes: 2 needs controllers: true (without a scheduler no pod reaches a node); pass { controllers: true, nodes: 2 }',
    );
  });
});
