/**
 * `tsop dev` on the fuller plane, for the At operator of the seeds (cnat: a one-shot Pod at a
 * scheduled time). Its controller may create Pods, so the session says it starts the fuller plane
 * by itself (kube-controller-manager, kube-scheduler, a kwok node); the At from config/samples
 * gets its Pod scheduled on the kwok node, the Pod runs and completes, and the At is DONE. A
 * session with --controllers=false starts etcd and kube-apiserver alone. Ctrl-C leaves nothing.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipReason } from '../../runtime/testing/control-plane.js';
import { processesMentioning, Session } from './dev-session.js';
import { getJson, MINUTES, scaffoldSeed, TSOP, waitUntil, type SeedProject } from './seeds/seed-project.js';

interface AtJson {
  status?: { phase?: string };
}
interface PodJson {
  spec: { nodeName?: string };
  status: { phase: string };
  metadata: { ownerReferences?: { kind: string; name: string }[] };
}

const sample = (schedule: string): string => `apiVersion: cnat.programming-kubernetes.info/v1alpha1
kind: At
metadata:
  name: at-sample
  namespace: default
spec:
  schedule: "${schedule}"
  command: "echo hello"
`;

const reason = skipReason({ controllers: true });

describe.skipIf(reason !== undefined)('tsop dev on the fuller plane (the At operator)', () => {
  let project: SeedProject;
  const sessionTmp = mkdtempSync(join(tmpdir(), 'tsop-dev-fuller-'));
  const sessions: Session[] = [];
  const dev = (...args: string[]): Session => {
    const s = new Session(
      spawn(process.execPath, [join(TSOP, 'bin/tsop.js'), 'dev', ...args], {
        cwd: project.dir,
        env: { ...process.env, TMPDIR: sessionTmp, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    sessions.push(s);
    return s;
  };

  beforeAll(async () => {
    project = await scaffoldSeed({
      name: 'cnat',
      init: ['--domain', 'programming-kubernetes.info'],
      apis: [['--group', 'cnat', '--version', 'v1alpha1', '--kind', 'At', '--resource', '--controller']],
      fixture: 'at',
    });
    mkdirSync(join(project.dir, 'config', 'samples'), { recursive: true });
    // Due at once: the Pod is made as soon as the operator sees the At.
    writeFileSync(
      join(project.dir, 'config', 'samples', 'cnat_v1alpha1_at.yaml'),
      sample(new Date().toISOString().replace(/\.\d+Z$/, 'Z')),
    );
  }, 5 * MINUTES);

  afterAll(async () => {
    for (const s of sessions) await s.stop();
    rmSync(sessionTmp, { recursive: true, force: true });
  });

  it(
    "starts the fuller plane by itself, saying why; the At's Pod is scheduled on a kwok node, runs and completes; the At is DONE",
    async () => {
      const session = dev();
      await session.waitFor(
        /^tsop +\| the controllers create pods \(config\/rbac\/role\.yaml\): starting the fuller plane/,
        0,
        3 * MINUTES,
      );
      const up = await session.waitFor(
        /^tsop +\| fuller control plane up: etcd, kube-apiserver, kube-controller-manager, kube-scheduler, 1 kwok node at https:\/\/127\.0\.0\.1:\d+ .*export KUBECONFIG=(\S+)/,
        0,
        3 * MINUTES,
      );
      const kubeconfig = /export KUBECONFIG=(\S+)/.exec(up.line)![1]!;
      await session.waitFor(
        /^tsop +\| applied at\.cnat\.programming-kubernetes\.info\/at-sample serverside-applied/,
        0,
        3 * MINUTES,
      );
      await session.waitFor(
        /^tsop +\| status: fuller control plane up · 1 CRD · 1 object · operator running/,
        0,
        3 * MINUTES,
      );

      await waitUntil(
        'the At is DONE',
        async () => (await getJson<AtJson>(kubeconfig, ['at', 'at-sample', '-n', 'default']))?.status?.phase === 'DONE',
        3 * MINUTES,
      );
      const pod = await getJson<PodJson>(kubeconfig, ['pod', 'at-sample-pod', '-n', 'default']);
      expect(pod?.status.phase).toBe('Succeeded');
      expect(pod?.spec.nodeName).toBe('kwok-node-0');
      expect(pod?.metadata.ownerReferences?.map((o) => `${o.kind}/${o.name}`)).toEqual(['At/at-sample']);

      const planeDir = join(kubeconfig, '..');
      expect(await session.stop()).toBe(130);
      expect(session.lines.at(-1)).toMatch(/^tsop +\| stopped: operator, control plane, temp files removed$/);
      expect(processesMentioning(planeDir)).toEqual([]);
    },
    10 * MINUTES,
  );

  it(
    'with --controllers=false starts etcd and kube-apiserver alone',
    async () => {
      const session = dev('--controllers=false', '--samples=false');
      await session.waitFor(/^tsop +\| control plane up: etcd \+ kube-apiserver at /, 0, 3 * MINUTES);
      await session.waitFor(/^tsop +\| operator ready \d+ ms after its start/, 0, 3 * MINUTES);
      expect(session.lines.filter((l) => /^tsop +\| (fuller control plane|the controllers create)/.test(l))).toEqual(
        [],
      );
      expect(await session.stop()).toBe(130);
    },
    5 * MINUTES,
  );

  it(
    'refuses --nodes with --controllers=false in one line, starting nothing',
    async () => {
      const session = dev('--controllers=false', '--nodes', '2');
      expect(await session.exited).toBe(2);
      expect(session.lines.filter((l) => /^tsop: /.test(l))).toEqual([
        'tsop: dev: --nodes 2 needs the fuller plane (a scheduler to put pods on them), and --controllers=false turns it off; pass one of them',
      ]);
    },
    2 * MINUTES,
  );
});
