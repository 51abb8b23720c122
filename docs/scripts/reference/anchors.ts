/**
 * TypeDoc's Markdown links to headings by anchors of its own counting (`#statusdetails-1`), which
 * are not always the ids VitePress gives the same headings, and sometimes name a type that has
 * no heading at all (one the module uses but does not export). This pass reads the headings of
 * every page as VitePress will slug them, keeps the links that resolve, points a link with a
 * counter suffix at the heading without it when that one exists, and turns the rest into plain
 * code, so the site has no dead anchors.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** VitePress's heading ids (its slugify, from @mdit-vue/shared), with -1, -2 … for repeats. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036F]/g, '')
    .replace(/[\u0000-\u001f]/g, '')
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();
}

/** The ids of a Markdown page's headings, as rendered, and of its HTML anchors (`<a id="x"></a>`). */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>([...markdown.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1] ?? ''));
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    const m = !inFence && /^#{1,6}\s+(.*?)\s*(?:\{#([\w-]+)\})?$/.exec(line);
    if (!m) continue;
    if (m[2]) {
      ids.add(m[2]);
      continue;
    }
    const text = (m[1] ?? '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\\(.)/g, '$1')
      .replace(/[`*]/g, '');
    const base = slugify(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

/** Rewrites the links of every page in `dir` to anchors that exist; returns how many it changed. */
export function fixAnchors(dir: string): number {
  const pages = readdirSync(dir).filter((f) => f.endsWith('.md'));
  const ids = new Map(pages.map((f) => [f.replace(/\.md$/, ''), headingIds(readFileSync(join(dir, f), 'utf8'))]));
  let changed = 0;
  for (const f of pages) {
    const self = f.replace(/\.md$/, '');
    const text = readFileSync(join(dir, f), 'utf8');
    const fixed = text.replace(
      /\[([^\]]*)\]\(((?:\.\/)?([\w-]*?)(?:\.md)?)#([\w-]+)\)/g,
      (whole, label: string, _target: string, page: string, anchor: string) => {
        const target = page === '' ? self : page;
        const known = ids.get(target);
        if (!known) return whole; // another folder's page: VitePress checks those
        if (known.has(anchor)) return whole;
        const plain = anchor.replace(/-\d+$/, '');
        changed++;
        if (known.has(plain)) return `[${label}](${page === '' ? '' : `${page}.md`}#${plain})`;
        return label;
      },
    );
    if (fixed !== text) writeFileSync(join(dir, f), fixed);
  }
  return changed;
}
