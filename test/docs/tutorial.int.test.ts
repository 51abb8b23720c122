/**
 * The CronJob tutorial, built and tested chapter by chapter as a reader goes through it: each
 * chapter's commands run in the reader's shell (docs/tutorial/project/<chapter>/commands.sh),
 * its files are copied in, then the project's own `npm test` (manifests, type-check, its tests on
 * real control planes: the fuller one where the controller's Jobs must run) must pass before the
 * next chapter starts. Chapter 6 runs the operator against a cluster: a fuller control plane
 * started here, where the sample CronJob's Job is created on schedule by the running operator.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { locateAssets } from '../../runtime/envtest/index.js';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { copyFiles, projectState, runLine, stopBackground, workspace, type Workspace } from './tutorial/assemble.js';
import { readChapters } from './tutorial/chapters.js';

const MINUTES = 60_000;

describeWithControlPlane('the CronJob tutorial, chapter by chapter', { controllers: true, nodes: 1 }, (env) => {
  let root: string;
  let ws: Workspace;
  /** The project's sources when its tests last passed. */
  let tested: string | undefined;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'tsop-tutorial-'));
    const kubectl = locateAssets()?.kubectl;
    if (!kubectl) throw new Error('kubectl not found next to kube-apiserver: run `bash scripts/control-plane.sh`');
    ws = workspace(root, { kubectl, fromCheckout: true, env: { KUBECONFIG: env.cp.kubeconfigPath } });
  }, 5 * MINUTES);

  afterAll(async () => {
    if (ws) await stopBackground(ws);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  for (const chapter of readChapters()) {
    it(
      `${chapter.name}: its commands run, and the project it leaves compiles and passes its tests`,
      async () => {
        const printed: string[] = [];
        for (const line of chapter.commands) {
          const result = await runLine(ws, line);
          printed.push(result.output);
          const background = ws.background.map((b) => `--- ${b.line}\n${b.output()}`).join('\n');
          expect(result.exitCode, `${chapter.name}: \`${line}\` failed:\n${result.output}\n${background}`).toBe(0);
        }
        for (const pattern of chapter.output)
          expect(printed.join('\n'), `${chapter.name}: output.txt says the commands print ${pattern}`).toMatch(pattern);
        copyFiles(ws, chapter);
        const background = await stopBackground(ws);
        // A chapter that changed no source (only ran the operator, or built an installer) leaves
        // the state the previous chapter's tests passed on; that state is not tested twice.
        const state = projectState(ws.cwd);
        if (state === tested) return;
        const test = await runLine(ws, 'npm test');
        expect(test.exitCode, `${chapter.name}: npm test failed:\n${test.output}\n${background.join('\n')}`).toBe(0);
        expect(test.output).toMatch(/Tests\s+\d+ passed/);
        expect(test.output).not.toMatch(/skipped|failed/i);
        tested = projectState(ws.cwd); // as tested: npm test regenerates the manifests first
      },
      15 * MINUTES,
    );
  }
});
