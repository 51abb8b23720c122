/**
 * Code blocks as the book shows them: a fence's `[path]` (```` ```ts [src/x.ts] ```` or
 * `<<< @/file{ts} [src/x.ts]`) is drawn above the block outside code groups too, where VitePress
 * shows it only as a group's tab; and `// #region` / `// #endregion` lines, which mark the
 * pieces a page includes, are left out when a whole file is shown.
 */
import type { MarkdownRenderer } from 'vitepress';

const REGION_LINE = /^[ \t]*(?:\/\/|#)[ \t]*#(?:end)?region\b.*(?:\n|$)/gm;

/** Whether the fence at `idx` stands inside a `::: code-group` (which shows titles as tabs). */
function inCodeGroup(tokens: Array<{ type: string }>, idx: number): boolean {
  for (let i = idx - 1; i >= 0; i--) {
    const type = tokens[i]?.type;
    if (type === 'container_code-group_close') return false;
    if (type === 'container_code-group_open') return true;
  }
  return false;
}

export function codeTitles(md: MarkdownRenderer): void {
  const highlight = md.options.highlight;
  if (highlight) md.options.highlight = (code, lang, attrs) => highlight(code.replace(REGION_LINE, ''), lang, attrs);
  const fence = md.renderer.rules.fence;
  if (!fence) return;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    // Read before rendering: VitePress's own fence rule strips the title from the info string.
    const title = /\[([^\]]+)\]/.exec(tokens[idx]?.info ?? '')?.[1];
    const html = fence(tokens, idx, options, env, self);
    if (!title || inCodeGroup(tokens, idx)) return html;
    return `<div class="code-titled"><div class="code-title">${md.utils.escapeHtml(title)}</div>${html}</div>`;
  };
}
