/**
 * The console of `tsop dev` in headless Chromium (Debian's package, driven by playwright-core
 * from the book's dependencies, as test/docs/site.int.test.ts does), on one session of a project
 * made with the built CLI: a deploy-image controller that owns a Deployment and a validator that
 * refuses a size over 10. A sample created with kubectl shows as a reconcile with its trigger and
 * its API calls within 2 s; an edit shows as a new version with its diff and the reconcile it
 * caused; a refused edit shows the field path; a save of the controller shows a restart marker;
 * and the page logs no console error throughout. With $TSOP_CONSOLE_SCREENSHOTS set, each panel
 * is photographed there (the book's guide uses them).
 */
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateAssets } from '../../runtime/envtest/index.js';
import { skipReason } from '../../runtime/testing/control-plane.js';
import { processesMentioning, Session } from './dev-session.js';
import { linkNodeModules } from '../scaffold/node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';
const MINUTES = 60_000;
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SHOTS = process.env['TSOP_CONSOLE_SCREENSHOTS'];

// The few playwright-core shapes used here (it lives in docs/node_modules; tsop's type-check has no DOM types).
interface Page {
  goto(url: string): Promise<unknown>;
  on(event: 'console', fn: (m: { type(): string; text(): string }) => void): void;
  on(event: 'pageerror', fn: (e: Error) => void): void;
  evaluate<T>(expression: string): Promise<T>;
  waitForFunction(expression: string, arg?: unknown, opts?: { timeout?: number; polling?: number }): Promise<unknown>;
  click(selector: string): Promise<void>;
  screenshot(opts: { path: string; fullPage?: boolean }): Promise<unknown>;
}
interface Browser {
  newPage(opts: { viewport: { width: number; height: number } }): Promise<Page>;
  close(): Promise<void>;
}
interface Chromium {
  launch(opts: {
    executablePath: string;
    headless: boolean;
    args: string[];
    env: Record<string, string | undefined>;
  }): Promise<Browser>;
}

const root = mkdtempSync(join(tmpdir(), 'tsop-console-'));
const dir = join(root, 'memcached-operator');
const sessionTmp = join(root, 'tmp');

function tsop(...args: string[]): void {
  execFileSync(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], {
    cwd: dir,
    stdio: 'pipe',
    env: { ...process.env, NO_COLOR: '1' },
  });
}

const sample = (size: number): string =>
  `apiVersion: cache.example.com/v1alpha1\nkind: Memcached\nmetadata:\n  name: web\n  namespace: default\nspec:\n  size: ${size}\n`;

/** The text of every element matching a data-testid, as the page shows it. */
const texts = (testid: string): string =>
  `[...document.querySelectorAll('[data-testid=${testid}]')].map((e) => e.textContent)`;
/** The memcached controller's card shows its workers (as `busy/workers`), which only /debug/controllers tells. */
const workersShown = `${texts('controller')}.some((t) => t.startsWith('memcached') && /\\d+\\/[1-9]\\d*workers busy/.test(t))`;

// Chromium (Debian's package) and playwright-core (the book's dependencies, which CI installs with
// `npm run docs:build` before the tests): in CI their absence fails the test; elsewhere it is
// skipped with what to install.
const CI = process.env['CI'] === 'true' || process.env['CI'] === '1';
const missingBrowser = !existsSync(CHROMIUM)
  ? `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`
  : !existsSync(join(TSOP, 'docs/node_modules/playwright-core'))
    ? 'no playwright-core in docs/node_modules (npm ci --prefix docs, or npm run docs:build)'
    : undefined;
if (missingBrowser && CI) throw new Error(`the console's browser test cannot run: ${missingBrowser}`);
if (missingBrowser) console.warn(`skipping the console's browser test: ${missingBrowser}`);

describe.skipIf(skipReason() !== undefined || missingBrowser !== undefined)(
  'the tsop dev console in headless Chromium',
  () => {
    let session: Session;
    let kubeconfig = '';
    let browser: Browser | undefined;
    let page: Page;
    const problems: string[] = [];
    const kubectl = (args: string[], input?: string): { ok: boolean; out: string } => {
      try {
        const out = execFileSync(locateAssets()?.kubectl ?? 'kubectl', args, {
          env: { ...process.env, KUBECONFIG: kubeconfig },
          stdio: 'pipe',
          ...(input === undefined ? {} : { input }),
        });
        return { ok: true, out: out.toString('utf8') };
      } catch (error) {
        return { ok: false, out: (error as { stderr?: Buffer }).stderr?.toString('utf8') ?? String(error) };
      }
    };
    const shot = async (name: string): Promise<void> => {
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`) });
    };
    /** Waits until `expression` is true in the page (polled every 50 ms). */
    const until = (expression: string, timeout = 30_000): Promise<unknown> =>
      page.waitForFunction(expression, undefined, { timeout, polling: 50 });

    beforeAll(async () => {
      mkdirSync(dir);
      mkdirSync(sessionTmp);
      tsop('init', '--domain', 'example.com', '--skip-install');
      linkNodeModules(dir);
      tsop(
        'create',
        'api',
        '--group',
        'cache',
        '--version',
        'v1alpha1',
        '--kind',
        'Memcached',
        '--plugins',
        'deploy-image/v1-alpha',
        '--image',
        'memcached:1.6.26-alpine',
      );
      tsop(
        'create',
        'webhook',
        '--group',
        'cache',
        '--version',
        'v1alpha1',
        '--kind',
        'Memcached',
        '--programmatic-validation',
      );
      const webhook = join(dir, 'src/webhooks/v1alpha1/memcached-webhook.ts');
      const rule =
        "  // e.g. if ((obj.spec?.size ?? 0) > 10) errors.push(new FieldError('spec.size', 'must be at most 10', obj.spec?.size));";
      const text = readFileSync(webhook, 'utf8');
      if (!text.includes(rule)) throw new Error(`${webhook} has no example rule to turn on`);
      writeFileSync(webhook, text.replace(rule, rule.replace('// e.g. ', '')));
      tsop('manifests');
      session = new Session(
        spawn(process.execPath, [join(TSOP, 'bin/tsop.js'), 'dev', '--controllers=false', '--samples=false'], {
          cwd: dir,
          // The image the controller deploys (config/manager/manager.yaml sets it in a cluster).
          env: { ...process.env, TMPDIR: sessionTmp, NO_COLOR: '1', MEMCACHED_IMAGE: 'memcached:1.6.26-alpine' },
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      const exported = await session.waitFor(/^tsop +\| .*export KUBECONFIG=(\S+)/, 0, 3 * MINUTES);
      kubeconfig = /export KUBECONFIG=(\S+)/.exec(exported.line)![1]!;
      const url = /console: (http:\/\/127\.0\.0\.1:\d+)/.exec(
        (await session.waitFor(/^tsop +\| console: http/)).line,
      )![1]!;
      await session.waitFor(/^tsop +\| operator ready/, 0, 3 * MINUTES);
      const { chromium } = createRequire(join(TSOP, 'docs/package.json'))('playwright-core') as { chromium: Chromium };
      // Chromium's own temp files go under `root`, removed at the end (see the book's browser test).
      const browserTmp = join(root, 'browser-tmp');
      mkdirSync(browserTmp);
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: FLAGS,
        env: { ...process.env, TMPDIR: browserTmp },
      });
      page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      await page.goto(url);
      await until("document.getElementById('conn').textContent === 'live'");
    }, 6 * MINUTES);

    afterAll(async () => {
      await browser?.close();
      if (session) {
        expect(await session.stop()).toBe(130); // 128 + SIGINT, as a shell reports Ctrl-C
        expect(processesMentioning(sessionTmp)).toEqual([]);
      }
      rmSync(root, { recursive: true, force: true });
    }, MINUTES);

    /** What the session's own `kubectl get --raw <collection>?watch=1` processes watch. */
    const consoleWatches = async (): Promise<string[]> => {
      // Stopping a watch is a signal: give it a moment to be gone.
      for (let i = 0; ; i++) {
        const watches = processesMentioning('?watch=1').flatMap((pid) => {
          try {
            const ppid = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1];
            const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
            return Number(ppid) === session.child.pid ? args.filter((a) => a.includes('?watch=1')) : [];
          } catch {
            return [];
          }
        });
        if (watches.length === 0 || i >= 20) return watches.sort();
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    it("shows a created object's reconcile with its trigger and its API calls within 2 s", async () => {
      const created = kubectl(['create', '-f', '-'], sample(1));
      const at = performance.now();
      expect(created.ok, created.out).toBe(true);
      await until(`${texts('trigger')}.includes('Memcached default/web added')`, 5_000);
      const rowAfter = performance.now() - at;
      await page.click('[data-testid=reconcile]:has([data-testid=trigger]:text-is("Memcached default/web added"))');
      await until(`${texts('api-call')}.some((t) => t.includes('k8s.Create') && t.includes('deployments'))`, 5_000);
      const callsAfter = performance.now() - at;
      console.log(
        `console: reconcile row ${Math.round(rowAfter)} ms, its API calls ${Math.round(callsAfter)} ms after kubectl create returned`,
      );
      expect(callsAfter).toBeLessThan(2_000);
      // The objects came from the operator's informers: the console's own watch of them has
      // stopped (a second stream of every change, otherwise), and it watches no Events.
      expect(await consoleWatches()).toEqual([]);
      await shot('console-reconciles');
      await page.click('[data-tab=controllers]');
      // Workers come from the operator's /debug/controllers alone (the spans give rates), on the
      // ephemeral port it logged.
      await until(workersShown);
      await shot('console-controllers');
    });

    it('shows an edit as a new version with its diff and the reconcile it caused', async () => {
      const patched = kubectl(['patch', 'memcached', 'web', '--type=merge', '-p', '{"spec":{"size":2}}']);
      expect(patched.ok, patched.out).toBe(true);
      await page.click('[data-tab=objects]');
      await until(`${texts('object')}.includes('default/web')`);
      await page.click('[data-testid=object]:text-is("default/web")');
      await until(`${texts('diff')}.some((t) => t.includes('spec.size') && t.includes('1→2'))`, 10_000);
      await until(
        `[...document.querySelectorAll('[data-testid=version]')].some((v) => v.textContent.includes('spec.size') && v.querySelector('[data-testid=caused]'))`,
        10_000,
      );
      // The Deployment it owns is listed, and the status the controller wrote names its reconcile.
      await until(`document.getElementById('obj-detail').textContent.includes('Deployment default/web')`, 10_000);
      await until(`${texts('written-by')}.some((t) => t.includes('memcached reconcile'))`, 10_000);
      // The open object's Events are read from the cluster, and again while it stays open.
      const uid = kubectl(['get', 'memcached', 'web', '-o', 'jsonpath={.metadata.uid}']).out.trim();
      const recorded = kubectl(
        ['create', '-f', '-'],
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: 'web.by-hand', namespace: 'default' },
          involvedObject: {
            apiVersion: 'cache.example.com/v1alpha1',
            kind: 'Memcached',
            namespace: 'default',
            name: 'web',
            uid,
          },
          type: 'Normal',
          reason: 'ByHand',
          message: 'recorded beside the console',
          source: { component: 'console-test' },
        }),
      );
      expect(recorded.ok, recorded.out).toBe(true);
      await until(
        `${texts('event')}.some((t) => t.includes('ByHand') && t.includes('recorded beside the console'))`,
        10_000,
      );
      await shot('console-objects');
      await page.click('[data-testid=version]:has([data-testid=diff]:has-text("spec.size")) [data-testid=caused]');
      await until(
        `document.querySelector('[data-tab=timeline]').classList.contains('on') && ${texts('trigger')}.includes('Memcached default/web updated')`,
      );
    });

    it('shows a refused edit with the field path the validator named', async () => {
      const refused = kubectl(['patch', 'memcached', 'web', '--type=merge', '-p', '{"spec":{"size":20}}']);
      expect(refused.ok).toBe(false);
      expect(refused.out).toContain('spec.size');
      await page.click('[data-tab=webhooks]');
      await until(
        `${texts('denial-cause')}.some((t) => t.startsWith('spec.size: ') && t.includes('must be at most 10'))`,
        5_000,
      );
      await shot('console-webhooks');
    });

    it(
      'shows a save of the controller as a restart marker',
      async () => {
        const from = session.lines.length;
        appendFileSync(join(dir, 'src/controllers/memcached-controller.ts'), '\n// saved once more\n');
        await session.waitFor(/^tsop +\| operator ready \d+ ms after the change/, from, 2 * MINUTES);
        await page.click('[data-tab=timeline]');
        await until(
          `${texts('restart')}.some((t) => t.includes('saved: operator restarted') && t.includes('ready in'))`,
          5_000,
        );
        await shot('console-restart');
        // The restarted operator bound a new health-probe port; the controllers' state is read there.
        await page.click('[data-tab=controllers]');
        await until(workersShown);
      },
      3 * MINUTES,
    );

    it('logged no console error and threw nothing', () => {
      expect(problems).toEqual([]);
    });
  },
);
