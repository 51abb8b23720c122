/**
 * Unified diffs for `tsop manifests --check`: a line diff (Myers' O(ND) shortest edit script)
 * printed with three lines of context, like `diff -u`. Very different files (more than
 * MAX_EDITS edits) are shown as one replacement hunk instead of spending time on a minimal diff.
 */

const MAX_EDITS = 4000;
const CONTEXT = 3;

type Op = { kind: ' ' | '-' | '+'; line: string };

/** `diff -u` output for old → new, or '' when equal. Missing files are passed as ''. */
export function unifiedDiff(oldText: string, newText: string, oldName: string, newName: string): string {
  if (oldText === newText) return '';
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const ops = editScript(a, b) ?? [
    ...a.map((line): Op => ({ kind: '-', line })),
    ...b.map((line): Op => ({ kind: '+', line })),
  ];
  const out = [`--- ${oldText === '' ? '/dev/null' : oldName}`, `+++ ${newText === '' ? '/dev/null' : newName}`];
  for (const h of hunks(ops)) out.push(h);
  return `${out.join('\n')}\n`;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Myers' greedy forward algorithm with a trace of V arrays for backtracking. */
function editScript(a: string[], b: string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0))
          ? (v[offset + k + 1] ?? 0)
          : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, offset, d);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], a: string[], b: string[], offset: number, dEnd: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK] ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) ops.push({ kind: ' ', line: a[--x] as string }) && y--;
    if (down) ops.push({ kind: '+', line: b[--y] as string });
    else ops.push({ kind: '-', line: a[--x] as string });
  }
  while (x > 0 && y > 0) ops.push({ kind: ' ', line: a[--x] as string }) && y--;
  return ops.reverse();
}

/** Groups the script into `@@ -a,b +c,d @@` hunks with CONTEXT lines around each change. */
function hunks(ops: Op[]): string[] {
  const out: string[] = [];
  const changed = ops.map((o) => o.kind !== ' ');
  let i = 0;
  let aLine = 1;
  let bLine = 1;
  while (i < ops.length) {
    const next = changed.indexOf(true, i);
    if (next < 0) break;
    const start = Math.max(i, next - CONTEXT);
    for (let j = i; j < start; j++) {
      aLine++;
      bLine++;
    }
    // Extend the hunk while the next change is within 2*CONTEXT lines.
    let end = next;
    for (let j = next; j < ops.length; j++) {
      if (changed[j]) end = j;
      else if (j - end > 2 * CONTEXT) break;
    }
    const stop = Math.min(ops.length, end + CONTEXT + 1);
    const body = ops.slice(start, stop);
    const aCount = body.filter((o) => o.kind !== '+').length;
    const bCount = body.filter((o) => o.kind !== '-').length;
    out.push(`@@ -${aCount === 0 ? aLine - 1 : aLine},${aCount} +${bCount === 0 ? bLine - 1 : bLine},${bCount} @@`);
    for (const o of body) out.push(`${o.kind}${o.line}`);
    aLine += aCount;
    bLine += bCount;
    i = stop;
  }
  return out;
}
