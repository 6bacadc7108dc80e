// Types of bin/bundle.mjs for the TypeScript that calls it (the test set-up, the benches).
export declare const bundleFile: string;
export declare function bundleIsFresh(): boolean;
/** The bundle's path; null when it is missing and esbuild is not installed to build it. */
export declare function ensureBundle(): Promise<string | null>;
