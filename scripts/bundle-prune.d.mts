export declare const STALE_KEEP_MS: number;
export declare function staleKeepMs(env?: NodeJS.ProcessEnv): number;
export declare function pruneStale(dir: string, current: ReadonlySet<string>, keepMs: number, now?: number): string[];
