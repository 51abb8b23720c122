/**
 * The built book in a real browser: `npm run docs:build` into a temp dir (or the build of this
 * tree that $TSOP_DOCS_SITE names: .ci/run builds the book once, before the tests), served on loopback,
 * every page opened in headless Chromium (Debian's package, driven by playwright-core from the
 * book's own dependencies), a few tabs at a time. No page may log a console error or throw; every
 * internal link must reach a built page, and every #anchor an element on it. Every page must fit
 * at 1280 and at 768 px (nothing wider than the content column or scrolling sideways in it, no
 * "node_modules" in the text, the sidebar showing the page: site/probes.ts), and every SVG picture
 * keep its text inside its boxes. The local search must find a marker by name and rank a guide
 * above the API members that share its word; a fixed set of pages is photographed at both widths
 * into the test's temp dir (copied to $TSOP_DOCS_SCREENSHOTS when set, to keep them).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAYOUT_PROBE, SVG_IMAGES, SVG_PROBE, UNTITLED_CODE } from './site/probes.js';
import { TSOP } from './tutorial/chapters.js';

const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';
const CI = process.env['CI'] === 'true' || process.env['CI'] === '1';
const MINUTES = 60_000;
/** The two widths every page must fit: a laptop, and a tablet held upright. */
const WIDE = { width: 1280, height: 860 };
const NARROW = { width: 768, height: 1000 };
/** The pages photographed at both widths (CI keeps them): one of each kind a reader meets first. */
const SHOTS: Array<[path: string, name: string]> = [
  ['/', 'home'],
  ['/getting-started', 'getting-started'],
  ['/tutorial/03-controller', 'tutorial-controller'],
  ['/migrating/', 'migrating'],
  ['/migrating/runtime', 'migrating-runtime'],
  ['/concepts/', 'architecture'],
  ['/reference/runtime/', 'runtime-reference'],
];
/** Closed network: without these Chromium tries to reach Google's services. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

if (!existsSync(CHROMIUM) && CI)
  throw new Error(`no Chromium at ${CHROMIUM}: .ci/run installs Debian's chromium package (apt-get install chromium)`);
if (!existsSync(CHROMIUM))
  console.warn(
    `skipping the book's browser test: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`,
  );

// The few playwright-core shapes used here: it lives in docs/node_modules, which tsop's own
// type-check does not need.
interface Page {
  goto(url: string, opts?: { waitUntil?: 'load' | 'networkidle' }): Promise<unknown>;
  waitForFunction(expression: string): Promise<unknown>;
  on(event: 'console', fn: (m: { type(): string; text(): string }) => void): void;
  on(event: 'pageerror', fn: (e: Error) => void): void;
  /** A JavaScript expression evaluated in the page (a string: tsop's type-check has no DOM types). */
  evaluate<T>(expression: string): Promise<T>;
  click(selector: string): Promise<void>;
  fill(selector: string, value: string): Promise<void>;
  waitForSelector(selector: string, opts?: { timeout?: number }): Promise<unknown>;
  screenshot(opts: { path: string; fullPage?: boolean }): Promise<unknown>;
  setViewportSize(size: { width: number; height: number }): Promise<void>;
  close(): Promise<void>;
}
interface Context {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}
interface Chromium {
  launchPersistentContext(
    dir: string,
    opts: {
      executablePath: string;
      headless: boolean;
      args: string[];
      viewport: { width: number; height: number };
      env: Record<string, string | undefined>;
    },
  ): Promise<Context>;
}

const MIME: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Opens a page and waits until it is whole. `networkidle` alone can come while a long page (a
 * runtime module's) is still being parsed on a busy machine: its last headings not in the DOM yet.
 */
async function open(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForFunction("document.readyState === 'complete'");
}

/** The file a clean URL names in the built site (`/a/b` → a/b.html, `/a/` → a/index.html), if any. */
function builtFile(site: string, pathname: string): string | undefined {
  const p = decodeURIComponent(pathname).replace(/^\/+/, '');
  for (const candidate of [p, `${p}.html`, join(p, 'index.html')]) {
    const full = join(site, candidate);
    if (existsSync(full) && statSync(full).isFile()) return full;
  }
  return undefined;
}

describe.skipIf(!existsSync(CHROMIUM))('the built book in headless Chromium', () => {
  let work = '';
  let site = '';
  let shots = '';
  let server: Server;
  let base = '';
  let context: Context;
  /** Every page: its URL path, the ids on it, the internal links on it, and what went wrong while it loaded. */
  const visited = new Map<string, { ids: Set<string>; links: string[]; errors: string[]; layout: string[] }>();
  /** The SVG pictures the pages show. */
  const pictures = new Set<string>();

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'tsop-docs-site-'));
    shots = join(work, 'screenshots');
    mkdirSync(shots);
    site = process.env['TSOP_DOCS_SITE'] ?? join(work, 'site');
    if (!process.env['TSOP_DOCS_SITE'])
      execFileSync('npm', ['run', '--silent', 'docs:build', '--', '--outDir', site], {
        cwd: TSOP,
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 64 * 1024 * 1024,
      });
    if (!existsSync(join(site, 'index.html'))) throw new Error(`no built book in ${site}: run npm run docs:build`);
    server = createServer((req, res) => {
      const file = builtFile(site, new URL(req.url ?? '/', 'http://x').pathname);
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/html' }).end(readFileSync(join(site, '404.html')));
        return;
      }
      res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const { chromium } = createRequire(join(TSOP, 'docs/package.json'))('playwright-core') as { chromium: Chromium };
    // Chromium's own temp files go under `work`, removed below: one it left in TMPDIR once, on a
    // busy machine, though it was closed as here.
    mkdirSync(join(work, 'tmp'));
    context = await chromium.launchPersistentContext(join(work, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      viewport: WIDE,
      env: { ...process.env, TMPDIR: join(work, 'tmp') },
    });
  }, 10 * MINUTES);

  afterAll(async () => {
    await context?.close();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const pagesOf = (dir: string): string[] =>
    readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.html') && f !== '404.html')
      .map(
        (f) =>
          `/${f
            .replace(/\\/g, '/')
            .replace(/(^|\/)index\.html$/, '$1')
            .replace(/\.html$/, '')}`,
      )
      .sort();

  it(
    'opens every page without a console error, and every internal link and anchor resolves',
    async () => {
      const pages = pagesOf(site);
      expect(pages.length).toBeGreaterThan(50);
      for (const path of [
        '/',
        '/getting-started',
        '/tutorial/07-multiversion',
        '/reference/cli/create-api',
        '/reference/markers/validation',
        '/reference/runtime/client',
        '/migrating/markers',
      ])
        expect(pages).toContain(path);
      // A few tabs at once: each page waits for the network to settle, mostly idle time.
      const queue = [...pages];
      const tab = async () => {
        const page = await context.newPage();
        let errors: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(`console: ${m.text()}`);
        });
        page.on('pageerror', (e) => errors.push(`exception: ${e.message}`));
        for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
          errors = [];
          await page.setViewportSize(WIDE);
          await open(page, `${base}${path}`);
          const found = await page.evaluate<{ ids: string[]; links: string[] }>(
            "({ ids: [...document.querySelectorAll('[id]')].map((e) => e.id), links: [...document.querySelectorAll('a[href]')].map((a) => a.href) })",
          );
          const layout: string[] = [];
          for (const size of [WIDE, NARROW]) {
            await page.setViewportSize(size);
            await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
            for (const p of await page.evaluate<string[]>(LAYOUT_PROBE)) layout.push(`${size.width} px: ${p}`);
          }
          for (const svg of await page.evaluate<string[]>(SVG_IMAGES)) pictures.add(svg);
          visited.set(path, {
            ids: new Set(found.ids),
            links: found.links.filter((l) => l.startsWith(base)),
            errors,
            layout,
          });
        }
        await page.close();
      };
      await Promise.all([tab(), tab(), tab()]);

      const problems: string[] = [];
      for (const [path, { links, errors: pageErrors }] of visited) {
        for (const e of pageErrors) problems.push(`${path}: ${e}`);
        for (const link of links) {
          const url = new URL(link);
          if (!builtFile(site, url.pathname)) {
            problems.push(`${path}: links to ${url.pathname}, which is not a page`);
            continue;
          }
          if (url.hash.length > 1) {
            const target = url.pathname.replace(/\.html$/, '').replace(/\/index$/, '/');
            const ids = visited.get(target)?.ids ?? visited.get(target.replace(/\/$/, ''))?.ids;
            const anchor = decodeURIComponent(url.hash.slice(1));
            if (ids && !ids.has(anchor))
              problems.push(`${path}: links to ${url.pathname}#${anchor}, which has no such anchor`);
          }
        }
      }
      expect(problems).toEqual([]);
    },
    15 * MINUTES,
  );

  it('fits every page in its column at 1280 and 768 px: no wide element, no node_modules, the sidebar at the page', () => {
    expect(visited.size).toBeGreaterThan(50);
    const problems = [...visited].flatMap(([path, { layout }]) => layout.map((p) => `${path} at ${p}`));
    expect(problems).toEqual([]);
  });

  it('names the file above every code block of the tutorial and Getting started that shows one', async () => {
    const page = await context.newPage();
    const untitled: string[] = [];
    for (const path of pagesOf(site).filter((p) => p.startsWith('/tutorial/') || p === '/getting-started')) {
      await page.goto(`${base}${path}`, { waitUntil: 'load' });
      for (const code of await page.evaluate<string[]>(UNTITLED_CODE)) untitled.push(`${path}: "${code}"`);
    }
    await page.close();
    expect(untitled).toEqual([]);
  });

  it('draws every picture with its text inside its boxes', async () => {
    expect(pictures.size).toBeGreaterThan(0);
    const page = await context.newPage();
    const problems: string[] = [];
    for (const svg of [...pictures].sort()) {
      await page.goto(svg, { waitUntil: 'load' });
      for (const p of await page.evaluate<string[]>(SVG_PROBE)) problems.push(`${new URL(svg).pathname}: ${p}`);
    }
    await page.close();
    expect(problems).toEqual([]);
  });

  it('finds a marker by name in the local search', async () => {
    const page = await context.newPage();
    await open(page, `${base}/`);
    await page.click('#local-search button');
    await page.fill('.VPLocalSearchBox input', 'XValidation');
    await page.waitForSelector('.VPLocalSearchBox .result', { timeout: 15_000 });
    const results = await page.evaluate<Array<{ href: string; text: string }>>(
      "[...document.querySelectorAll('.VPLocalSearchBox .result')].map((a) => ({ href: a.getAttribute('href') ?? '', text: a.textContent ?? '' }))",
    );
    expect(
      results.some(
        (r) => r.href.includes('/reference/markers/validation#xvalidation') && r.text.includes('XValidation'),
      ),
    ).toBe(true);
    await page.close();
  });

  it('ranks the guide above the runtime API for a word both use', async () => {
    const page = await context.newPage();
    await open(page, `${base}/`);
    await page.click('#local-search button');
    await page.fill('.VPLocalSearchBox input', 'finalizer');
    await page.waitForSelector('.VPLocalSearchBox .result', { timeout: 15_000 });
    const hrefs = await page.evaluate<string[]>(
      "[...document.querySelectorAll('.VPLocalSearchBox .result')].map((a) => a.getAttribute('href') ?? '')",
    );
    const guide = hrefs.findIndex((h) => h.includes('/guides/owned-objects'));
    const api = hrefs.findIndex((h) => h.includes('/reference/runtime/'));
    expect(guide, hrefs.slice(0, 8).join('\n')).toBeGreaterThanOrEqual(0);
    expect(guide, hrefs.slice(0, 8).join('\n')).toBeLessThan(api === -1 ? Number.POSITIVE_INFINITY : api);
    await page.close();
  });

  it('looks like a product: a fixed set of pages at 1280 and 768 px, and the home page dark', async () => {
    const page = await context.newPage();
    const shoot = async (path: string, name: string, size = WIDE) => {
      await page.setViewportSize(size);
      await open(page, `${base}${path}`);
      await page.screenshot({ path: join(shots, name), fullPage: false });
    };
    for (const [path, name] of SHOTS) {
      await shoot(path, `${name}-1280.png`);
      await shoot(path, `${name}-768.png`, NARROW);
    }
    // Dark mode is the theme's switch; it is remembered in localStorage.
    await page.setViewportSize(WIDE);
    await page.click('.VPNavBarAppearance button');
    expect(await page.evaluate<boolean>("document.documentElement.classList.contains('dark')")).toBe(true);
    await shoot('/', 'home-dark-1280.png');
    await shoot('/concepts/event-path', 'event-path-dark-1280.png');
    await page.close();
    const taken = readdirSync(shots).sort();
    expect(taken).toEqual(
      [
        ...SHOTS.flatMap(([, name]) => [`${name}-1280.png`, `${name}-768.png`]),
        'home-dark-1280.png',
        'event-path-dark-1280.png',
      ].sort(),
    );
    for (const f of taken) expect(statSync(join(shots, f)).size, f).toBeGreaterThan(20_000);
    const keep = process.env['TSOP_DOCS_SCREENSHOTS'];
    if (keep) {
      mkdirSync(keep, { recursive: true });
      for (const f of taken) copyFileSync(join(shots, f), join(keep, f));
      console.log(`screenshots of the book: ${relative(process.cwd(), keep) || keep}`);
    }
  });
});
