// Types of bin/bundle.mjs for the TypeScript that calls it (the test set-up, the benches).
export declare const bundleFile: string;
export declare function bundleIsFresh(): boolean;
export declare function ensureBundle(): Promise<string>;
export declare function oneByteText(text: string): string;
