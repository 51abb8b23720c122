/**
 * A batch of what the operator's informers delivered, as runtime/manager/dev-console.ts posts it to
 * /dev/objects (the runtime's DevObjectsReport; the CLI does not import the embedded runtime).
 */
export interface ReportedObjects {
  objects?: Array<{
    /** As kubectl names it: `memcacheds.cache.example.com`, `deployments.apps`, `configmaps`. */
    resource: string;
    type: string;
    /** When the informer delivered it, ms since the epoch. */
    at: number;
    object: unknown;
  }>;
  /** Informers that have just listed: every uid each holds, so the others are gone. */
  listed?: Array<{ resource: string; apiVersion: string; kind: string; uids: string[] }>;
}
