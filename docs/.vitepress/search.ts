/**
 * The local search's index. Every heading is a search result of its own, and TypeDoc gives each
 * parameter, return value and "Defined in" of the runtime's API a heading (h4–h6): a word like
 * "finalizer" then finds a dozen parameters before the guide about finalizers. On the runtime
 * reference's pages only the modules and their members (h1–h3) are results; what sits under a
 * member is found as that member's text.
 */
import type { DefaultTheme, MarkdownRenderer } from 'vitepress';

const MEMBER_DETAIL = /<h([4-6])([^>]*)>([\s\S]*?)<\/h\1>/g;

export const search: DefaultTheme.Config['search'] = {
  provider: 'local',
  options: {
    _render(src: string, env: { relativePath: string; frontmatter?: { search?: boolean } }, md: MarkdownRenderer) {
      const html = md.render(src, env);
      if (env.frontmatter?.search === false) return '';
      if (!env.relativePath.startsWith('reference/runtime/')) return html;
      return html.replace(MEMBER_DETAIL, '<p>$3</p>');
    },
  },
};
