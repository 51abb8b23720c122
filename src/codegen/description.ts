/**
 * Descriptions from doc comments, cleaned the way controller-gen cleans Go comments: lines that
 * start with `TODO` are dropped, and so is everything from a `---` line on (outside code fences);
 * line breaks are kept. JSDoc block tags (`@see`, `@deprecated`, …) are not part of the text.
 * `truncateDescription` implements `--max-desc-len`.
 */

export function cleanDescription(raw: string): string | undefined {
  const out: string[] = [];
  let fenced = false;
  for (const line of raw.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('```')) fenced = !fenced;
    if (!fenced && trimmed === '---') break;
    if (!fenced && trimmed.startsWith('TODO')) continue;
    out.push(line.trimEnd());
  }
  const text = out.join('\n').trim();
  return text === '' ? undefined : text;
}

/**
 * Shortens a description to at most `max` characters: at the last sentence end that fits, else at
 * the last word with `...`. `max` 0 removes it.
 */
export function truncateDescription(text: string, max: number): string | undefined {
  if (max <= 0) return undefined;
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const sentenceEnd = Math.max(head.lastIndexOf('. '), head.lastIndexOf('.\n'), head.endsWith('.') ? head.length - 1 : -1);
  if (sentenceEnd > 0) return head.slice(0, sentenceEnd + 1);
  const room = head.slice(0, Math.max(0, max - 3));
  const wordEnd = room.lastIndexOf(' ');
  return `${(wordEnd > 0 ? room.slice(0, wordEnd) : room).trimEnd()}...`;
}
