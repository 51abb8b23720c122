/**
 * Health and readiness checks behind /healthz and /readyz. A check is a named async function
 * that throws (or rejects) when unhealthy; an endpoint answers 200 only when every check passes,
 * and `/readyz/<name>` runs one check — the shape kubelet probes and controller-runtime use.
 */

export type Checker = () => Promise<void> | void;

export class DuplicateCheckError extends Error {
  override readonly name = 'DuplicateCheckError';
}

export interface CheckReport {
  ok: boolean;
  /** One line per check: '[+]name ok' or '[-]name failed: reason'. */
  lines: string[];
}

export class Checks {
  private readonly checks = new Map<string, Checker>();

  add(name: string, check: Checker): void {
    if (this.checks.has(name)) throw new DuplicateCheckError(`check "${name}" is already registered`);
    this.checks.set(name, check);
  }

  has(name: string): boolean {
    return this.checks.has(name);
  }

  /** Runs every check (or only `only`); unknown names report as failed. */
  async run(only?: string): Promise<CheckReport> {
    const names = only === undefined ? [...this.checks.keys()] : [only];
    const lines: string[] = [];
    let ok = true;
    for (const name of names) {
      const check = this.checks.get(name);
      try {
        if (!check) throw new Error('no such check');
        await check();
        lines.push(`[+]${name} ok`);
      } catch (err) {
        ok = false;
        lines.push(`[-]${name} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return { ok, lines };
  }
}

/** Always healthy: proves the process answers HTTP. */
export const ping: Checker = () => {};
