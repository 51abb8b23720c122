/**
 * Descriptions from doc comments, cleaned the way controller-gen cleans Go comments: lines that
 * start with `TODO` are dropped, and so is everything from a `---` line on (outside code fences);
 * line breaks are kept. JSDoc block tags (`@see`, `@deprecated`, …) are not part of the text, nor
 * are Go marker lines (`+kubebuilder:validation:Maximum=5`), which controller-gen leaves out too.
 * `truncateDescription` implements `--max-desc-len`.
 */

/**
 * A comment line that is a Go marker (`+kubebuilder:…`, `+optional`, `+listType=map`, …), with the
 * marker in group 1. tsop's own scaffold markers (`+kubebuilder:scaffold:…`) are not among them.
 */
export const GO_MARKER_LINE =
  /^\s*(?:\/\/+|\/\*+|\*+)?\s*(\+(?!kubebuilder:scaffold:)(?:kubebuilder:|k8s:|(?:optional|required|nullable|listType|listMapKey|mapType|structType|default|groupName|versionName|genclient)\b).*?)\s*(?:\*\/)?\s*$/;

export function cleanDescription(raw: string): string | undefined {
  const out: string[] = [];
  let fenced = false;
  for (const line of raw.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('```')) fenced = !fenced;
    if (!fenced && trimmed === '---') break;
    if (!fenced && trimmed.startsWith('TODO')) continue;
    if (!fenced && GO_MARKER_LINE.test(trimmed)) continue;
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
