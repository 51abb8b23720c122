export declare const MAX_LINE: number;
export declare function excludedBy(includes: readonly string[], path: string): boolean;
export declare function longLines(file: string, text: string, max?: number): string[];
export declare function checkFiles(root: string, files: readonly string[], includes: readonly string[]): string[];
