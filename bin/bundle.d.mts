// Types of bin/bundle.mjs for the TypeScript that calls it (the test set-up, the benches).
export declare const bundleFile: string;
export declare const distFiles: readonly string[];
export declare function bundleIsFresh(): boolean;
export declare function buildToolsInstalled(): boolean;
/** The bundle's path; null when it is missing and esbuild is not installed to build it. */
export declare function ensureBundle(): Promise<string | null>;
