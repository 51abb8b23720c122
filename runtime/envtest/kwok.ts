/**
 * Fake nodes from kwok: the harness creates N Node objects carrying kwok's annotation, and one
 * kwok process plays the kubelet for them (node and pod status from the stages in
 * kwok-stages.ts, node Leases as heartbeats). No container ever runs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startComponent } from './components.js';
import { send, waitFor, type TlsIdentity } from './http.js';
import { FAKE_NODE_ANNOTATION, kwokConfig } from './kwok-stages.js';
import type { CleanupScope, ManagedProcess } from './processes.js';

export interface KwokOptions {
  binary: string;
  dir: string;
  kubeconfigPath: string;
  logFile: string;
  startTimeoutMs: number;
}

/** The pod network: node i gets 10.244.i.0/24 (kwok hands out pod IPs from a node's podCIDR). */
export const POD_NETWORK = '10.244.0.0/16';
/** The address every fake node reports (only used as pods' hostIP). */
export const FAKE_NODE_IP = '10.96.0.2';

export function kwokArgs(
  options: Pick<KwokOptions, 'kubeconfigPath'>,
  configPath: string,
  serverPort: number,
): string[] {
  return [
    `--kubeconfig=${options.kubeconfigPath}`,
    `--config=${configPath}`,
    `--manage-nodes-with-annotation-selector=${FAKE_NODE_ANNOTATION.key}=${FAKE_NODE_ANNOTATION.value}`,
    `--server-address=127.0.0.1:${serverPort}`,
    `--cidr=${POD_NETWORK}`,
    `--node-ip=${FAKE_NODE_IP}`,
  ];
}

export async function startKwok(scope: CleanupScope, options: KwokOptions): Promise<ManagedProcess> {
  const configPath = join(options.dir, 'kwok.yaml');
  return startComponent(scope, {
    name: 'kwok',
    binary: options.binary,
    dir: options.dir,
    logFile: options.logFile,
    startTimeoutMs: options.startTimeoutMs,
    scheme: 'http',
    args: (port) => {
      writeFileSync(configPath, kwokConfig());
      return kwokArgs(options, configPath, port);
    },
    // kwok also reads ~/.kwok/kwok.yaml when it exists: a private HOME keeps a user's file out.
    env: { ...process.env, HOME: options.dir },
  });
}

export const fakeNodeName = (index: number): string => `kwok-node-${index}`;

/** A Node object kwok will manage. */
export function fakeNode(index: number): object {
  const name = fakeNodeName(index);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { [FAKE_NODE_ANNOTATION.key]: FAKE_NODE_ANNOTATION.value, 'node.alpha.kubernetes.io/ttl': '0' },
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        type: 'kwok',
      },
    },
    spec: { podCIDR: `10.244.${index}.0/24`, podCIDRs: [`10.244.${index}.0/24`] },
  };
}

/** Creates the nodes and waits until every one reports Ready (kwok has taken them over). */
export async function createFakeNodes(
  server: string,
  tls: TlsIdentity,
  count: number,
  timeoutMs: number,
): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await send(`${server}/api/v1/nodes`, { method: 'POST', body: fakeNode(i), tls });
    if (res.status >= 300) throw new Error(`creating node ${fakeNodeName(i)} failed (${res.status}): ${res.body}`);
    names.push(fakeNodeName(i));
  }
  for (const name of names) {
    await waitFor(
      `fake node ${name} to be Ready`,
      timeoutMs,
      async () => {
        const res = await send(`${server}/api/v1/nodes/${name}`, { tls });
        const node = JSON.parse(res.body) as { status?: { conditions?: { type: string; status: string }[] } };
        return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
      },
      200,
    );
  }
  return names;
}
