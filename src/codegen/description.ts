/**
 * Descriptions from doc comments, cleaned the way controller-gen cleans Go comments: blank lines
 * at either end dropped and runs of them kept as one (go/ast's comment text), then lines that
 * start with `TODO` dropped and everything from a line starting with `---` on (outside code fences
 * of ``` or ~~~); line breaks and the indentation of lines are kept. JSDoc block tags (`@see`, `@deprecated`, …) are not part of the text, nor
 * are Go marker lines (`+kubebuilder:validation:Maximum=5`), which controller-gen leaves out too.
 * `truncateDescription` implements `--max-desc-len`.
 */

/** The bare Go markers (no `kubebuilder:` prefix) controller-gen and the Kubernetes code generators read. */
const BARE_GO_MARKERS =
  'optional|required|nullable|listType|listMapKey|mapType|structType|default|groupName|versionName|genclient';

/**
 * A comment line that is a Go marker (`+kubebuilder:…`, `+optional`, `+listType=map`, …), with the
 * marker in group 1. tsop's own scaffold markers (`+kubebuilder:scaffold:…`) are not among them.
 */
export const GO_MARKER_LINE = new RegExp(
  String.raw`^\s*(?:\/\/+|\/\*+|\*+)?\s*(\+(?!kubebuilder:scaffold:)(?:kubebuilder:|k8s:|(?:${BARE_GO_MARKERS})\b).*?)\s*(?:\*\/)?\s*$`,
);

export function cleanDescription(raw: string): string | undefined {
  const out: string[] = [];
  let fenced = false;
  for (const line of raw.split('\n')) {
    const trimmed = line.trim();
    if (GO_MARKER_LINE.test(trimmed)) continue;
    const text = line.trimEnd();
    // As go/ast reads a comment: blank lines at the ends dropped, runs of them kept as one.
    if (text === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(text);
  }
  while (out[out.length - 1] === '') out.pop();
  // Then controller-gen's rules, on the lines as written (an indented TODO or --- stays).
  const kept: string[] = [];
  for (const line of out) {
    if (line.startsWith('```') || line.startsWith('~~~')) fenced = !fenced;
    if (!fenced && line.startsWith('TODO')) continue;
    if (!fenced && line.startsWith('---')) break;
    kept.push(line);
  }
  const text = kept.join('\n');
  return text.trim() === '' ? undefined : text;
}

/**
 * `--max-desc-len`, cut where controller-gen's `maxDescLen` cuts: the first `max` bytes, then
 * after the last sentence terminal in them (`.`, `!`, `?` and the other Unicode ones), else at
 * the last whitespace with `...`, else with `...` right there. `max` 0 removes it.
 */
export function truncateDescription(text: string, max: number): string | undefined {
  if (max <= 0) return undefined;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  // Whole characters only: a cut inside one would leave bytes that are no text.
  let end = max;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  const head = bytes.subarray(0, end).toString('utf8');
  const terminal = lastIndex(head, SENTENCE_TERMINAL);
  if (terminal > 0) return head.slice(0, terminal + 1);
  const space = lastIndex(head, /\p{White_Space}/u);
  if (space > 0) return `${head.slice(0, space)}...`;
  return `${head}...`;
}

const SENTENCE_TERMINAL = /\p{Sentence_Terminal}/u;

function lastIndex(s: string, pattern: RegExp): number {
  for (let i = s.length - 1; i >= 0; i--) if (pattern.test(s[i] as string)) return i;
  return -1;
}
