/**
 * What the browser test measures in a page, as expressions Chromium evaluates (strings: tsop's
 * type-check has no DOM types). Each returns a list of problems, one readable line each.
 */

/**
 * The page as laid out at the current width: nothing in the content column wider than the column
 * or scrolling sideways inside it (a clipped container is reported once, not its children), no
 * sideways scroll of the page itself, no `#region` line in a code block, no "node_modules" in the
 * text, and the sidebar (when the
 * page has one) holding a link to this page that no collapsed group hides.
 */
export const LAYOUT_PROBE = `(() => {
  const problems = [];
  const name = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const cls = [...el.classList].filter((c) => !c.startsWith('vp-') || c === 'vp-code-group').slice(0, 2);
    if (cls.length) s += '.' + cls.join('.');
    const text = (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 60);
    return text ? s + ' "' + text + '"' : s;
  };
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1)
    problems.push('the page scrolls sideways: ' + root.scrollWidth + ' px in a ' + root.clientWidth + ' px window');
  const column = document.querySelector('.vp-doc');
  if (column) {
    const col = column.getBoundingClientRect();
    const visit = (el) => {
      for (const child of el.children) {
        if (child.classList.contains('header-anchor')) continue;
        const r = child.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        if (r.right > col.right + 1) {
          problems.push(name(child) + ' is ' + Math.round(r.width) + ' px wide, past the ' + Math.round(col.width) + ' px column');
          continue;
        }
        const overflow = getComputedStyle(child).overflowX;
        if (overflow !== 'visible' && child.scrollWidth > child.clientWidth + 1) {
          problems.push(name(child) + ' scrolls sideways: ' + child.scrollWidth + ' px in ' + child.clientWidth);
          continue;
        }
        visit(child);
      }
    };
    visit(column);
  }
  for (const pre of document.querySelectorAll('.vp-doc pre'))
    if (/(\\/\\/|#)\\s*#(end)?region\\b/.test(pre.textContent || '')) problems.push(name(pre) + ' shows a #region line');
  const text = document.querySelector('#VPContent')?.innerText ?? '';
  const at = text.indexOf('node_modules');
  if (at >= 0) problems.push('the text names node_modules: "' + text.slice(Math.max(0, at - 50), at + 40).replace(/\\s+/g, ' ') + '"');
  const sidebar = document.querySelector('.VPSidebar');
  if (sidebar) {
    const here = location.pathname.replace(/\\.html$/, '').replace(/\\/index$/, '/');
    const links = [...sidebar.querySelectorAll('a[href]')].filter((a) => a.pathname.replace(/\\.html$/, '').replace(/\\/index$/, '/') === here);
    if (links.length === 0) problems.push('the sidebar has no link to this page');
    else if (links.every((a) => a.closest('.VPSidebarItem')?.parentElement?.closest('.VPSidebarItem.collapsed')))
      problems.push('the sidebar hides this page in a collapsed group');
  }
  return problems;
})()`;

/**
 * An SVG opened on its own: every <text> whose middle lies in a shape must fit inside the
 * smallest such shape (its bounding box), and every text must lie inside the picture.
 */
export const SVG_PROBE = `(() => {
  const svg = document.documentElement;
  const problems = [];
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const view = svg.getBoundingClientRect();
  const shapes = [...svg.querySelectorAll('rect, circle, ellipse, polygon')].map((s) => s.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
  for (const t of svg.querySelectorAll('text')) {
    const r = t.getBoundingClientRect();
    if (r.width === 0) continue;
    const label = '"' + (t.textContent || '').trim().slice(0, 50) + '"';
    if (!inside(r, view)) { problems.push(label + ' runs outside the picture'); continue; }
    const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    const around = shapes.filter((s) => x >= s.left && x <= s.right && y >= s.top && y <= s.bottom).sort((a, b) => a.width * a.height - b.width * b.height)[0];
    if (around && !inside(r, around))
      problems.push(label + ' (' + Math.round(r.width) + ' px) spills out of its ' + Math.round(around.width) + ' px box');
  }
  return problems;
})()`;

/** The SVG pictures a page shows as images (served from the book itself). */
export const SVG_IMAGES = `[...document.querySelectorAll('#VPContent img')].map((i) => i.src).filter((s) => new URL(s).pathname.endsWith('.svg'))`;

/** The code blocks of a page that show a file (any language but a shell's) without its name above them. */
export const UNTITLED_CODE = `[...document.querySelectorAll('.vp-doc div[class*="language-"]')]
  .filter((b) => !/language-(sh|bash|shell|console|text)\\b/.test(b.className) && !b.closest('.vp-code-group'))
  .filter((b) => !b.parentElement?.classList.contains('code-titled') || !b.parentElement.querySelector(':scope > .code-title')?.textContent)
  .map((b) => (b.textContent || '').trim().slice(0, 60))`;
