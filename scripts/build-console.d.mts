/** Types for scripts/build-console.mjs (a plain ES module, so ensure-installed.mjs runs it without a compiler). */
export declare const CONSOLE_DIST: string;
export declare function buildConsole(outdir?: string): { script: string; stylesheet: string | null; files: string[] };
