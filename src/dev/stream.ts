/**
 * The one output stream of `tsop dev`: every line prefixed by where it came from (`tsop`,
 * `operator`, `api`), the operator's JSON log (runtime/log) turned into short lines, and the
 * status line. Pure functions, so the formatting is tested without a control plane.
 */

export type Source = 'tsop' | 'operator' | 'api';

const WIDTH = 'operator'.length;

/** Prefixes each line of `text` with its source, padded so the messages line up. */
export function prefixed(source: Source, text: string): string {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => `${source.padEnd(WIDTH)} | ${l}\n`)
    .join('');
}

/** The outcome of one reconcile, as the status line shows it. */
export interface ReconcileOutcome {
  controller: string;
  object: string;
  result: string;
  error?: string;
}

export interface OperatorLine {
  /** What to print; undefined drops the line (debug chatter other than reconcile results). */
  text?: string;
  reconcile?: ReconcileOutcome;
  /** Where the operator's health probes (and /debug/controllers) listen: its 'serving health probes' record. */
  healthProbePort?: number;
}

type LogRecord = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Reads one line of the operator's output: runtime JSON log lines are shortened, anything else is kept as is. */
export function formatOperatorLine(line: string): OperatorLine {
  let rec: LogRecord;
  try {
    const parsed: unknown = JSON.parse(line);
    if (
      typeof parsed !== 'object' ||
      parsed === null ||
      Array.isArray(parsed) ||
      typeof (parsed as LogRecord)['msg'] !== 'string'
    )
      return { text: line };
    rec = parsed as LogRecord;
  } catch {
    return { text: line };
  }
  const level = str(rec['level']) ?? 'info';
  const msg = rec['msg'] as string;
  const controller = str(rec['controller']);
  const name = str(rec['name']);
  const object = name ? (str(rec['namespace']) ? `${str(rec['namespace'])}/${name}` : name) : undefined;
  const where = [controller, object].filter(Boolean).join(' ');
  const err = errorText(rec['err']);
  const trigger = str(rec['trigger']);
  if (msg === 'Reconciled' && controller && object) {
    const result = str(rec['result']) ?? 'success';
    const after = typeof rec['requeueAfterMs'] === 'number' ? ` after ${rec['requeueAfterMs']} ms` : '';
    const took = typeof rec['durationMs'] === 'number' ? ` in ${rec['durationMs']} ms` : '';
    return {
      text: `reconciled ${where}: ${result}${after}${took}${trigger ? ` (${trigger})` : ''}`,
      reconcile: { controller, object, result, ...(err ? { error: err } : {}) },
    };
  }
  if (level === 'debug' || level === 'trace') return {};
  const head = level === 'info' ? '' : `${level.toUpperCase()} `;
  const text = `${head}${where ? `${where}: ` : ''}${msg}${err ? `: ${err}` : ''}`;
  // A reconcile that threw is logged at error level with the controller and object (controller-runtime's 'Reconciler error').
  if (level === 'error' && controller && object && /Reconciler/.test(msg)) {
    return { text, reconcile: { controller, object, result: 'error', ...(err ? { error: err } : {}) } };
  }
  const port = rec['port'];
  if (msg === 'serving health probes' && typeof port === 'number') return { text, healthProbePort: port };
  return { text };
}

function errorText(err: unknown): string | undefined {
  if (typeof err === 'string') return err;
  if (typeof err === 'object' && err !== null) {
    const m = (err as Record<string, unknown>)['message'];
    if (typeof m === 'string') return m.split('\n')[0];
  }
  return undefined;
}

export interface DevStatus {
  plane: string;
  crds: number;
  objects: number;
  operator: string;
  last?: ReconcileOutcome;
}

/** The status line: control plane, CRDs, applied sample objects, operator, last reconcile result. */
export function statusLine(s: DevStatus): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const last = s.last
    ? `last reconcile ${s.last.controller} ${s.last.object}: ${s.last.result}${s.last.error ? ` (${s.last.error})` : ''}`
    : 'no reconcile yet';
  return `status: ${s.plane} · ${plural(s.crds, 'CRD')} · ${plural(s.objects, 'object')} · ${s.operator} · ${last}`;
}
