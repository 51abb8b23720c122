/**
 * The tsop book's site: VitePress with its default theme (local search, dark mode, a sidebar per
 * section). The runtime API pages are TypeDoc's; everything else is Markdown in docs/.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type DefaultTheme } from 'vitepress';
import { codeTitles } from './markdown/code-titles';
import { search } from './search';

const docs = fileURLToPath(new URL('..', import.meta.url));

/** The pages of a generated folder, as sidebar links (the folder is filled before the build). */
function folder(dir: string, base: string): DefaultTheme.SidebarItem[] {
  let files: string[] = [];
  try {
    files = readdirSync(`${docs}/${dir}`)
      .filter((f) => f.endsWith('.md') && f !== 'index.md')
      .sort();
  } catch {
    // not generated yet (docs:dev without the runtime API)
  }
  return files.map((f) => ({ text: f.replace(/\.md$/, ''), link: `${base}${f.replace(/\.md$/, '')}` }));
}

const tutorial: DefaultTheme.SidebarItem[] = [
  {
    text: 'Tutorial: the CronJob operator',
    items: [
      { text: 'Overview', link: '/tutorial/' },
      { text: '1. The project and its API', link: '/tutorial/01-project' },
      { text: '2. Designing the API', link: '/tutorial/02-api' },
      { text: '3. The controller', link: '/tutorial/03-controller' },
      { text: '4. Testing on the fuller plane', link: '/tutorial/04-testing' },
      { text: '5. Webhooks', link: '/tutorial/05-webhooks' },
      { text: '6. Running and deploying', link: '/tutorial/06-deploying' },
      { text: '7. A v2 API and conversion', link: '/tutorial/07-multiversion' },
    ],
  },
];

const guides: DefaultTheme.SidebarItem[] = [
  {
    text: 'Concepts',
    items: [
      { text: 'How tsop fits together', link: '/concepts/' },
      { text: 'The project layout', link: '/concepts/project-layout' },
      { text: 'The event path', link: '/concepts/event-path' },
      { text: 'The two planes', link: '/concepts/planes' },
    ],
  },
  {
    text: 'Guides',
    items: [
      { text: 'The reconcile loop', link: '/guides/reconcile' },
      { text: 'Owned objects and finalizers', link: '/guides/owned-objects' },
      { text: 'Conditions and events', link: '/guides/conditions-events' },
      { text: 'Leader election and graceful stop', link: '/guides/leader-election' },
      { text: 'Sharding across replicas', link: '/guides/sharding' },
      { text: 'Metrics and tracing', link: '/guides/observability' },
      { text: 'The dev loop: tsop dev', link: '/guides/dev' },
      { text: 'The dev console', link: '/guides/dev-console' },
      { text: 'Manifests in CI', link: '/guides/manifests-in-ci' },
      { text: 'Breaking-change reports', link: '/guides/breaking-changes' },
      { text: 'Webhooks and certificates', link: '/guides/webhooks' },
      { text: 'Deploying', link: '/guides/deploying' },
      { text: 'Upgrades: alpha update', link: '/guides/upgrades' },
      { text: 'Control-plane binaries', link: '/guides/envtest' },
      { text: 'OLM bundles and scorecard', link: '/guides/olm' },
    ],
  },
];

const overview: DefaultTheme.SidebarItem = { text: 'Reference', items: [{ text: 'Overview', link: '/reference/' }] };

const reference: DefaultTheme.SidebarItem[] = [
  overview,
  {
    text: 'Command line',
    link: '/reference/cli/',
    collapsed: false,
    items: folder('reference/cli', '/reference/cli/').map((i) => ({
      ...i,
      text: `tsop ${i.text?.replace(/-/g, ' ')}`,
    })),
  },
  {
    text: 'Markers',
    link: '/reference/markers/',
    collapsed: false,
    items: folder('reference/markers', '/reference/markers/'),
  },
  { text: 'Runtime API', link: '/reference/runtime/' },
];

/** On the runtime's pages the sidebar is the runtime's modules alone, open, so the page is in sight. */
const runtimeReference: DefaultTheme.SidebarItem[] = [
  overview,
  {
    text: 'Runtime API',
    link: '/reference/runtime/',
    items: folder('reference/runtime', '/reference/runtime/'),
  },
];

export default defineConfig({
  title: 'tsop',
  description:
    'The TypeScript operator toolkit: scaffold Kubernetes operators, generate CRDs and RBAC from decorated classes, reconcile with controller-runtime semantics, test on a real control plane.',
  lang: 'en-GB',
  cleanUrls: true,
  lastUpdated: false,
  // Generated include fragments are not pages.
  srcExclude: ['.generated/**', 'scripts/**', 'README.md', 'node_modules/**'],
  head: [['link', { rel: 'icon', href: '/logo.svg', type: 'image/svg+xml' }]],
  markdown: { theme: { light: 'github-light', dark: 'github-dark' }, config: codeTitles },
  themeConfig: {
    logo: '/logo.svg',
    search,
    outline: { level: [2, 3] },
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Tutorial', link: '/tutorial/' },
      { text: 'Guides', link: '/concepts/' },
      { text: 'From kubebuilder', link: '/migrating/' },
      { text: 'Reference', link: '/reference/' },
    ],
    sidebar: {
      '/tutorial/': tutorial,
      '/concepts/': guides,
      '/guides/': guides,
      '/migrating/': [
        {
          text: 'Migrating from kubebuilder',
          items: [
            { text: 'Overview', link: '/migrating/' },
            { text: 'Markers → decorators', link: '/migrating/markers' },
            { text: 'Go types → TypeScript types', link: '/migrating/types' },
            { text: 'controller-runtime → tsop runtime', link: '/migrating/runtime' },
            { text: 'Importing existing APIs', link: '/migrating/import' },
          ],
        },
      ],
      '/reference/runtime/': runtimeReference,
      '/reference/': reference,
      '/contributing': [{ text: 'Contributing', items: [{ text: 'Working on the book', link: '/contributing' }] }],
    },
    footer: { message: 'Apache-2.0 licensed', copyright: 'tsop, the TypeScript operator toolkit' },
  },
});
