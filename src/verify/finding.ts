/**
 * What `tsop manifests --verify` reports: one finding per problem the generator or the real API
 * server found, each located at a file and line (the decorator, or the sample's field), printed as
 * one line. Errors fail the run; notes (defaults the server applied, its warnings) do not.
 */
import type { SourcePos } from '../codegen/model.js';

export type Severity = 'error' | 'warning' | 'default';

export interface Finding {
  severity: Severity;
  /** Where to fix it: the decorator, or the sample file and line. */
  pos: SourcePos;
  message: string;
  /** The decorator a sample finding comes from, when it is not `pos` itself. */
  rule?: SourcePos & { marker?: string };
}

/** `file:line: message (from file:line @Marker)`, with any line break of the server's text folded. */
export function formatFinding(f: Finding): string {
  const from = f.rule ? ` (from ${f.rule.file}:${f.rule.line}${f.rule.marker ? ` @${f.rule.marker}` : ''})` : '';
  return `${f.pos.file}:${f.pos.line}: ${oneLine(f.message)}${from}`;
}

/** The first line of a server message, whitespace runs folded: CEL errors add a caret diagram below. */
function oneLine(text: string): string {
  return (text.split('\n')[0] ?? '').replace(/\s+/g, ' ').trim();
}

/** Sorted by file, then line, then text; duplicates (one cause seen twice) dropped. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const f of findings) {
    const key = `${f.severity}\u0000${formatFinding(f)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
  }
  return out.sort((a, b) =>
    a.pos.file !== b.pos.file
      ? a.pos.file < b.pos.file
        ? -1
        : 1
      : a.pos.line - b.pos.line || (formatFinding(a) < formatFinding(b) ? -1 : 1),
  );
}
