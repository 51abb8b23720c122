/**
 * Label selectors as operator-sdk takes them for `bundle validate --select-optional` and
 * `scorecard --selector`: `key=value`, `key==value` and `key!=value` terms joined by commas, all
 * of which must hold.
 */
export interface SelectorTerm {
  key: string;
  value: string;
  negate: boolean;
}

export function parseSelector(text: string): SelectorTerm[] | undefined {
  const out: SelectorTerm[] = [];
  for (const term of text.split(',').map((t) => t.trim())) {
    const m = /^([A-Za-z0-9._/-]+)\s*(!=|==|=)\s*([A-Za-z0-9._-]*)$/.exec(term);
    if (!m) return undefined;
    out.push({ key: m[1]!, value: m[3]!, negate: m[2] === '!=' });
  }
  return out;
}

export function selects(selector: readonly SelectorTerm[], labels: Readonly<Record<string, string>>): boolean {
  return selector.every((t) => (labels[t.key] === t.value) !== t.negate);
}
