/**
 * docs/getting-started.md, run as written: every line of its ```sh blocks, in order, in one
 * shell in a fresh empty directory, with tsop as a reader gets it — `npm pack` of this checkout
 * published to a registry on loopback (verdaccio, which proxies every other package) — and a
 * fuller control plane (kube-controller-manager, kube-scheduler, a kwok node) as the reader's
 * cluster, so `npm run deploy` and `helm install` roll out a manager pod on the kwok node.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { locateAssets } from '../../runtime/envtest/index.js';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { tsopRegistry, type TsopRegistry } from '../e2e/package-registry.js';
import { runLine, stopBackground, workspace, type Workspace } from './tutorial/assemble.js';
import { printedBlocks, shellBlocks, TSOP } from './tutorial/chapters.js';

const MINUTES = 60_000;
const page = readFileSync(join(TSOP, 'docs/getting-started.md'), 'utf8');

/** helm as the Helm chart test finds it: $HELM, scripts/helm.sh's cache, or a helm v3 on PATH. */
function helmDir(): string {
  if (process.env['HELM']) return dirname(process.env['HELM']);
  const cached = spawnSync('bash', [join(TSOP, 'scripts/helm.sh'), '--print'], { encoding: 'utf8' });
  if (cached.status === 0) return dirname(cached.stdout.trim());
  const onPath = spawnSync('helm', ['version', '--short'], { encoding: 'utf8' });
  if (onPath.status === 0 && onPath.stdout.startsWith('v3.')) return '';
  throw new Error(
    'the getting-started page runs helm: build it with `bash scripts/helm.sh` (.ci/run does), or set HELM to a helm v3 binary',
  );
}

describeWithControlPlane(
  'docs/getting-started.md, every command in a fresh directory',
  { shared: true, controllers: true, nodes: 1 },
  (env) => {
    let registry: TsopRegistry;
    let root = '';
    let ws: Workspace;

    beforeAll(async () => {
      registry = await tsopRegistry();
      root = mkdtempSync(join(tmpdir(), 'tsop-getting-started-'));
      const kubectl = locateAssets()?.kubectl;
      if (!kubectl) throw new Error('kubectl not found next to kube-apiserver: run `bash scripts/control-plane.sh`');
      const helm = helmDir();
      ws = workspace(root, {
        kubectl,
        fromCheckout: false,
        paths: helm ? [helm] : [],
        base: registry.env,
        env: { KUBECONFIG: env.cp.kubeconfigPath },
      });
      // The first file to ask also waits for the run's package store to fill (package-registry-broker.ts).
    }, 10 * MINUTES);

    afterAll(async () => {
      if (ws) await stopBackground(ws);
      await registry?.stop();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    it('has the steps the page promises', () => {
      const lines = shellBlocks(page);
      for (const step of [
        'npx tsop@latest init',
        'npx tsop create api',
        'npm test',
        'npm run run',
        'npm run deploy',
        'npx tsop edit --plugins helm/v2-alpha',
        'helm install',
      ]) {
        expect(
          lines.some((l) => l.startsWith(step)),
          step,
        ).toBe(true);
      }
      // What each step prints is shown after its commands.
      expect(printedBlocks(page).length).toBe([...page.matchAll(/^```sh$/gm)].length);
    });

    it(
      'runs every command of the page, in order, each exiting 0',
      async () => {
        const printed: string[] = [];
        for (const line of shellBlocks(page)) {
          const result = await runLine(ws, line);
          printed.push(result.output);
          const background = ws.background.map((b) => b.output()).join('\n');
          expect(result.exitCode, `\`${line}\` failed:\n${result.output}\n${background}`).toBe(0);
        }
        // The reader's project: tsop from the registry, tests run, a chart written.
        const project = join(root, 'memcached-operator');
        const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
          packages: Record<string, { resolved?: string }>;
        };
        expect(lock.packages['node_modules/tsop']?.resolved).toMatch(new RegExp(`^${registry.url}`));
        expect(existsSync(join(project, 'dist/chart/Chart.yaml'))).toBe(true);
        // And they printed what the page says they print.
        for (const pattern of printedBlocks(page).flat())
          expect(printed.join('\n'), `the page says the commands print ${pattern}`).toMatch(pattern);
      },
      30 * MINUTES,
    );
  },
);
