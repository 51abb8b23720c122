/**
 * An in-memory log destination: collects JSON lines so tests can assert on what was logged.
 */
import type { DestinationStream } from 'pino';

export interface MemoryDestination extends DestinationStream {
  /** Every line written so far, parsed. */
  records(): Record<string, unknown>[];
  clear(): void;
}

export function memoryDestination(): MemoryDestination {
  let lines: string[] = [];
  return {
    write(msg: string): void {
      // pino may hand over several lines at once when it batches.
      for (const line of msg.split('\n')) if (line.trim() !== '') lines.push(line);
    },
    records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
    clear: () => {
      lines = [];
    },
  };
}
